package shaping

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"
)

// defaultQuestionTimeout is how long an elicitation put to a client waits
// for its answer when [Options.QuestionTimeout] is zero (contract section 6).
const defaultQuestionTimeout = 5 * time.Minute

// Why an open question ended without the client's answer: unanswered
// returns one of them, and [Send] then answers the handler with "cancel".
var (
	// ErrQuestionTimeout: the client gave no answer within the question
	// timeout.
	errQuestionTimeout = errors.New("shaping: the elicitation got no answer in time")
	// ErrSessionEnded: the client's session ended (closed, deleted, or the
	// client went away) while the question was open.
	errSessionEnded = errors.New("shaping: the session ended with the elicitation open")
	// ErrShutdown: the shaper was closed (the server is shutting down).
	errShutdown = errors.New("shaping: the server shut down with the elicitation open")
)

// questions are the elicitations put to clients and not answered yet, so
// that a session's end or the server's shutdown can end them at once.
type questions struct {
	timeout time.Duration

	mu     sync.Mutex
	closed bool
	open   map[*question]struct{}
}

type question struct {
	key    any
	id     string
	cancel context.CancelCauseFunc
}

// questionContext returns the context in which to wait for the client's answer to
// one elicitation (the legacy era's elicitation/create; in the stateless
// era the client answers with a new request, so nothing waits). It is ctx
// bounded by the question timeout ([Options.QuestionTimeout]) and cancelled
// when the connection key or the session id ends ([Shaper.EndQuestions],
// [Shaper.EndSession]) or the shaper is closed ([Shaper.Close]). Call done
// when the answer arrived or the wait ended. When the wait ended with an
// error, unanswered says whether it was one of these, and [Send] then
// answers the handler with "cancel".
func (s *Shaper) questionContext(ctx context.Context, key any, sessionID string) (qctx context.Context, done func()) {
	t := &s.questions
	cctx, cancel := context.WithCancelCause(ctx)
	tctx, stop := context.WithTimeoutCause(cctx, t.timeout, errQuestionTimeout)
	q := &question{key: key, id: sessionID, cancel: cancel}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		cancel(errShutdown)
		return tctx, stop
	}
	if t.open == nil {
		t.open = make(map[*question]struct{})
	}
	t.open[q] = struct{}{}
	t.mu.Unlock()
	return tctx, func() {
		t.mu.Lock()
		delete(t.open, q)
		t.mu.Unlock()
		stop()
		cancel(nil)
	}
}

// Unanswered reports why the question whose context qctx is (from
// questionContext) ended without an answer: errQuestionTimeout,
// errSessionEnded or errShutdown; nil when it did not end, or ended
// because the request itself was cancelled.
func unanswered(qctx context.Context) error {
	if qctx.Err() == nil {
		return nil
	}
	switch cause := context.Cause(qctx); {
	case errors.Is(cause, errQuestionTimeout), errors.Is(cause, errSessionEnded), errors.Is(cause, errShutdown):
		return cause
	}
	return nil
}

// EndQuestions ends at once every open question of the session with this
// id (when not "") or of the connection key (when not nil); the handlers
// waiting on them get "cancel". Front ends call it when a session is
// closed or deleted, or its client went away, before the SDK waits for the
// session's requests to finish. It returns the number of questions ended.
func (s *Shaper) EndQuestions(key any, sessionID string) int {
	if key == nil && sessionID == "" {
		return 0
	}
	t := &s.questions
	t.mu.Lock()
	var ended []*question
	for q := range t.open {
		if key != nil && q.key == key || sessionID != "" && q.id == sessionID {
			ended = append(ended, q)
			delete(t.open, q)
		}
	}
	t.mu.Unlock()
	for _, q := range ended {
		q.cancel(errSessionEnded)
	}
	if len(ended) > 0 {
		s.log.Debug("open elicitations ended with their session",
			zap.String("session", sessionID), zap.Int("questions", len(ended)))
	}
	return len(ended)
}

// Close ends every open question at once, and every question put after it
// ends as soon as it is put: call it first when the server shuts down, so
// that the SDK's wait for requests under way does not wait on clients.
// Negotiation goes on working after Close.
func (s *Shaper) Close() {
	t := &s.questions
	t.mu.Lock()
	t.closed = true
	ended := make([]*question, 0, len(t.open))
	for q := range t.open {
		ended = append(ended, q)
	}
	clear(t.open)
	t.mu.Unlock()
	for _, q := range ended {
		q.cancel(errShutdown)
	}
	if len(ended) > 0 {
		s.log.Info("open elicitations ended by shutdown", zap.Int("questions", len(ended)))
	}
}

// OpenQuestions returns the number of questions open, for tests and
// metrics.
func (s *Shaper) OpenQuestions() int {
	s.questions.mu.Lock()
	defer s.questions.mu.Unlock()
	return len(s.questions.open)
}

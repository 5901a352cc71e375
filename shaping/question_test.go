package shaping_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/contentneg/contentneg/shaping"
)

// bound is how long a question may take to end once something ended it: a
// bound for hangs, not a timing measurement.
const bound = 5 * time.Second

func waitDone(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(bound):
		t.Fatal("the question did not end")
	}
}

func TestQuestionEnds(t *testing.T) {
	type key struct{ n int }
	tests := []struct {
		name string
		opts *shaping.Options
		end  func(s *shaping.Shaper, cancelRequest context.CancelFunc)
		want error // nil: ended by the request itself, not the shaper
	}{
		{"timeout", &shaping.Options{QuestionTimeout: time.Millisecond}, func(*shaping.Shaper, context.CancelFunc) {}, shaping.ErrQuestionTimeout},
		{"session id ended", nil, func(s *shaping.Shaper, _ context.CancelFunc) { s.EndQuestions(nil, "s1") }, shaping.ErrSessionEnded},
		{"connection ended", nil, func(s *shaping.Shaper, _ context.CancelFunc) { s.EndSession(key{1}, "") }, shaping.ErrSessionEnded},
		{"shutdown", nil, func(s *shaping.Shaper, _ context.CancelFunc) { s.Close() }, shaping.ErrShutdown},
		{"request cancelled", nil, func(_ *shaping.Shaper, cancel context.CancelFunc) { cancel() }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(tt.opts)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			qctx, done := s.Question(ctx, key{1}, "s1")
			other, otherDone := s.Question(context.Background(), key{2}, "s2")
			defer otherDone()
			if s.OpenQuestions() != 2 {
				t.Fatalf("%d questions open, want 2", s.OpenQuestions())
			}
			tt.end(s, cancel)
			waitDone(t, qctx)
			if got := shaping.Unanswered(qctx); !errors.Is(got, tt.want) || (tt.want == nil) != (got == nil) {
				t.Errorf("Unanswered = %v, want %v", got, tt.want)
			}
			done()
			if tt.name != "shutdown" && tt.name != "timeout" && other.Err() != nil {
				t.Error("another session's question ended too")
			}
			if n := s.OpenQuestions(); n > 1 {
				t.Errorf("%d questions open after done, want at most the other one", n)
			}
		})
	}
}

func TestQuestionAfterCloseEndsAtOnce(t *testing.T) {
	s := shaping.New(nil)
	s.Close()
	qctx, done := s.Question(context.Background(), nil, "")
	defer done()
	waitDone(t, qctx)
	if got := shaping.Unanswered(qctx); !errors.Is(got, shaping.ErrShutdown) {
		t.Errorf("Unanswered = %v, want ErrShutdown", got)
	}
	if s.OpenQuestions() != 0 {
		t.Errorf("%d questions open after Close", s.OpenQuestions())
	}
}

func TestAnsweredQuestionIsNotUnanswered(t *testing.T) {
	s := shaping.New(nil)
	qctx, done := s.Question(context.Background(), nil, "s1")
	done() // the answer came
	if got := shaping.Unanswered(qctx); got != nil {
		t.Errorf("Unanswered = %v after done, want nil", got)
	}
	if s.EndQuestions(nil, "s1") != 0 {
		t.Error("an answered question was ended again")
	}
}

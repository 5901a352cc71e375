package middleware

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/shaping"
)

func TestHandlerEndsQuestionsOfAClientThatWentAway(t *testing.T) {
	const (
		result   = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n"
		question = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"elicitation/create\",\"params\":{}}\n\n"
	)
	tests := []struct {
		name    string
		method  string
		session string
		writes  []string
		gone    bool // the client's connection is gone when the handler returns
		wantEnd bool
	}{
		{"delete", http.MethodDelete, "s1", nil, false, true},
		{"delete of another session", http.MethodDelete, "s2", nil, false, false},
		{"gone while asked", http.MethodPost, "s1", []string{result, question}, true, true},
		{"gone after its response", http.MethodPost, "s1", []string{question, result}, true, false},
		{"gone after an accepted notification", http.MethodPost, "s1", nil, true, false},
		{"asked and still there", http.MethodPost, "s1", []string{question}, false, false},
		{"no session", http.MethodPost, "", []string{question}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(nil)
			qctx, stop := openQuestion(s, "s1")
			defer stop()
			// The inner handler stands for the SDK: a question is sent for
			// a request of the POST (and waits, as the sending middleware
			// records it), a result answers the POST's request (after its
			// questions were answered).
			inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var waiting []func()
				for _, ev := range tt.writes {
					if post := sdk.PostOfHeader(r.Header); post != nil {
						switch ev {
						case question:
							waiting = append(waiting, post.Ask())
						case result:
							for _, done := range waiting {
								done()
							}
							waiting = nil
						}
					}
					_, _ = io.WriteString(w, ev)
					http.NewResponseController(w).Flush()
				}
			})
			ctx, cancel := context.WithCancel(context.Background())
			if tt.gone {
				cancel()
			}
			defer cancel()
			req := httptest.NewRequestWithContext(ctx, tt.method, "/mcp", nil)
			if tt.session != "" {
				req.Header.Set("Mcp-Session-Id", tt.session)
			}
			rec := httptest.NewRecorder()
			handler(s, inner).ServeHTTP(rec, req)
			if ended := qctx.Err() != nil; ended != tt.wantEnd {
				t.Errorf("question ended: %v, want %v", ended, tt.wantEnd)
			}
			if tt.writes != nil && !rec.Flushed {
				t.Error("the events were not flushed through the wrapper")
			}
		})
	}
}

// openQuestion puts one elicitation to the client of the session id
// through shaping.Send, and returns the context its answer is awaited in
// once it is open; stop ends the wait.
func openQuestion(s *shaping.Shaper, sessionID string) (qctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	port := waitPort{id: sessionID, asked: make(chan context.Context, 1)}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		_, _ = shaping.Send(ctx, s, port, struct{}{})
	}()
	return <-port.asked, func() { cancel(); <-sent }
}

// waitPort is a shaping.SendPort whose client never answers.
type waitPort struct {
	id    string
	asked chan context.Context
}

func (p waitPort) Session(struct{}) (any, string) { return nil, p.id }
func (p waitPort) Send(ctx context.Context, _ struct{}) (string, error) {
	p.asked <- ctx
	<-ctx.Done()
	return "", ctx.Err()
}
func (waitPort) Answer(action string) string { return action }

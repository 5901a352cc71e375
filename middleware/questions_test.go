package middleware_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// endBound is how long the server side may take to finish a question whose
// session ended: a bound for hangs, not a timing measurement.
const endBound = 5 * time.Second

// questioner is a server whose tool "ask" puts one question with
// middleware.Elicit and reports the answer the handler got on answers.
type questioner struct {
	server  *mcp.Server
	m       *middleware.Middleware
	answers chan string
	asked   chan struct{}
}

func newQuestioner(opts *middleware.Options) *questioner {
	q := &questioner{answers: make(chan string, 16), asked: make(chan struct{}, 16)}
	q.server = mcp.NewServer(&mcp.Implementation{Name: "questioner", Version: "1.0.0"}, nil)
	q.server.AddTool(&mcp.Tool{Name: "ask", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		answer, ask, err := middleware.Elicit(ctx, req, "q", question)
		switch {
		case err != nil:
			q.answers <- "error: " + err.Error()
			return nil, err
		case ask != nil:
			q.answers <- "asked by result"
			return ask, nil
		}
		q.answers <- answer.Action
		return answered(answer.Action), nil
	})
	q.m = middleware.Install(q.server, opts)
	return q
}

// silent is an interactive client that never answers: its handler reports
// the question on asked and waits until the server withdraws it or release
// is closed. Tests close release when they return, before the sessions
// close: a client session's close waits for its handlers.
func silent(asked chan<- struct{}, release <-chan struct{}) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-release:
			return nil, context.Canceled
		}
	}}
}

// waitFor returns what arrives on ch, or fails the test after endBound.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(endBound):
		t.Fatalf("%s: nothing after %v", what, endBound)
		var zero T
		return zero
	}
}

// callInBackground calls "ask" and leaves the result to the test's end.
func callInBackground(t *testing.T, cs *mcp.ClientSession) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
	}()
	t.Cleanup(func() { cancel(); <-done })
}

func TestQuestionTimeoutEndsAsCancel(t *testing.T) {
	for _, tags := range [][]string{{"interactive"}, nil} {
		t.Run(map[bool]string{true: "declared", false: "undeclared"}[tags != nil], func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			q := newQuestioner(&middleware.Options{QuestionTimeout: 50 * time.Millisecond})
			cs := middlewaretest.Connect(t, q.server, &client.Options{Settings: settingsOf(tags), Legacy: true, Client: silent(q.asked, release)})
			if got := onlyText(t, call(t, cs, "ask", map[string]any{})); got != "answer: cancel" {
				t.Errorf("text = %q, want %q", got, "answer: cancel")
			}
			if n := q.m.Shaper().OpenQuestions(); n != 0 {
				t.Errorf("%d questions open after the call", n)
			}
		})
	}
}

func TestStatelessEraHoldsNoQuestion(t *testing.T) {
	// In the stateless era the question is part of the result: the server
	// is done with the request when the client starts thinking about it.
	release := make(chan struct{})
	defer close(release)
	q := newQuestioner(&middleware.Options{})
	url := serveQuestioner(t, q, true)
	cs := connectHTTP(t, url, &client.Options{Settings: client.Declare("interactive"), Client: silent(q.asked, release)})
	callInBackground(t, cs)
	waitFor(t, q.asked, "the question")
	if got := waitFor(t, q.answers, "the handler"); got != "asked by result" {
		t.Errorf("the handler got %q, want it to have returned the question", got)
	}
	if n := q.m.Shaper().OpenQuestions(); n != 0 {
		t.Errorf("%d questions open", n)
	}
}

// serveQuestioner serves q over streamable HTTP, through the middleware's
// HTTP handler, and returns the test server.
func serveQuestioner(t *testing.T, q *questioner, stateless bool) string {
	return serveQuestionerHTTP(t, q, stateless).URL
}

func serveQuestionerHTTP(t *testing.T, q *questioner, stateless bool) *httptest.Server {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return q.server }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(q.m.Handler(h))
	t.Cleanup(func() {
		q.m.Close()
		for ss := range q.server.Sessions() {
			_ = ss.Close()
		}
		srv.Close()
	})
	return srv
}

func TestClosingASessionEndsItsQuestions(t *testing.T) {
	tests := []struct {
		name string
		tags []string
		end  func(t *testing.T, srv *httptest.Server, cs *mcp.ClientSession)
	}{
		{"deleted", []string{"interactive"}, deleteSession},
		{"deleted, undeclared", nil, deleteSession},
		{"client vanished", []string{"interactive"}, vanish},
		{"client vanished, undeclared", nil, vanish},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			q := newQuestioner(&middleware.Options{})
			srv := serveQuestionerHTTP(t, q, false)
			cs := connectHTTP(t, srv.URL, &client.Options{Settings: settingsOf(tt.tags), Legacy: true, Client: silent(q.asked, release)})
			callInBackground(t, cs)
			waitFor(t, q.asked, "the question")
			tt.end(t, srv, cs)
			if got := waitFor(t, q.answers, "the handler"); got != "cancel" {
				t.Errorf("the handler got %q, want %q", got, "cancel")
			}
			if n := q.m.Shaper().OpenQuestions(); n != 0 {
				t.Errorf("%d questions open", n)
			}
		})
	}
}

// deleteSession sends the DELETE a client sends when it closes its
// session, and checks that it is answered within the bound.
func deleteSession(t *testing.T, srv *httptest.Server, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), endBound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Session-Id", cs.ID())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("DELETE of the session: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE: status %d, want %d", resp.StatusCode, http.StatusNoContent)
	}
}

// vanish drops every connection of the client, as a client that crashed.
func vanish(_ *testing.T, srv *httptest.Server, _ *mcp.ClientSession) {
	srv.CloseClientConnections()
}

func TestCloseEndsEveryOpenQuestion(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	q := newQuestioner(&middleware.Options{})
	url := serveQuestioner(t, q, false)
	for range 3 {
		cs := connectHTTP(t, url, &client.Options{Settings: client.Declare("interactive"), Legacy: true, Client: silent(q.asked, release)})
		callInBackground(t, cs)
		waitFor(t, q.asked, "the question")
	}
	q.m.Close()
	for range 3 {
		if got := waitFor(t, q.answers, "a handler"); got != "cancel" {
			t.Errorf("a handler got %q, want %q", got, "cancel")
		}
	}
	// A question put after Close ends at once.
	cs := connectHTTP(t, url, &client.Options{Settings: client.Declare("interactive"), Legacy: true, Client: silent(q.asked, release)})
	if got := onlyText(t, call(t, cs, "ask", map[string]any{})); got != "answer: cancel" {
		t.Errorf("after Close: text = %q, want %q", got, "answer: cancel")
	}
}

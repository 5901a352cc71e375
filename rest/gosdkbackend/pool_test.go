package gosdkbackend_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather/weathertest"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
	"github.com/contentneg/contentneg/rest/resttest"
)

// sessions returns the server's sessions.
func sessions(s *mcp.Server) map[*mcp.ServerSession]bool {
	out := map[*mcp.ServerSession]bool{}
	for ss := range s.Sessions() {
		out[ss] = true
	}
	return out
}

func legacyBackend(t *testing.T, s *mcp.Server, maxSessions int) gosdkbackend.Backend {
	t.Helper()
	b, err := gosdkbackend.New(context.Background(), s, &gosdkbackend.Options{ProtocolVersion: client.LegacyProtocol, MaxSessions: maxSessions})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// callText calls get_weather for Bern declaring tags and returns its text.
func callText(t testing.TB, b gosdkbackend.Backend, tags ...string) string {
	t.Helper()
	res, err := b.CallTool(context.Background(), "get_weather", json.RawMessage(`{"city":"Bern"}`), tags)
	if err != nil || res.IsError {
		t.Fatalf("call declaring %q: %v %+v", tags, err, res)
	}
	return res.Text
}

// TestLegacyBackendDeclaresAtInitialize: in the legacy era, the backend
// declares a feature set once, at the initialize of a session of its own,
// and its requests carry no declaration, as an MCP client of that era
// does; the stateless era declares in every request's _meta.
func TestLegacyBackendDeclaresAtInitialize(t *testing.T) {
	tests := []struct {
		name          string
		version       string
		wantMeta      bool // the calls declare in _meta
		wantInitCaps  bool // the sessions declare at initialize
		wantNewPerSet bool // a session per feature set
	}{
		{name: "legacy", version: client.LegacyProtocol, wantInitCaps: true, wantNewPerSet: true},
		{name: "stateless", version: "", wantMeta: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := weatherServer(t)
			var mu sync.Mutex
			var metas []bool
			s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					if method == "tools/call" {
						_, declared := req.GetParams().GetMeta()[mcp.MetaKeyClientCapabilities]
						mu.Lock()
						metas = append(metas, declared)
						mu.Unlock()
					}
					return next(ctx, method, req)
				}
			})
			b, err := gosdkbackend.New(context.Background(), s, &gosdkbackend.Options{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			before := sessions(s)
			md := callText(t, b, "format=markdown", "!interactive")
			afterOne := sessions(s)
			if md2 := callText(t, b, "format=markdown", "!interactive"); md2 != md {
				t.Errorf("the same features gave another rendering:\n%q\n%q", md2, md)
			}
			if got := sessions(s); len(got) != len(afterOne) {
				t.Errorf("the same features again: %d sessions, want %d (reused)", len(got), len(afterOne))
			}
			txt := callText(t, b, "format=text", "!interactive")
			if txt == md {
				t.Errorf("format=text rendered as format=markdown: %q", txt)
			}
			wantSessions := len(before)
			if tt.wantNewPerSet {
				wantSessions += 2
			}
			if got := sessions(s); len(got) != wantSessions {
				t.Errorf("%d sessions after two feature sets, want %d", len(got), wantSessions)
			}
			for ss := range sessions(s) {
				if before[ss] {
					continue
				}
				caps := ss.InitializeParams().Capabilities
				if _, ok := caps.Extensions["io.modelcontextprotocol/content-negotiation"]; ok != tt.wantInitCaps || caps.Elicitation != nil {
					t.Errorf("a session declares %+v at initialize, want the extension: %v, and no elicitation", caps, tt.wantInitCaps)
				}
			}
			for i, declared := range metas {
				if declared != tt.wantMeta {
					t.Errorf("call %d: declares in _meta: %v, want %v", i, declared, tt.wantMeta)
				}
			}
		})
	}
}

// TestLegacySessionsAreBounded: at most MaxSessions sessions per feature
// set are kept; the least recently used one is closed for a new set, and
// the sets still kept are served by their sessions.
func TestLegacySessionsAreBounded(t *testing.T) {
	s := weatherServer(t)
	b := legacyBackend(t, s, 2)
	base := len(sessions(s)) // the session that declares nothing
	sets := [][]string{{"format=markdown"}, {"format=text"}, {"format=json"}}
	steps := []struct {
		set          int
		wantSessions int  // besides the base one
		wantNew      bool // a session was connected for it
	}{
		{set: 0, wantSessions: 1, wantNew: true},
		{set: 1, wantSessions: 2, wantNew: true},
		{set: 0, wantSessions: 2},                // reused; set 1 is now the least recently used
		{set: 2, wantSessions: 2, wantNew: true}, // set 1's session is closed
		{set: 0, wantSessions: 2},                // still kept
		{set: 1, wantSessions: 2, wantNew: true}, // connected again; set 2's session is closed
	}
	for i, st := range steps {
		before := sessions(s)
		callText(t, b, sets[st.set]...)
		after := sessions(s)
		if got := len(after) - base; got != st.wantSessions {
			t.Errorf("step %d (%v): %d sessions, want %d", i, sets[st.set], got, st.wantSessions)
		}
		isNew := false
		for ss := range after {
			if !before[ss] {
				isNew = true
			}
		}
		if isNew != st.wantNew {
			t.Errorf("step %d (%v): a new session: %v, want %v", i, sets[st.set], isNew, st.wantNew)
		}
	}
}

// TestLegacySessionsCloseWithTheBackend: Close ends every session the
// backend opened, and what comes after is ErrClosed.
func TestLegacySessionsCloseWithTheBackend(t *testing.T) {
	s := weatherServer(t)
	b := legacyBackend(t, s, 0)
	for _, f := range []string{"format=markdown", "format=text", "format=json"} {
		callText(t, b, f)
	}
	if got := len(sessions(s)); got != 4 {
		t.Fatalf("%d sessions, want 4 (one per feature set and the base one)", got)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(sessions(s)); got != 0 {
		t.Errorf("%d sessions left after Close, want 0", got)
	}
	if _, err := b.CallTool(context.Background(), "get_weather", json.RawMessage(`{"city":"Bern"}`), []string{"format=text"}); !errors.Is(err, gosdkbackend.ErrClosed) {
		t.Errorf("a call after Close: %v, want ErrClosed", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestLegacySessionsUnderConcurrency: many requests over more feature sets
// than sessions kept, at once, each get their own rendering, although
// sessions are closed for others under them; no more sessions than the
// bound stay, and none after Close (run with -race).
func TestLegacySessionsUnderConcurrency(t *testing.T) {
	s := weatherServer(t)
	b := legacyBackend(t, s, 2)
	sets := [][]string{
		{"format=markdown", "!interactive"},
		{"format=text", "!interactive"},
		{"format=text", "verbosity=compact", "!interactive"},
		{"format=toon", "!interactive"},
	}
	// What each set renders, from a backend of its own.
	want := make([]string, len(sets))
	for i, set := range sets {
		one := legacyBackend(t, weatherServer(t), 1)
		want[i] = callText(t, one, set...)
	}
	const workers, calls = 8, 12
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				set := (w + i) % len(sets)
				res, err := b.CallTool(context.Background(), "get_weather", json.RawMessage(`{"city":"Bern"}`), sets[set])
				switch {
				case err != nil:
					errs <- fmt.Errorf("%v: %w", sets[set], err)
				case res.Text != want[set]:
					errs <- fmt.Errorf("%v: got %q, want %q", sets[set], res.Text, want[set])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(sessions(s)); got > 3 {
		t.Errorf("%d sessions kept, want at most 3 (2 per feature set and the base one)", got)
	}
	_ = b.Close()
	if got := len(sessions(s)); got != 0 {
		t.Errorf("%d sessions left after Close, want 0", got)
	}
}

// TestLegacyCanceledRequest: a request whose context has ended returns the
// context's error, and the session connected for its features serves the
// next request.
func TestLegacyCanceledRequest(t *testing.T) {
	s := weatherServer(t)
	b := legacyBackend(t, s, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := b.CallTool(ctx, "get_weather", json.RawMessage(`{"city":"Bern"}`), []string{"format=text"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled call: %v, want context.Canceled", err)
	}
	if got := callText(t, b, "format=text"); !strings.Contains(got, "Bern") {
		t.Errorf("the next call: %q", got)
	}
}

// TestLegacyRequestLeavesASlowConnect: a request whose context ends while
// its feature set's session is being connected returns the context's error
// then, not when the connect ends; the connect goes on, and its session
// serves the next request.
func TestLegacyRequestLeavesASlowConnect(t *testing.T) {
	s := weatherServer(t)
	b := legacyBackend(t, s, 0)
	entered, release := make(chan struct{}), make(chan struct{})
	var enter, free sync.Once
	t.Cleanup(func() { free.Do(func() { close(release) }) })
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "initialize" {
				enter.Do(func() { close(entered) })
				<-release
			}
			return next(ctx, method, req)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := b.CallTool(ctx, "get_weather", json.RawMessage(`{"city":"Bern"}`), []string{"format=text"})
		done <- err
	}()
	<-entered // the session for format=text is being connected
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the canceled request: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the canceled request still waits for the connect")
	}
	free.Do(func() { close(release) })
	if got := callText(t, b, "format=text"); !strings.Contains(got, "Bern") {
		t.Errorf("the next request: %q", got)
	}
	if got := len(sessions(s)); got != 2 {
		t.Errorf("%d sessions, want 2 (the base one and the one connected for format=text)", got)
	}
}

// TestLegacyBackendCostsAsMuchAsAnMCPClient: in the legacy era a call
// through the backend allocates about what the same call of an MCP client
// that declared the same tags at initialize allocates (the backend adds its
// copy of the content); declaring in every request's _meta cost some 80
// allocations more.
func TestLegacyBackendCostsAsMuchAsAnMCPClient(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations")
	}
	s := weatherServer(t)
	b := legacyBackend(t, s, 0)
	tags := []string{"format=text", "!interactive"}
	cs := middlewaretest.Connect(t, s, &client.Options{Legacy: true, Settings: client.Declare(tags...)})
	ctx := context.Background()
	args := json.RawMessage(`{"city":"Bern"}`)
	viaBackend := testing.AllocsPerRun(50, func() {
		if _, err := b.CallTool(ctx, "get_weather", args, tags); err != nil {
			t.Fatal(err)
		}
	})
	viaMCP := testing.AllocsPerRun(50, func() {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: args}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("backend %.0f, MCP client %.0f allocations per call", viaBackend, viaMCP)
	if viaBackend > viaMCP+20 {
		t.Errorf("a call through the backend: %.0f allocations, an MCP client's: %.0f; want at most 20 more", viaBackend, viaMCP)
	}
}

// TestRESTSuiteOverBothEras: the REST binding's black-box suite (package
// resttest) passes over the demo weather server with the backend in either
// era: one session declaring per request, or a session per feature set.
func TestRESTSuiteOverBothEras(t *testing.T) {
	fixture := weathertest.RESTFixture()
	for _, version := range []string{"", client.LegacyProtocol} {
		t.Run("protocol="+version, func(t *testing.T) {
			d := newDemo(t, weatherServer(t), &gosdkbackend.Options{ProtocolVersion: version})
			resttest.Run(t, d.rest.URL+"/mcp/v1", fixture)
		})
	}
}

package gateway_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/internal/gateway"
	"github.com/contentneg/contentneg/shaping"
)

// startGatewayWith starts u behind a gateway with opts.
func startGatewayWith(ctx context.Context, t *testing.T, u upstream, dir string, opts *gateway.Options) *gateway.Gateway {
	t.Helper()
	u.command(t, dir) // skips or fails without node, before the gateway starts
	g, err := gateway.New(ctx, func() mcp.Transport {
		return &mcp.CommandTransport{Command: u.command(t, dir)}
	}, opts)
	if err != nil {
		t.Fatalf("gateway to %s: %v", u.name, err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// connectClient connects client to g's mirror server in memory, in the era
// of version ("" for the stateless era), over the transport t gives (nil:
// the in-memory one as it is).
func connectClient(ctx context.Context, t *testing.T, g *gateway.Gateway, client *mcp.Client, version string, wrap func(mcp.Transport) mcp.Transport) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := g.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	var tr mcp.Transport = ct
	if wrap != nil {
		tr = wrap(ct)
	}
	cs, err := client.Connect(ctx, tr, so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// elicitOnce is a stateless-era client that answers nothing itself: its
// call returns the gateway's inputRequests as they are.
func elicitOnce() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "asked", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, nil // never called: the client's retry loop is off
		},
	})
}

// askedUntilPassed calls the elicitation tool for a new interactive client
// until its question reaches it: a held call that was not given up stays a
// request under way, and the gateway then declines every other client's
// question (docs/gateway.md).
func askedUntilPassed(ctx context.Context, t *testing.T, g *gateway.Gateway) {
	t.Helper()
	var asked atomic.Int32
	next := connectGateway(ctx, t, g, "", []string{"human"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Zoë"}}, nil
		},
	})
	for asked.Load() == 0 {
		res, err := next.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("the next client's call: %v", err)
		}
		if asked.Load() == 1 && !strings.Contains(text(res), "Zoë") {
			t.Fatalf("the next client's answer did not reach the upstream: %s", text(res))
		}
		select {
		case <-ctx.Done():
			t.Fatal("the held question never ended: other clients' questions are still declined")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestStatelessClientThatNeverComesBack: a stateless-era client gets the
// upstream's question as inputRequests and never retries. The upstream's
// call is not held for ever: it ends when the client's session ends, or
// after the question timeout while the client stays; other clients'
// questions then reach them again, and a late retry is told the question
// is no longer open.
func TestStatelessClientThatNeverComesBack(t *testing.T) {
	u := everythingServer(t)
	t.Run("vanished", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		g := startGateway(ctx, t, u, t.TempDir())
		var vanishing *vanishingTransport
		cs := connectClient(ctx, t, g, elicitOnce(), "", func(tr mcp.Transport) mcp.Transport {
			vanishing = &vanishingTransport{Transport: tr}
			return vanishing
		})
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
		if err != nil || len(res.InputRequests) != 1 || res.RequestState == "" {
			t.Fatalf("got %+v %v, want one input request and a request state", res, err)
		}
		_ = vanishing.conn.Close() // the client goes away without a word
		askedUntilPassed(ctx, t, g)
	})
	t.Run("stays silent", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		g := startGatewayWith(ctx, t, u, t.TempDir(), &gateway.Options{
			Shaping: &shaping.Options{QuestionTimeout: 200 * time.Millisecond},
		})
		cs := connectClient(ctx, t, g, elicitOnce(), "", nil)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
		if err != nil || len(res.InputRequests) != 1 {
			t.Fatalf("got %+v %v, want one input request", res, err)
		}
		askedUntilPassed(ctx, t, g)
		answers := mcp.InputResponseMap{}
		for id := range res.InputRequests {
			answers[id] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "late"}}
		}
		late, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{},
			InputResponses: answers, RequestState: res.RequestState})
		if err != nil || !late.IsError || !strings.Contains(text(late), "no longer open") {
			t.Fatalf("the late retry got %+v %v, want a tool error saying the question is no longer open", late, err)
		}
	})
}

// TestStatelessRetryThatMatchesNothing: a retry whose requestState names
// no held call (made up, or for another tool than the one asked) is a tool
// error, and nothing reaches the upstream's question of another call.
func TestStatelessRetryThatMatchesNothing(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	cs := connectClient(ctx, t, g, elicitOnce(), "", nil)
	asked, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
	if err != nil || len(asked.InputRequests) != 1 {
		t.Fatalf("got %+v %v, want one input request", asked, err)
	}
	answers := mcp.InputResponseMap{}
	for id := range asked.InputRequests {
		answers[id] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Zoë"}}
	}
	tests := []struct {
		name  string
		tool  string
		state string
	}{
		{name: "made-up state", tool: "trigger-elicitation-request", state: "contentneg-held-0123456789abcdef0123456789abcdef"},
		{name: "not the gateway's state", tool: "trigger-elicitation-request", state: "anything"},
		{name: "another tool than the one asked", tool: "echo", state: asked.RequestState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{"message": "hi"},
				InputResponses: answers, RequestState: tt.state})
			if err != nil || !res.IsError || !strings.Contains(text(res), "no longer open") {
				t.Fatalf("got %+v %v, want a tool error saying the question is no longer open", res, err)
			}
		})
	}
	// The held call is still there for the right retry.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{},
		InputResponses: answers, RequestState: asked.RequestState})
	if err != nil || res.IsError || !strings.Contains(text(res), "Zoë") {
		t.Fatalf("the right retry got %+v %v, want the upstream's result with the answer", res, err)
	}
}

// TestSamplingReachesOnlyCapableClients: the everything server's sampling
// tool asks the gateway for an LLM completion during the call. A client
// with the sampling capability is asked (in both eras; !interactive does
// not close it: capabilities govern, contract section 3) and its answer
// reaches the upstream's result; to a client without it nothing is sent,
// and the upstream gets the gateway's "method not found" (a go-sdk client
// asked without the capability would answer -31001 "client does not
// support CreateMessage" in the legacy era, and fail its call in the
// stateless one).
func TestSamplingReachesOnlyCapableClients(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	tests := []struct {
		name      string
		features  []string
		capable   bool
		wantAsked int32
		want      string
		wantError bool
	}{
		{name: "capable, undeclared", capable: true, wantAsked: 1, want: "Grüezi from the model"},
		{name: "capable, not interactive", features: []string{"agent", "!interactive"}, capable: true, wantAsked: 1, want: "Grüezi from the model"},
		{name: "without the capability", features: []string{"agent"}, wantAsked: 0, want: `method not found: "sampling/createMessage"`, wantError: true},
	}
	for _, era := range eras {
		for _, tt := range tests {
			t.Run(era.name+"/"+tt.name, func(t *testing.T) {
				var asked atomic.Int32
				opts := &mcp.ClientOptions{}
				if tt.capable {
					opts.CreateMessageHandler = func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
						asked.Add(1)
						return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "Grüezi from the model"}}, nil
					}
				}
				cs := connectGateway(ctx, t, g, era.version, tt.features, opts)
				waitForTool(ctx, t, cs, "trigger-sampling-request")
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-sampling-request", Arguments: map[string]any{"prompt": "say hello", "maxTokens": 20}})
				if err != nil {
					t.Fatal(err)
				}
				if n := asked.Load(); n != tt.wantAsked {
					t.Errorf("the client was asked %d times, want %d", n, tt.wantAsked)
				}
				if got := text(res); !strings.Contains(got, tt.want) || res.IsError != tt.wantError {
					t.Errorf("the upstream's result (isError %v) %q does not show %q (isError %v)", res.IsError, got, tt.want, tt.wantError)
				}
			})
		}
	}
}

// TestRootsReachOnlyCapableClients: the everything server's roots tool asks
// the gateway for the client's roots during the call (it caches the first
// list it gets for its one session, hence a gateway per era). A client
// without the roots capability is not asked, and the upstream has none; a
// client with it is asked, and its roots reach the upstream's result.
func TestRootsReachOnlyCapableClients(t *testing.T) {
	u := everythingServer(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			g := startGatewayWith(ctx, t, u, t.TempDir(), &gateway.Options{Logger: zaptest.NewLogger(t), PassRoots: true})
			without := connectClient(ctx, t, g, mcp.NewClient(&mcp.Implementation{Name: "rootless", Version: "1"},
				&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}), era.version, nil)
			waitForTool(ctx, t, without, "get-roots-list")
			res, err := without.CallTool(ctx, &mcp.CallToolParams{Name: "get-roots-list", Arguments: map[string]any{}})
			if err != nil || !strings.Contains(text(res), "no roots are currently configured") {
				t.Fatalf("a client without roots: %v %q, want the upstream to have none", err, text(res))
			}
			var asked atomic.Int32
			client := rootedClient(&asked)
			with := connectClient(ctx, t, g, client, era.version, nil)
			res, err = with.CallTool(ctx, &mcp.CallToolParams{Name: "get-roots-list", Arguments: map[string]any{}})
			if err != nil || !strings.Contains(text(res), "file:///srv/zoe") {
				t.Fatalf("a client with roots: %v %q, want its root in the upstream's result", err, text(res))
			}
			// In the stateless era the client's retry loop answers the
			// input request without its receiving methods: the result shows it.
			if era.version != "" && asked.Load() < 1 {
				t.Errorf("the client with roots was asked %d times, want at least once", asked.Load())
			}
		})
	}
}

// rootedClient is a client with the roots capability and one root,
// file:///srv/zoe, that counts the roots/list requests it gets in asked.
func rootedClient(asked *atomic.Int32) *mcp.Client {
	client := mcp.NewClient(&mcp.Implementation{Name: "rooted", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}},
	})
	client.AddRoots(&mcp.Root{URI: "file:///srv/zoe", Name: "Zoë's project"})
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "roots/list" {
				asked.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	return client
}

// TestRootsAreNotPassedByDefault: without Options.PassRoots the gateway
// declares no roots upstream, so the everything server offers no roots
// tool, and a downstream client with roots is never asked for them, even
// when it says they changed.
func TestRootsAreNotPassedByDefault(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	var asked atomic.Int32
	client := rootedClient(&asked)
	cs := connectClient(ctx, t, g, client, eras[1].version, nil) // legacy: list_changed on the session
	// Listed after the handshake, as get-roots-list would be.
	waitForTool(ctx, t, cs, "trigger-sampling-request")
	client.AddRoots(&mcp.Root{URI: "file:///srv/other", Name: "another"}) // sends list_changed
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name == "get-roots-list" {
			t.Errorf("the upstream offers get-roots-list: it was told of roots")
		}
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}}); err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the client was asked for its roots %d times, want 0", n)
	}
}

// TestFilesystemKeepsItsDirectories: the gateway declares roots upstream,
// so server-filesystem asks roots/list after initialize, and again when a
// downstream client's notifications/roots/list_changed is passed on. With
// no request under way there is no one to ask: the gateway answers with an
// error, and the server keeps the directories of its command line (an
// answer would replace them, for every client of the gateway).
func TestFilesystemKeepsItsDirectories(t *testing.T) {
	var fs upstream
	for _, u := range upstreams {
		if u.name == "filesystem" {
			fs = u
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	fs.prepare(t, dir)
	root, err := filepath.EvalSymlinks(filepath.Join(dir, "root"))
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	core, logs := observer.New(zapcore.DebugLevel)
	g := startGatewayWith(ctx, t, fs, dir, &gateway.Options{Logger: zap.New(core), PassRoots: true})
	refused := func() int {
		n := 0
		for _, e := range logs.FilterMessageSnippet("not passed on").All() {
			if e.ContextMap()["method"] == "roots/list" {
				n++
			}
		}
		return n
	}
	waitFor := func(n int) {
		t.Helper()
		for refused() < n {
			select {
			case <-ctx.Done():
				t.Fatalf("the upstream asked roots/list %d times, want %d", refused(), n)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	waitFor(1) // after initialize
	for i, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			client := mcp.NewClient(&mcp.Implementation{Name: "rooted", Version: "1"}, &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}},
			})
			cs := connectClient(ctx, t, g, client, era.version, nil)
			client.AddRoots(&mcp.Root{URI: "file://" + other}) // notifies the gateway
			waitFor(2 + i)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if got := text(res); !strings.Contains(got, root) || strings.Contains(got, other) {
				t.Errorf("allowed directories %q, want the command line's %s only", got, root)
			}
		})
	}
}

// TestRoundTripOverStatelessHTTP: over stateless streamable HTTP every
// request of a stateless-era client has a session of its own, so the
// retry that carries the answer arrives on another session than the
// question: it still resumes the held call, for a question and for
// sampling; and a client there that never comes back holds nothing past
// the question timeout.
func TestRoundTripOverStatelessHTTP(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startGatewayWith(ctx, t, u, t.TempDir(), &gateway.Options{
		Logger:  zaptest.NewLogger(t),
		Shaping: &shaping.Options{QuestionTimeout: 500 * time.Millisecond},
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.Server() },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	connect := func(opts *mcp.ClientOptions) *mcp.ClientSession {
		t.Helper()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "1"}, opts).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	var asked atomic.Int32
	cs := connect(&mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Zoë", "check": true}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked.Add(1)
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "Grüezi from the model"}}, nil
		},
	})
	waitForTool(ctx, t, cs, "trigger-sampling-request")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{tool: "trigger-elicitation-request", args: map[string]any{}, want: `"name": "Zoë"`},
		{tool: "trigger-sampling-request", args: map[string]any{"prompt": "say hello", "maxTokens": 20}, want: "Grüezi from the model"},
	} {
		before := asked.Load()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError || !strings.Contains(text(res), c.want) || asked.Load() != before+1 {
			t.Fatalf("%s over stateless HTTP: %v %q, asked %d times, want the answer %s once", c.tool, err, text(res), asked.Load()-before, c.want)
		}
	}
	silent := connect(&mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	res, err := silent.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
	if err != nil || len(res.InputRequests) != 1 {
		t.Fatalf("got %+v %v, want one input request", res, err)
	}
	askedUntilPassed(ctx, t, g) // once the question timeout has ended the silent client's
}

// askingUpstream is a go-sdk server whose tool "interview" asks, in the
// stateless era's way, a first question, then a second one and a sampling
// request together, and answers with what it got: the upstream's
// questions over several rounds.
func askingUpstream(t *testing.T) func() mcp.Transport {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "interviewer", Version: "1"}, nil)
	form := func(msg string) *mcp.ElicitParams {
		return &mcp.ElicitParams{Message: msg, RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}},
		}}
	}
	answer := func(r mcp.InputResponse) string {
		switch r := r.(type) {
		case *mcp.ElicitResult:
			if r.Action != "accept" {
				return r.Action
			}
			v, _ := r.Content["answer"].(string)
			return v
		case *mcp.CreateMessageWithToolsResult:
			if len(r.Content) == 1 {
				if tc, ok := r.Content[0].(*mcp.TextContent); ok {
					return tc.Text
				}
			}
		case *mcp.CreateMessageResult:
			if tc, ok := r.Content.(*mcp.TextContent); ok {
				return tc.Text
			}
		}
		return fmt.Sprintf("%T", r)
	}
	s.AddTool(&mcp.Tool{Name: "interview", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in := req.Params.InputResponses
		if req.Params.RequestState == "" {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"first": form("first?")}, RequestState: "round-2"}, nil
		}
		if req.Params.RequestState == "round-2" {
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{
					"second": form("second?"),
					"sample": &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}},
				},
				RequestState: "round-3:" + answer(in["first"]),
			}, nil
		}
		first := strings.TrimPrefix(req.Params.RequestState, "round-3:")
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{
			Text: fmt.Sprintf("first=%s second=%s sampled=%s", first, answer(in["second"]), answer(in["sample"])),
		}}}, nil
	})
	return func() mcp.Transport {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ss.Close() })
		return ct
	}
}

// TestQuestionsOverSeveralRounds: an upstream that asks over several
// rounds, once two requests at a time (a question and sampling), gets
// every answer from the downstream client in both eras: a stateless-era
// client gets each round's input requests as the result of its request or
// of its retry, until the upstream's final result.
func TestQuestionsOverSeveralRounds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g, err := gateway.New(ctx, askingUpstream(t), &gateway.Options{Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			var asked []string
			var mu sync.Mutex
			cs := connectGateway(ctx, t, g, era.version, []string{"human"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					asked = append(asked, req.Params.Message)
					mu.Unlock()
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": strings.TrimSuffix(req.Params.Message, "?") + "-answer"}}, nil
				},
				CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					mu.Lock()
					asked = append(asked, "sample")
					mu.Unlock()
					return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "sampled-answer"}}, nil
				},
			})
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "interview", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := text(res), "first=first-answer second=second-answer sampled=sampled-answer"; got != want || res.IsError {
				t.Errorf("the upstream's result %q, want %q", got, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 3 || asked[0] != "first?" {
				t.Errorf("the client was asked %v, want first?, then second? and sample", asked)
			}
		})
	}
}

// TestCloseEndsOpenQuestions: a question the upstream put to a client is
// one of the middleware's open questions while the client thinks (a
// stateless-era client's held call, a legacy-era client's
// elicitation/create), and closing the gateway ends it at once, and the
// upstream's call with it: Close does not wait for the client, nor for the
// call timeout (60 s; the test allows 30).
func TestCloseEndsOpenQuestions(t *testing.T) {
	u := everythingServer(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			g := startGateway(ctx, t, u, t.TempDir())
			if era.version == "" {
				cs := connectClient(ctx, t, g, elicitOnce(), "", nil)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
				if err != nil || len(res.InputRequests) != 1 {
					t.Fatalf("got %+v %v, want one input request", res, err)
				}
			} else {
				asked := make(chan struct{})
				cs := connectGateway(ctx, t, g, era.version, []string{"human"}, &mcp.ClientOptions{
					ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						close(asked)
						<-ctx.Done() // a person who does not answer
						return nil, ctx.Err()
					},
				})
				go func() {
					_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
				}()
				select {
				case <-asked:
				case <-ctx.Done():
					t.Fatal("the client was not asked")
				}
			}
			if n := g.Middleware().Shaper().OpenQuestions(); n != 1 {
				t.Fatalf("%d open questions while the client thinks, want 1", n)
			}
			closed := make(chan struct{})
			go func() {
				_ = g.Close() // its error is the upstream's exit status
				close(closed)
			}()
			select {
			case <-closed:
			case <-ctx.Done():
				t.Fatal("Close waited for the client")
			}
			if n := g.Middleware().Shaper().OpenQuestions(); n != 0 {
				t.Errorf("%d open questions after Close, want 0", n)
			}
		})
	}
}

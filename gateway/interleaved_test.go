package gateway_test

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/gateway"
)

// subscribingUpstream is goUpstream with resource subscriptions and a tool
// that tells its subscribers note://a changed.
func subscribingUpstream() *mcp.Server {
	var s *mcp.Server
	s = mcp.NewServer(&mcp.Implementation{Name: "subscribing", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.AddTool(&mcp.Tool{Name: "touch", InputSchema: &jsonschemaObject}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "note://a"}); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "touched"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "roots", InputSchema: &jsonschemaObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		uri := ""
		if len(res.Roots) > 0 {
			uri = res.Roots[0].URI
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: uri}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "note://a", Name: "a", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "note://a", MIMEType: "text/plain", Text: "a"}}}, nil
	})
	return s
}

// TestTwoHTTPClientsInterleaved: two clients over -http, their requests
// interleaved, never see each other's roots or resource updates (state,
// questions and logs: TestHTTPClientsShareNoState and
// TestHTTPQuestionAfterCancelReachesNoOtherClient in cmd/contentneg).
func TestTwoHTTPClientsInterleaved(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g := newGateway(t, inProcess(t, subscribingUpstream), nil)
	srv := httptest.NewServer(g.Handler(nil))
	t.Cleanup(srv.Close)
	type client struct {
		cs      *mcp.ClientSession
		updates atomic.Int32
	}
	connect := func(root string) *client {
		c := &client{}
		mc := mcp.NewClient(&mcp.Implementation{Name: root, Version: "1"}, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) { c.updates.Add(1) },
		})
		mc.AddRoots(&mcp.Root{URI: root})
		cs, err := mc.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		c.cs = cs
		return c
	}
	a, b := connect("file:///home/a"), connect("file:///home/b")
	for _, c := range []*client{a, b} {
		if err := c.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "note://a"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 3; i++ { // interleaved
		if got := call(ctx, t, a.cs, "roots", nil); got != "file:///home/a" {
			t.Errorf("a's upstream reads the roots %q", got)
		}
		if got := call(ctx, t, b.cs, "roots", nil); got != "file:///home/b" {
			t.Errorf("b's upstream reads the roots %q", got)
		}
		call(ctx, t, a.cs, "touch", nil)
	}
	time.Sleep(300 * time.Millisecond)
	if a.updates.Load() != 3 || b.updates.Load() != 0 {
		t.Errorf("updates: a got %d, b got %d; want 3 and 0", a.updates.Load(), b.updates.Load())
	}
}

// TestStatelessHTTPBothEras: over -stateless HTTP in front of a go-sdk
// upstream, a client of the stateless era declares in each request and
// gets its rendering and the gate (the question by inputRequests,
// answered decline for a !interactive client); a client of the
// initialize era gets the upstream's results as they are.
func TestStatelessHTTPBothEras(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g := newGateway(t, inProcess(t, goUpstream), nil)
	srv := httptest.NewServer(g.Handler(&gateway.HTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		era  string
		want string
	}{
		{stateless, "answer decline"},
		{legacy, "answer decline"},
	} {
		t.Run(tt.era, func(t *testing.T) {
			var a asker
			opts := a.options()
			opts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}
			opts.Capabilities.AddExtension("io.modelcontextprotocol/content-negotiation", map[string]any{"version": "1.0", "features": []string{"human", "!interactive"}})
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts).
				Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: tt.era})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != tt.era {
				t.Fatalf("the client speaks %s, want %s", got, tt.era)
			}
			if got := call(ctx, t, cs, "confirm", nil); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if n := a.asked.Load(); n != 0 {
				t.Errorf("asked %d times", n)
			}
		})
	}
}

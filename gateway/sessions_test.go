package gateway_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/gateway"
)

// goUpstream is a go-sdk server (both eras) with a tool that asks its
// client (elicitation: by a request in the legacy era, by inputRequests in
// the stateless era) and one that reads the client's roots.
func goUpstream() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "go-upstream", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "confirm", InputSchema: &jsonschemaObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Params.InputResponses["ok"].(*mcp.ElicitResult); ok {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer " + r.Action}}}, nil
		}
		params := &mcp.ElicitParams{Message: "Proceed?", RequestedSchema: &jsonschemaObject}
		res, err := req.Session.Elicit(ctx, params)
		if err != nil {
			// The stateless era asks by the result.
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"ok": params}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer " + res.Action}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "roots", InputSchema: &jsonschemaObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(uris, ",")}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "note://a", Name: "a", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "note://a", MIMEType: "text/plain", Text: "a"}}}, nil
	})
	return s
}

var jsonschemaObject = jsonschemaObjectType()

// TestQuestionsInBothEras: a go-sdk upstream asks in the client's own era
// (a request in the legacy era, inputRequests in the stateless era); an
// interactive client is asked and its answer reaches the upstream; a
// !interactive one is asked nothing and the upstream gets decline.
func TestQuestionsInBothEras(t *testing.T) {
	for _, era := range []string{legacy, ""} {
		for _, tt := range []struct {
			features []string
			asked    int32
			want     string
		}{
			{[]string{"human"}, 1, "answer accept"},
			{[]string{"human", "!interactive"}, 0, "answer decline"},
		} {
			t.Run(fmt.Sprintf("%q %v", era, tt.features), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				g := newGateway(t, inProcess(t, goUpstream), nil)
				var a asker
				cs := sdkClient(ctx, t, g, era, tt.features, a.options())
				if got := call(ctx, t, cs, "confirm", nil); got != tt.want {
					t.Errorf("got %q, want %q", got, tt.want)
				}
				if n := a.asked.Load(); n != tt.asked {
					t.Errorf("asked %d times, want %d", n, tt.asked)
				}
			})
		}
	}
}

// TestRootsStayWithTheirClient: each client's roots reach its own upstream
// session only.
func TestRootsStayWithTheirClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	g := newGateway(t, inProcess(t, goUpstream), nil)
	clients := map[string]*mcp.ClientSession{}
	for _, name := range []string{"a", "b"} {
		clients[name] = sdkClientWithRoots(ctx, t, g, "file:///home/"+name)
	}
	for name, cs := range clients {
		if got := call(ctx, t, cs, "roots", nil); got != "file:///home/"+name {
			t.Errorf("%s's upstream reads the roots %q", name, got)
		}
	}
}

func sdkClientWithRoots(ctx context.Context, t *testing.T, g *gateway.Gateway, root string) *mcp.ClientSession {
	t.Helper()
	return sdkClientWith(ctx, t, g, legacy, func(c *mcp.Client) { c.AddRoots(&mcp.Root{URI: root}) })
}

// TestSixteenClientsOneOversize: sixteen clients at once, one of them
// getting oversize answers: every call of the others succeeds, and the
// upstream sessions never exceed the bound.
func TestSixteenClientsOneOversize(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	g := newGateway(t, hostile(t), &gateway.Options{MaxResult: 1 << 20})
	var wg sync.WaitGroup
	var ok, failed atomic.Int32
	for i := 0; i < 16; i++ {
		cs := sdkClient(ctx, t, g, legacy, nil, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				if i == 0 {
					_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "oversize", Arguments: map[string]any{"bytes": 2 << 20}})
					continue
				}
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 5}}); err != nil {
					failed.Add(1)
					t.Errorf("client %d: %v", i, err)
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 150 || failed.Load() != 0 {
		t.Errorf("%d calls succeeded and %d failed, want 150 and 0", ok.Load(), failed.Load())
	}
	if n := g.Upstreams(); n != 16 {
		t.Errorf("%d upstream sessions, want 16", n)
	}
}

// TestBeyondMaxUpstreams: a client past -max-upstreams gets a clear error,
// never someone else's session; when a client leaves, a new one is served.
func TestBeyondMaxUpstreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	g := newGateway(t, inProcess(t, goUpstream), &gateway.Options{MaxUpstreams: 2})
	first := pipeClient(t, g)
	first.Initialize(ctx, `{}`)
	second := pipeClient(t, g)
	second.Initialize(ctx, `{}`)
	third := pipeClient(t, g)
	got := third.CallRaw(ctx, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	if !strings.Contains(got, "all 2 upstream sessions are in use") {
		t.Errorf("the third client got %s", got)
	}
}

package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/gateway"
	"github.com/contentneg/contentneg/shaping"
)

// urlClient is a downstream client with URL-mode elicitation (and form
// mode too, if form), declaring features (nil: the extension undeclared),
// that accepts what it is asked and counts it.
func urlClient(features []string, form bool, asked *atomic.Int32, got chan<- *mcp.ElicitParams, completed chan<- string) *mcp.Client {
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}
	if form {
		caps.Elicitation.Form = &mcp.FormElicitationCapabilities{}
	}
	if features != nil {
		caps.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
	}
	return mcp.NewClient(&mcp.Implementation{Name: "browser", Version: "1"}, &mcp.ClientOptions{
		Capabilities: caps,
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			if got != nil {
				got <- req.Params
			}
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			if completed != nil {
				completed <- req.Params.ElicitationID
			}
		},
	})
}

// TestURLElicitationThroughTheGate: the everything server's
// trigger-url-elicitation, which it offers only to a client with URL-mode
// elicitation (the gateway declares it), in both downstream eras. A client
// with the URL capability is asked, with the upstream's URL, and its
// answer reaches the upstream; one with only form mode, or one that
// declared !interactive, is never asked and the upstream gets "decline".
// The tool's error path, -32042 with a URL-mode elicitation in its data,
// reaches the client as it is. The gateway declared form mode only before, and the
// upstream offered no such tool.
func TestURLElicitationThroughTheGate(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	const url = "https://auth.example.com/consent?state=xyz"
	tests := []struct {
		name      string
		features  []string
		url, form bool
		wantAsked int32
		want      string
	}{
		{name: "URL capability", features: []string{"human"}, url: true, wantAsked: 1, want: "User completed the URL elicitation flow"},
		{name: "undeclared, URL capability", url: true, form: true, wantAsked: 1, want: "User completed the URL elicitation flow"},
		{name: "form mode only", features: []string{"human"}, form: true, wantAsked: 0, want: "User declined"},
		{name: "not interactive", features: []string{"human", "!interactive"}, url: true, wantAsked: 0, want: "User declined"},
	}
	for _, era := range eras {
		for _, tt := range tests {
			t.Run(era.name+"/"+tt.name, func(t *testing.T) {
				var asked atomic.Int32
				got := make(chan *mcp.ElicitParams, 1)
				var client *mcp.Client
				if tt.url {
					client = urlClient(tt.features, tt.form, &asked, got, nil)
				} else {
					client = mcp.NewClient(&mcp.Implementation{Name: "form", Version: "1"}, &mcp.ClientOptions{
						Capabilities: formCaps(tt.features),
						ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
							asked.Add(1)
							return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
						},
					})
				}
				cs := connectClient(ctx, t, g, client, era.version, nil)
				waitForTool(ctx, t, cs, "trigger-url-elicitation")
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-url-elicitation", Arguments: map[string]any{"url": url, "elicitationId": "e-" + era.name}})
				if err != nil {
					t.Fatal(err)
				}
				if n := asked.Load(); n != tt.wantAsked {
					t.Errorf("the client was asked %d times, want %d", n, tt.wantAsked)
				}
				if s := text(res); !strings.Contains(s, tt.want) {
					t.Errorf("the upstream's result %q does not show %q", s, tt.want)
				}
				if tt.wantAsked == 1 {
					p := <-got
					if p.Mode != "url" || p.URL != url || p.ElicitationID != "e-"+era.name {
						t.Errorf("the client was asked %+v, want the upstream's URL-mode question", p)
					}
				}
			})
		}
		t.Run(era.name+"/error path", func(t *testing.T) {
			var asked atomic.Int32
			cs := connectClient(ctx, t, g, urlClient([]string{"human"}, false, &asked, nil, nil), era.version, nil)
			waitForTool(ctx, t, cs, "trigger-url-elicitation")
			// The upstream takes a call with the same session and URL for
			// the retry of one it refused: a URL of this run's own.
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-url-elicitation", Arguments: map[string]any{"url": url + "&era=" + era.name, "errorPath": true}})
			var we *jsonrpc.Error
			if !errors.As(err, &we) || we.Code != mcp.CodeURLElicitationRequired {
				t.Fatalf("the error path: %v; want -32042", err)
			}
			// The upstream's prerequisite, which names a URL of its own.
			var data struct {
				Elicitations []mcp.ElicitParams `json:"elicitations"`
			}
			if err := json.Unmarshal(we.Data, &data); err != nil || len(data.Elicitations) != 1 ||
				data.Elicitations[0].Mode != "url" || !strings.HasPrefix(data.Elicitations[0].URL, "https://") || data.Elicitations[0].ElicitationID == "" {
				t.Fatalf("the error's data %s; want the upstream's URL-mode elicitation", we.Data)
			}
			if n := asked.Load(); n != 0 {
				t.Errorf("the error path asked the client %d times", n)
			}
		})
	}
}

// formCaps are the capabilities of a client with form-mode elicitation
// only, declaring features.
func formCaps(features []string) *mcp.ClientCapabilities {
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
	if features != nil {
		caps.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
	}
	return caps
}

// TestURLElicitationCompletes: an upstream asks a URL-mode question during
// a call and, once it is accepted, says the out-of-band flow completed.
// The completion reaches the client that accepted, and no other client of
// the gateway (the upstream's session is all of theirs); a completion
// that matches no accepted question is dropped.
func TestURLElicitationCompletes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	up := mcp.NewServer(&mcp.Implementation{Name: "oauth", Version: "1"}, nil)
	up.AddTool(&mcp.Tool{Name: "login", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", URL: "https://auth.example.com/", ElicitationID: "flow-1", Message: "Sign in"})
		if err != nil {
			return nil, err
		}
		for _, id := range []string{"no-such-flow", "flow-1"} {
			if err := req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id}); err != nil {
				return nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action}}}, nil
	})
	g, err := newGatewayTo(ctx, t, up)
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	mine, others := make(chan string, 4), make(chan string, 4)
	cs := connectClient(ctx, t, g, urlClient([]string{"human"}, false, &asked, nil, mine), "2025-11-25", nil)
	connectClient(ctx, t, g, urlClient([]string{"human"}, false, &asked, nil, others), "2025-11-25", nil)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "login", Arguments: map[string]any{}})
	if err != nil || text(res) != "accept" {
		t.Fatalf("login: %v %v, want the client's accept", text(res), err)
	}
	select {
	case id := <-mine:
		if id != "flow-1" {
			t.Fatalf("the client got the completion of %q, want flow-1", id)
		}
	case <-ctx.Done():
		t.Fatal("the completion never reached the client that accepted")
	}
	select {
	case id := <-mine:
		t.Fatalf("a second completion, of %q, reached the client", id)
	case id := <-others:
		t.Fatalf("the completion of %q reached another client", id)
	case <-time.After(100 * time.Millisecond):
	}
}

// newGatewayTo starts a gateway in front of the go-sdk server up, in the
// legacy era (whose server sends requests of its own during a call).
func newGatewayTo(ctx context.Context, t *testing.T, up *mcp.Server) (*gateway.Gateway, error) {
	t.Helper()
	g, err := gateway.New(ctx, func() mcp.Transport {
		ct, st := mcp.NewInMemoryTransports()
		_, _ = up.Connect(context.Background(), legacyOnly{st}, nil)
		return ct
	}, nil)
	if err == nil {
		t.Cleanup(func() { _ = g.Close() })
	}
	return g, err
}

package behaviour_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/internal/rawrpc"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
)

// TestHostileRequests: the demo server with negotiation, on both SDKs and
// in both eras, gets every hostile request of rawrpc.Hostile (params left
// out, null, of another type, with members of the wrong types) over stdio
// bytes: each gets an answer, and the server still serves get_weather
// after them all. The gateway crashed on a list request without params;
// this holds every front end to the same table.
func TestHostileRequests(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		for _, era := range []string{"legacy", "stateless"} {
			t.Run(string(sdk)+"/"+era, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
				defer cancel()
				c := serveRaw(ctx, t, sdk)
				if era == "legacy" {
					c.Initialize(ctx, "{}")
				} else {
					c.Stateless("{}")
				}
				rawrpc.Hostile(ctx, t, c)
				got := c.Call(ctx, "tools/call", map[string]any{"name": "get_weather", "arguments": map[string]any{"city": "Bern"}})
				if !strings.Contains(got, "Bern") || strings.HasPrefix(got, "error") {
					t.Fatalf("get_weather after the hostile requests: %s", got)
				}
			})
		}
	}
}

// serveRaw serves the negotiated demo server of sdk over a pair of pipes,
// the bytes of a stdio connection, and returns a raw client of it.
func serveRaw(ctx context.Context, t *testing.T, sdk behaviour.SDK) *rawrpc.Client {
	t.Helper()
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	done := make(chan struct{})
	switch sdk {
	case serve.SDKGo:
		ss, err := behaviour.GoSDKServer(true).Connect(ctx, &mcp.IOTransport{Reader: serverR, Writer: serverW}, nil)
		if err != nil {
			t.Fatal(err)
		}
		go func() { defer close(done); _ = ss.Wait() }()
	default:
		go func() {
			defer close(done)
			_ = server.NewStdioServer(behaviour.MCPGoServer(true)).Listen(ctx, serverR, serverW)
		}()
	}
	t.Cleanup(func() {
		_ = clientW.Close()
		_ = serverR.Close()
		_ = serverW.Close()
		<-done
	})
	return rawrpc.NewClient(t, clientR, clientW)
}

// TestMalformedDeclarationsAreNeverAsked: a client that declares the
// extension and the real elicitation capability, with settings the server
// cannot read (rawrpc.HostileDeclarations: look-alikes of "!interactive",
// tags past the limits, values of the wrong JSON type), is treated as
// "!interactive" on both SDKs and in both eras: the calls that would ask a
// person get the gate's decline, no elicitation/create is sent and no
// inputRequests are returned. The hostile audit was asked 24 of 24 times.
func TestMalformedDeclarationsAreNeverAsked(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		for _, era := range []string{"legacy", "stateless"} {
			for _, d := range rawrpc.HostileDeclarations {
				t.Run(string(sdk)+"/"+era+"/"+d.Name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
					defer cancel()
					c := serveRaw(ctx, t, sdk)
					if era == "legacy" {
						c.Initialize(ctx, d.Caps)
					} else {
						c.Stateless(d.Caps)
					}
					for _, call := range []struct {
						name string
						args map[string]any
					}{
						{"get_weather", map[string]any{"city": "Springfield"}},
						{"set_alert", map[string]any{"city": "Bern", "threshold_c": 0}},
					} {
						got := c.Call(ctx, "tools/call", map[string]any{"name": call.name, "arguments": call.args})
						if !strings.Contains(got, `"isError":true`) || strings.Contains(got, "inputRequests") {
							t.Errorf("%s: not the gate's decline: %s", call.name, got)
						}
					}
					if asked := c.Asked(); len(asked) != 0 {
						t.Errorf("the client was asked: %v", asked)
					}
					got := c.Call(ctx, "tools/call", map[string]any{"name": "list_alerts", "arguments": map[string]any{}})
					if !strings.Contains(got, `{"alerts":[]}`) {
						t.Errorf("an alert was set without consent: %s", got)
					}
				})
			}
		}
	}
}

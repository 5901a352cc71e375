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

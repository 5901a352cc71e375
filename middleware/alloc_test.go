package middleware_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
)

// TestReceivingAllocations keeps the middleware's own allocations on a
// stateless-era tools/call of a typed tool whose result goes out as it is:
// none for a client that did not declare the extension, and at most 3 (the
// tag list, the profile, the call) for an agent whose typed result keeps
// its JSON mirror: the lookup of the tool's output schema, whose order the
// mirror follows (contract section 5, "Order and identity"), allocates
// nothing.
func TestReceivingAllocations(t *testing.T) {
	value := json.RawMessage(`{"station":"Bern","temperature_c":8.1}`)
	next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(value)}}, StructuredContent: value}, nil
	}
	ctx := context.Background()
	stub := testing.AllocsPerRun(200, func() { _, _ = next(ctx, "tools/call", nil) })
	tests := []struct {
		name string
		tags []string
		want float64
	}{
		{"undeclared", nil, 0},
		{"agent", []string{"agent", "mcp-capable", "sampling", "elicitation", "roots", "tasks", "verbosity=compact", "format!=markdown"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps := map[string]any{}
			if tt.tags != nil {
				caps["extensions"] = map[string]any{negotiation.ExtensionID: client.Declare(tt.tags...)}
			}
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
				Name: "get_weather",
				Meta: mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyClientCapabilities: caps},
			}}
			handler := middleware.New(nil).Receiving(next)
			got := testing.AllocsPerRun(200, func() {
				if _, err := handler(ctx, "tools/call", req); err != nil {
					t.Fatal(err)
				}
			}) - stub
			if got > tt.want {
				t.Errorf("%v allocations beyond the handler's, want at most %v", got, tt.want)
			}
		})
	}
}

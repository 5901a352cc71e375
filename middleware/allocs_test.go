package middleware_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
)

// Pass-through is free: for a client that did not declare the extension
// the middleware allocates nothing beyond what the handler does, in either
// era's shape of request.
func TestPassThroughAllocatesNothing(t *testing.T) {
	result := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"a":1}`}}}
	next := func(context.Context, string, mcp.Request) (mcp.Result, error) { return result, nil }
	handler := middleware.New(nil).Receiving(next)
	requests := map[string]*mcp.CallToolRequest{
		"stateless, capabilities without the extension": {Params: &mcp.CallToolParamsRaw{Name: "t", Meta: mcp.Meta{
			mcp.MetaKeyProtocolVersion:    "2026-07-28",
			mcp.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{}},
		}}},
		"stateless, no capabilities": {Params: &mcp.CallToolParamsRaw{Name: "t", Meta: mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28"}}},
		"no _meta":                   {Params: &mcp.CallToolParamsRaw{Name: "t"}},
	}
	ctx := context.Background()
	for name, req := range requests {
		if allocs := testing.AllocsPerRun(200, func() { _, _ = handler(ctx, "tools/call", req) }); allocs != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, allocs)
		}
	}
}

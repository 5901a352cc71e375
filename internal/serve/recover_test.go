package serve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
)

func TestExampleServersRecoverPanics(t *testing.T) {
	app := testApp(nil)
	app.Provide = []any{func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "boom", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("boom")
		})
		return s
	}}
	cs := servetest.Stdio(t, app, &client.Options{Legacy: true})
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	for range 2 { // the server goes on serving after the first
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("call: %v", err)
		}
		if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"boom" failed`) {
			t.Errorf("result %+v, want the tool error of a recovered panic", res)
		}
	}
}

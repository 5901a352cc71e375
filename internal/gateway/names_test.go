package gateway_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/gateway"
)

// TestNames: Names gives the upstream's tools, then its resources' URIs and
// resource templates' URI templates, in the upstream's order.
func TestNames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	up := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	for _, name := range []string{"zeta", "alpha"} {
		up.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	read := func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) { return nil, nil }
	up.AddResource(&mcp.Resource{URI: "file:///a.json", Name: "a"}, read)
	up.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "file:///{path}", Name: "files"}, read)
	g, err := gateway.New(ctx, func() mcp.Transport {
		st, ct := mcp.NewInMemoryTransports()
		if _, err := up.Connect(ctx, st, nil); err != nil {
			t.Error(err)
		}
		return ct
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	tools, resources := g.Names()
	// The go-sdk server lists its tools by name: that is this upstream's order.
	if diff := cmp.Diff([]string{"alpha", "zeta"}, tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"file:///a.json", "file:///{path}"}, resources); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

package mcpgobackend_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
	"github.com/contentneg/contentneg/rest/mcpgobackend"
)

// exact is a structured value that decoding into float64 and a map would
// change: a 20-digit integer, a trailing zero, members out of sorted order.
const exact = `{"price":1.50,"id":12345678901234567890,"tiny":1e-7,"big":1E+400}`

const exactSchema = `{"type":"object","properties":{"price":{"type":"number"},"id":{"type":"integer"},"tiny":{"type":"number"},"big":{"type":"number"}}}`

// exactHandlers returns the REST binding over a go-sdk server and over an
// mcp-go server, each with one tool "exact" whose handler returns the raw
// structured value exact.
func exactHandlers(t *testing.T) map[string]http.Handler {
	t.Helper()
	ctx := context.Background()

	gs := mcp.NewServer(&mcp.Implementation{Name: "exact", Version: "1.0.0"}, nil)
	gs.AddTool(&mcp.Tool{Name: "exact", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(exactSchema)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: exact}}, StructuredContent: json.RawMessage(exact)}, nil
		})
	m := middleware.Install(gs, nil)
	handlers := map[string]http.Handler{}
	for _, era := range []string{"", "2025-11-25"} {
		gb, err := gosdkbackend.New(ctx, gs, &gosdkbackend.Options{ProtocolVersion: era})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = gb.Close() })
		name := "go-sdk"
		if era != "" {
			name += " " + era
		}
		handlers[name] = rest.New(gb, &rest.Options{BasePath: "/mcp/v1", Negotiator: m.Shaper().Negotiator()})
	}

	ms := server.NewMCPServer("exact", "1.0.0", server.WithToolCapabilities(false))
	tool := mcpgomcp.NewToolWithRawSchema("exact", "", json.RawMessage(`{"type":"object"}`))
	tool.RawOutputSchema = json.RawMessage(exactSchema)
	ms.AddTool(tool,
		func(context.Context, mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
			return &mcpgomcp.CallToolResult{Content: []mcpgomcp.Content{mcpgomcp.NewTextContent(exact)}, RawStructuredContent: json.RawMessage(exact)}, nil
		})
	a := mcpgo.Install(ms, nil)
	mb, err := mcpgobackend.New(ctx, ms)
	if err != nil {
		t.Fatal(err)
	}
	handlers["mcp-go"] = rest.New(mb, &rest.Options{BasePath: "/mcp/v1", Negotiator: a.Shaper().Negotiator()})
	return handlers
}

// TestValuesExactly: every JSON body the binding writes carries the tool's
// structured value with its exact digits and member order, on both SDKs'
// backends (contract section 8, "Values exactly"): the execution body, and
// a fields= projection of it.
func TestValuesExactly(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  string
	}{
		{"the execution body", "", `"structuredContent":` + exact + `,`},
		{"a projection", "?fields=id,price", `"structuredContent":{"id":12345678901234567890,"price":1.50}`},
		{"a projection, in the order fields names them", "?fields=big,tiny", `"structuredContent":{"big":1E+400,"tiny":1e-7}`},
	}
	for name, h := range exactHandlers(t) {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				code, body := serve(h, "POST", "/mcp/v1/tools/exact/execute"+tt.query, "application/json", `{"arguments":{}}`)
				if code != 200 || !strings.Contains(body, tt.want) {
					t.Errorf("%d %s\nwant it to hold %s", code, body, tt.want)
				}
			})
		}
	}
}

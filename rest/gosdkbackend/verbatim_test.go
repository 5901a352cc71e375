package gosdkbackend_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/shaping"
)

// fileText is a .json file's contents, final newline included.
const fileText = "{\n  \"name\": \"contentneg\",\n  \"private\": true\n}\n"

// filesServer answers read_file (registered verbatim) and search (plain
// JSON text) with the same text.
func filesServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1.0.0"}, nil)
	for _, name := range []string{"read_file", "search"} {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fileText}}}, nil
			})
	}
	middleware.Install(s, &middleware.Options{Tools: map[string]shaping.Tool{"read_file": {Verbatim: true}}})
	return s
}

func TestVerbatimAndJSONTextOverREST(t *testing.T) {
	d := newDemo(t, filesServer(), nil)
	tests := []struct {
		name, tool, accept string
		check              func(body string) bool
	}{
		{"a verbatim tool's text as text", "read_file", "text/plain", func(body string) bool { return body == fileText }},
		{"a verbatim tool's text as markdown", "read_file", "text/markdown", func(body string) bool { return body == fileText }},
		{"a verbatim tool's text as JSON", "read_file", "application/json", func(body string) bool {
			return gjson.Get(body, "content.0.text").String() == fileText && !gjson.Get(body, "structuredContent").Exists()
		}},
		{"JSON text as JSON: the value", "search", "application/json", func(body string) bool {
			return gjson.Get(body, "structuredContent.name").String() == "contentneg" && gjson.Get(body, "content.#").Int() == 0
		}},
		{"JSON text as text: rendered", "search", "text/plain", func(body string) bool { return body != fileText && body != "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, body := d.post(t, t.Context(), tt.tool, tt.accept, map[string]any{})
			if code != 200 || !tt.check(body) {
				t.Errorf("%d %q", code, body)
			}
		})
	}
}

package middleware_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// Results that servers return as text, as most existing servers do.
var textResults = map[string]string{
	"file":      `{"path":"__init__.py","note":"*important*"}`,
	"globs":     `[{"glob":"*_test.go"},{"glob":"docs/**/*.md"}]`,
	"traceback": "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n    ~~~~^^\nKeyError: '__name__'",
	"listing":   "# files\n- README_*draft*.md\n-rw-r--r-- 1 root root 42 __init__.py\n+ added\n> quoted",
}

func newTextServer(install bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "text", Version: "1.0.0"}, nil)
	for name, text := range textResults {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			})
	}
	if install {
		middleware.Install(s, nil)
	}
	return s
}

// Text is never guessed to be markdown (contract section 5): a text client
// gets JSON returned as text rendered with its data verbatim, and prose,
// tracebacks and shell output exactly as the handler wrote them.
func TestTextIsNeverGuessedToBeMarkdown(t *testing.T) {
	for _, e := range eras {
		for _, tags := range [][]string{{"format=text"}, {"format=text", "verbosity=compact"}} {
			cs := middlewaretest.Connect(t, newTextServer(true), &client.Options{Settings: client.Declare(tags...), Legacy: e.legacy})
			got := func(tool string) string { return strings.Join(textBlocks(call(t, cs, tool, map[string]any{})), "\n") }
			t.Run(e.name+"/"+strings.Join(tags, ","), func(t *testing.T) {
				for _, want := range []string{"__init__.py", "*important*"} {
					if out := got("file"); !strings.Contains(out, want) {
						t.Errorf("file: %q lost %q", out, want)
					}
				}
				for _, want := range []string{"*_test.go", "docs/**/*.md"} {
					if out := got("globs"); !strings.Contains(out, want) {
						t.Errorf("globs: %q lost %q", out, want)
					}
				}
				for _, tool := range []string{"traceback", "listing"} {
					if out := got(tool); out != textResults[tool] {
						t.Errorf("%s was rewritten:\n%s\nwant it as the handler wrote it:\n%s", tool, out, textResults[tool])
					}
				}
			})
		}
	}
}

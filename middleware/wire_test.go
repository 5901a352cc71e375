package middleware_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

func TestPassThroughIsByteIdenticalOnTheWire(t *testing.T) {
	calls := []mcp.CallToolParams{
		{Name: toolTyped, Arguments: map[string]any{"station": "Bern"}},
		{Name: toolPlain, Arguments: map[string]any{}},
		{Name: toolMarkdown, Arguments: map[string]any{}},
		{Name: toolError, Arguments: map[string]any{"station": "Atlantis"}},
		{Name: toolImage, Arguments: map[string]any{}},
		{Name: toolHints, Arguments: map[string]any{"station": "Bern"}},
	}
	clients := []struct {
		name     string
		settings map[string]any
	}{
		{"undeclared", nil},
		{"only invalid tags", client.Declare("@#$%", "format==json", "a=b=c")},
		{"unsupported version", map[string]any{"version": "2.0", "features": []any{"agent"}}},
	}
	for _, e := range eras {
		for _, c := range clients {
			t.Run(e.name+"/"+c.name, func(t *testing.T) {
				opts := &client.Options{Settings: c.settings, Legacy: e.legacy}
				plain, _ := newServer(nil)
				negotiated, _ := newServer(&middleware.Options{})
				middlewaretest.CheckSameResults(t, plain, negotiated, opts, calls)
			})
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/tokens"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
)

// profile is one of the showcase's clients.
type profile struct {
	name string
	tags []string // nil: the extension is not declared
}

// showcaseProfiles are the four clients of the showcase.
var showcaseProfiles = []profile{
	{name: "a client that does not declare the extension"},
	{name: "an agent", tags: []string{"agent", "format=json", "verbosity=compact"}},
	{name: "a person in a chat window", tags: []string{"human", "format=markdown"}},
	{name: "a terminal", tags: []string{"format=text", "verbosity=compact"}},
}

// showcaseCalls are the calls every client makes.
var showcaseCalls = []mcp.CallToolParams{
	{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}},
	{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 3}},
}

// showcase connects each client to server in-process, makes the calls and
// writes what each client got, with its size in bytes.
func showcase(ctx context.Context, w io.Writer, server *mcp.Server) error {
	fmt.Fprintln(w, "One MCP server, four clients, the same two tool calls: each client gets the rendering its profile asks for.")
	fmt.Fprintln(w, "Sizes in bytes and o200k tokens (what a model reads); the whole result is its JSON on the wire.")
	for _, p := range showcaseProfiles {
		if err := showcaseClient(ctx, w, server, p); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
	}
	return nil
}

func showcaseClient(ctx context.Context, w io.Writer, server *mcp.Server, p profile) error {
	opts := &client.Options{}
	tags := "(none)"
	if p.tags != nil {
		opts.Settings = client.Declare(p.tags...)
		tags = strings.Join(p.tags, ", ")
	}
	cs, closeAll, err := serve.ConnectInProcess(ctx, server, opts)
	if err != nil {
		return err
	}
	defer closeAll()

	rendering := negotiation.FromTags(p.tags...).Rendering()
	fmt.Fprintf(w, "\n==== %s\n     tags: %s -> rendering: %s\n", p.name, tags, rendering)
	for _, call := range showcaseCalls {
		// A copy per client: the SDK writes the client's capabilities into
		// the params' _meta, and keeps what it finds there.
		params := call
		res, err := cs.CallTool(ctx, &params)
		if err != nil {
			return fmt.Errorf("call %s: %w", call.Name, err)
		}
		if err := describe(w, call, res); err != nil {
			return err
		}
	}
	return nil
}

// describe writes one result: its sizes, then its content blocks.
func describe(w io.Writer, call mcp.CallToolParams, res *mcp.CallToolResult) error {
	whole, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode result of %s: %w", call.Name, err)
	}
	args, _ := json.Marshal(call.Arguments)
	structured := "none"
	if res.StructuredContent != nil {
		sc, _ := json.Marshal(res.StructuredContent)
		structured = fmt.Sprintf("%d bytes", len(sc))
	}
	fmt.Fprintf(w, "\n  -- %s %s: result %d bytes, %d tokens; structuredContent: %s\n", call.Name, args, len(whole), tokens.Count(string(whole)), structured)
	for _, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok {
			fmt.Fprintf(w, "  [%T block]\n", c)
			continue
		}
		label := "text block"
		if t.Annotations != nil && len(t.Annotations.Audience) > 0 {
			label = fmt.Sprintf("text block for %v", t.Annotations.Audience)
		}
		fmt.Fprintf(w, "  %s, %d bytes, %d tokens:\n", label, len(t.Text), tokens.Count(t.Text))
		for _, line := range strings.Split(t.Text, "\n") {
			fmt.Fprintf(w, "    | %s\n", line)
		}
	}
	return nil
}

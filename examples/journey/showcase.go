package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/internal/serve"
	mcpclient "github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
)

// departure is the showcase's fixed departure time, so that its output is
// the same every time.
const departure = "2026-11-20T08:00:00+01:00"

// showcaseTimeout bounds the whole showcase.
const showcaseTimeout = 30 * time.Second

// client is one of the showcase's clients.
type client struct {
	name string
	tags []string
}

// showcaseClients are a person, an agent and a terminal.
var showcaseClients = []client{
	{name: "a person", tags: []string{"human"}},
	{name: "an agent", tags: []string{"agent", "format=json", "verbosity=compact"}},
	{name: "a terminal", tags: []string{"format=text", "verbosity=compact"}},
}

// showcaseCalls are the calls every client makes: a direct route and a
// route with a change.
var showcaseCalls = []mcp.CallToolParams{
	findConnections("Zürich HB", "Bern", 3),
	findConnections("Interlaken Ost", "Luzern", 2),
}

func findConnections(from, to string, limit int) mcp.CallToolParams {
	return mcp.CallToolParams{
		Name:      journeymcp.FindConnections,
		Arguments: map[string]any{"from": from, "to": to, "departure": departure, "limit": limit},
	}
}

// showcase connects each client to server in-process, makes each call for
// every client and writes what each got, with sizes in bytes.
func showcase(ctx context.Context, w io.Writer, server *mcp.Server) error {
	ctx, cancel := context.WithTimeout(ctx, showcaseTimeout)
	defer cancel()
	sessions := make([]*mcp.ClientSession, len(showcaseClients))
	for i, c := range showcaseClients {
		cs, closeAll, err := serve.ConnectInProcess(ctx, server, &mcpclient.Options{Settings: mcpclient.Declare(c.tags...)})
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		defer closeAll()
		sessions[i] = cs
	}
	fmt.Fprintf(w, "One journey planner, three clients, the same find_connections calls (departure %s):\n", departure)
	fmt.Fprintln(w, "each client gets the rendering its feature tags ask for.")
	for _, call := range showcaseCalls {
		args, err := json.Marshal(call.Arguments)
		if err != nil {
			return fmt.Errorf("encode arguments of %s: %w", call.Name, err)
		}
		fmt.Fprintf(w, "\n==== %s %s\n", call.Name, args)
		sizes := make([]string, len(showcaseClients))
		for i, c := range showcaseClients {
			// A copy per client: the SDK writes the client's capabilities into
			// the params' _meta, and keeps what it finds there.
			params := call
			res, err := sessions[i].CallTool(ctx, &params)
			if err != nil {
				return fmt.Errorf("%s: call %s: %w", c.name, call.Name, err)
			}
			n, err := showResult(w, c, res)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			sizes[i] = fmt.Sprintf("%s %d", c.name, n)
		}
		fmt.Fprintf(w, "\n  bytes of text: %s\n", strings.Join(sizes, ", "))
	}
	return nil
}

// showResult writes the rendering c got: its tags, the sizes, and its text
// blocks. It returns the size of the text.
func showResult(w io.Writer, c client, res *mcp.CallToolResult) (int, error) {
	rendering := negotiation.FromTags(c.tags...).Rendering()
	structured := "none"
	if res.StructuredContent != nil {
		sc, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return 0, fmt.Errorf("encode structuredContent: %w", err)
		}
		structured = fmt.Sprintf("%d bytes", len(sc))
	}
	var text strings.Builder
	for _, block := range res.Content {
		if t, ok := block.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	fmt.Fprintf(w, "\n---- %s (%s) -> rendering: %s\n", c.name, strings.Join(c.tags, ", "), rendering)
	fmt.Fprintf(w, "     text: %d bytes; structuredContent: %s\n", text.Len(), structured)
	if text.Len() == 0 {
		fmt.Fprintln(w, "     (no text block: structuredContent alone)")
		return 0, nil
	}
	for _, line := range strings.Split(text.String(), "\n") {
		fmt.Fprintf(w, "    | %s\n", line)
	}
	return text.Len(), nil
}

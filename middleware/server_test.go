package middleware_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// reading is the typed output of the test server's "reading" tool. Its
// fields are declared out of alphabetical order on purpose: the SDK
// delivers them sorted, and renderings must follow the schema.
type reading struct {
	Station     string  `json:"station" jsonschema:"name of the measuring station"`
	Temperature float64 `json:"temperature_c" jsonschema:"air temperature in degrees Celsius"`
	Note        string  `json:"note,omitempty" jsonschema:"remark of the observer"`
	Humidity    int     `json:"humidity_percent" jsonschema:"relative humidity in percent"`
}

type stationInput struct {
	Station string `json:"station" jsonschema:"station name"`
}

// The test server's tools, one per shape of result.
const (
	toolTyped    = "reading"       // typed: output schema, structuredContent, JSON mirror
	toolPlain    = "plain"         // untyped: structuredContent as a map, no output schema
	toolMarkdown = "markdown_only" // markdown text only
	toolPlainTxt = "text_only"     // plain text only
	toolError    = "failing"       // a tool error
	toolImage    = "with_image"    // structuredContent plus an image block
	toolHints    = "hinted"        // typed, attaches hints
)

const markdownOnly = "# Report\n\nIt is **cold** in [Bern](https://example.com).\n\n- wear a coat\n- take a hat\n"

func hello(station string) reading {
	return reading{Station: station, Temperature: 8.5, Note: "", Humidity: 81}
}

// newServer returns the test server, with the middleware when opts is not
// nil.
func newServer(opts *middleware.Options) (*mcp.Server, *middleware.Middleware) {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: toolTyped, Description: "a reading"},
		func(_ context.Context, _ *mcp.CallToolRequest, in stationInput) (*mcp.CallToolResult, reading, error) {
			return nil, hello(in.Station), nil
		})
	s.AddTool(&mcp.Tool{Name: toolPlain, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v := map[string]any{"zone": "Europe/Zurich", "offset": 1}
			b, _ := json.Marshal(v)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: v}, nil
		})
	s.AddTool(&mcp.Tool{Name: toolMarkdown, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: markdownOnly}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: toolPlainTxt, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "all quiet"}}}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: toolError},
		func(context.Context, *mcp.CallToolRequest, stationInput) (*mcp.CallToolResult, reading, error) {
			return nil, reading{}, errors.New("station \"Atlantis\" is unknown; try Bern")
		})
	s.AddTool(&mcp.Tool{Name: toolImage, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					&mcp.TextContent{Text: `{"width":2}`},
					&mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}},
				},
				StructuredContent: json.RawMessage(`{"width":2}`),
			}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: toolHints},
		func(ctx context.Context, _ *mcp.CallToolRequest, in stationInput) (*mcp.CallToolResult, reading, error) {
			negotiation.AddHints(ctx, "It will rain: suggest an umbrella.", "Wind from the west.")
			return nil, hello(in.Station), nil
		})
	if opts == nil {
		return s, nil
	}
	m := middleware.Install(s, opts)
	m.Register(toolMarkdown, shaping.Tool{Markdown: true})
	return s, m
}

// era is one of the two protocol eras a server must serve.
type era struct {
	name   string
	legacy bool
}

var eras = []era{{"stateless", false}, {"legacy", true}}

// connect connects a client declaring tags (nil: not declaring) to a fresh
// server with the middleware.
func connect(t *testing.T, e era, tags []string) *mcp.ClientSession {
	t.Helper()
	s, _ := newServer(&middleware.Options{Logger: zap.NewNop()})
	return middlewaretest.Connect(t, s, clientOptions(e, tags))
}

func clientOptions(e era, tags []string) *client.Options {
	opts := &client.Options{Legacy: e.legacy}
	if tags != nil {
		opts.Settings = client.Declare(tags...)
	}
	return opts
}

// call calls a tool with a deadline and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

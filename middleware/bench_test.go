package middleware_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
)

// benchProfiles are the clients every benchmark is run for.
var benchProfiles = []struct {
	name string
	tags []string
}{
	{"undeclared", nil},
	{"agent-json-compact", []string{"agent", "format=json", "verbosity=compact"}},
	{"human-markdown", []string{"human", "format=markdown"}},
	{"text-compact", []string{"format=text", "verbosity=compact"}},
}

// BenchmarkCallTool measures one tools/call of the typed test tool through
// a connected client session: what a caller sees, transport included.
func BenchmarkCallTool(b *testing.B) {
	for _, e := range eras {
		b.Run(e.name+"/no-middleware", func(b *testing.B) {
			s, _ := newServer(nil)
			benchCalls(b, middlewaretest.Connect(b, s, &client.Options{Legacy: e.legacy}))
		})
		for _, p := range benchProfiles {
			b.Run(e.name+"/"+p.name, func(b *testing.B) {
				s, _ := newServer(&middleware.Options{})
				opts := &client.Options{Legacy: e.legacy}
				if p.tags != nil {
					opts.Settings = client.Declare(p.tags...)
				}
				benchCalls(b, middlewaretest.Connect(b, s, opts))
			})
		}
	}
}

func benchCalls(b *testing.B, cs *mcp.ClientSession) {
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: toolTyped, Arguments: map[string]any{"station": "Bern"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReceiving measures the middleware alone on a stateless-era
// tools/call: resolving the profile from _meta, and rendering a typed
// tool's 10-field result. The handler is a stub that returns a prepared
// result, so nothing but the middleware is measured.
func BenchmarkReceiving(b *testing.B) {
	value := json.RawMessage(`{"conditions":"Light rain","feels_like_c":5.2,"humidity_percent":81,"location":"Bern, Switzerland","observed_at":"2026-11-20T14:00:00+01:00","precipitation_probability":0.7,"temperature_c":8.1,"uv_index":1,"wind_direction":"SW","wind_speed_kmh":14}`)
	schema, err := jsonschema.For[struct {
		Location string  `json:"location"`
		Cond     string  `json:"conditions"`
		Temp     float64 `json:"temperature_c"`
		Feels    float64 `json:"feels_like_c"`
		Hum      int     `json:"humidity_percent"`
		Precip   float64 `json:"precipitation_probability"`
		Wind     float64 `json:"wind_speed_kmh"`
		Dir      string  `json:"wind_direction"`
		UV       int     `json:"uv_index"`
		Observed string  `json:"observed_at"`
	}](nil)
	if err != nil {
		b.Fatal(err)
	}
	tool := &mcp.Tool{Name: "get_weather", InputSchema: &jsonschema.Schema{Type: "object"}, OutputSchema: schema}
	next := func(_ context.Context, method string, _ mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{tool}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(value)}}, StructuredContent: value}, nil
	}
	b.Run("no-middleware", func(b *testing.B) {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "get_weather"}}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := next(ctx, "tools/call", req); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, p := range benchProfiles {
		b.Run(p.name, func(b *testing.B) {
			handler := middleware.New(nil).Receiving(next)
			caps := map[string]any{}
			if p.tags != nil {
				caps["extensions"] = map[string]any{negotiation.ExtensionID: client.Declare(p.tags...)}
			}
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
				Name: "get_weather",
				Meta: mcp.Meta{mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyClientCapabilities: caps},
			}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := handler(ctx, "tools/call", req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCallToolManyTools measures a markdown tools/call on servers of 1
// and 1,000 further tools: the cost of finding the tool's output schema
// must not grow with the number of tools (the SDK's registration is read,
// no tools/list is made).
func BenchmarkCallToolManyTools(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			s, _ := newServer(&middleware.Options{})
			for i := range n {
				mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("other_%d", i)}, func(context.Context, *mcp.CallToolRequest, stationInput) (*mcp.CallToolResult, reading, error) {
					return nil, reading{}, nil
				})
			}
			benchCalls(b, middlewaretest.Connect(b, s, &client.Options{Settings: client.Declare("human", "format=markdown")}))
		})
	}
}

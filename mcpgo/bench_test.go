package mcpgo_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/examples/weather/weathermcpgo"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware/client"
)

// benchProfiles are the clients every benchmark is run for.
var benchProfiles = []struct {
	name string
	tags []string
}{
	{"undeclared", nil},
	{"agent-json-compact", []string{"agent", "format=json", "verbosity=compact"}},
	{"human-markdown", []string{"human", "format=markdown"}},
	{"human-verbose", []string{"human", "verbosity=verbose"}},
	{"text-compact", []string{"format=text", "verbosity=compact"}},
	{"text-standard", []string{"format=text"}},
}

// demo returns the mcp-go weather demo on the behaviour kit's fixed clock
// (2026-11-20 13:00 UTC), with the adapter when negotiated.
func demo(negotiated bool) *server.MCPServer {
	s := weathermcpgo.NewServer(weather.NewService(func() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }))
	if negotiated {
		mcpgo.Install(s, &mcpgo.Options{Tools: weathermcp.Tools()})
	}
	return s
}

// benchSession is a legacy session that keeps its initialize capabilities.
type benchSession struct {
	caps mcp.ClientCapabilities
	info mcp.Implementation
}

func (s *benchSession) Initialize()                                         {}
func (s *benchSession) Initialized() bool                                   { return true }
func (s *benchSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s *benchSession) SessionID() string                                   { return "bench" }
func (s *benchSession) GetClientInfo() mcp.Implementation                   { return s.info }
func (s *benchSession) SetClientInfo(i mcp.Implementation)                  { s.info = i }
func (s *benchSession) GetClientCapabilities() mcp.ClientCapabilities       { return s.caps }
func (s *benchSession) SetClientCapabilities(c mcp.ClientCapabilities)      { s.caps = c }

var _ server.SessionWithClientInfo = (*benchSession)(nil)

// BenchmarkHandleMessage measures one tools/call of get_weather through
// MCPServer.HandleMessage, the SDK's whole dispatch without a transport:
// the demo without the adapter, and with it for each profile, in both eras.
func BenchmarkHandleMessage(b *testing.B) {
	for _, legacy := range []bool{false, true} {
		era := map[bool]string{false: "stateless", true: "legacy"}[legacy]
		b.Run(era+"/no-adapter", func(b *testing.B) { benchHandle(b, demo(false), nil, legacy) })
		for _, p := range benchProfiles {
			b.Run(era+"/"+p.name, func(b *testing.B) { benchHandle(b, demo(true), p.tags, legacy) })
		}
	}
}

func benchHandle(b *testing.B, s *server.MCPServer, tags []string, legacy bool) {
	caps := map[string]any{}
	if tags != nil {
		caps["extensions"] = map[string]any{"io.modelcontextprotocol/content-negotiation": client.Declare(tags...)}
	}
	ctx := s.WithContext(context.Background(), &benchSession{})
	var params map[string]any
	if legacy {
		initialize, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{
			"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": map[string]any{"name": "bench", "version": "1"},
		}})
		if _, ok := s.HandleMessage(ctx, initialize).(mcp.JSONRPCResponse); !ok {
			b.Fatal("initialize failed")
		}
		params = map[string]any{"name": "get_weather", "arguments": map[string]any{"city": "Bern"}}
	} else {
		params = map[string]any{"name": "get_weather", "arguments": map[string]any{"city": "Bern"}, "_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": caps,
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "bench", "version": "1"},
		}}
	}
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.HandleMessage(ctx, msg).(mcp.JSONRPCResponse); !ok {
			b.Fatal("tools/call failed")
		}
	}
}

// BenchmarkCallTool measures one tools/call of get_weather through a
// connected go-sdk client over in-process pipes (mcp-go's stdio
// transport): what a caller sees, transport included.
func BenchmarkCallTool(b *testing.B) {
	for _, legacy := range []bool{false, true} {
		era := map[bool]string{false: "stateless", true: "legacy"}[legacy]
		b.Run(era+"/no-adapter", func(b *testing.B) { benchCalls(b, demo(false), nil, legacy) })
		for _, p := range benchProfiles {
			b.Run(era+"/"+p.name, func(b *testing.B) { benchCalls(b, demo(true), p.tags, legacy) })
		}
	}
}

func benchCalls(b *testing.B, s *server.MCPServer, tags []string, legacy bool) {
	opts := &client.Options{Legacy: legacy}
	if tags != nil {
		opts.Settings = client.Declare(tags...)
	}
	cs := behaviour.ConnectMCPGo(b, s, opts)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		params := &gosdk.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}}
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolMiddleware measures the adapter's tool middleware alone on a
// stateless-era tools/call of a 10-field weather result, around a stub
// handler that returns a prepared result (as middleware.BenchmarkReceiving
// does for the go-sdk). The stub has no server in its context, so the
// output schema is not looked up.
func BenchmarkToolMiddleware(b *testing.B) {
	value := json.RawMessage(`{"conditions":"Light rain","feels_like_c":5.2,"humidity_percent":81,"location":"Bern, Switzerland","observed_at":"2026-11-20T14:00:00+01:00","precipitation_probability":0.7,"temperature_c":8.1,"uv_index":1,"wind_direction":"SW","wind_speed_kmh":14}`)
	next := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(value))}, StructuredContent: value, RawStructuredContent: value}, nil
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "get_weather"}}
	b.Run("no-adapter", func(b *testing.B) {
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := next(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, p := range benchProfiles {
		b.Run(p.name, func(b *testing.B) {
			handler := mcpgo.New(nil).ToolMiddleware(next)
			caps := &mcp.ClientCapabilities{}
			if p.tags != nil {
				caps.Extensions = map[string]any{"io.modelcontextprotocol/content-negotiation": client.Declare(p.tags...)}
			}
			ctx := server.WithRequestProtocolInfo(context.Background(), &server.RequestProtocolInfo{Modern: true, ProtocolVersion: "2026-07-28", ClientCapabilities: caps})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := handler(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

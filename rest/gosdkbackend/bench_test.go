package gosdkbackend_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

// BenchmarkExecute compares one POST .../execute of get_weather per
// rendering with the same call made by an MCP client declaring the same
// tags (stateless era, in-memory): the difference is what the REST layer
// costs.
//
//	go test -run '^$' -bench BenchmarkExecute -benchmem ./rest/gosdkbackend/
func BenchmarkExecute(b *testing.B) { benchmarkExecute(b, false) }

// BenchmarkExecuteLegacy is BenchmarkExecute in the legacy era (protocol
// 2025-11-25): the MCP client declares its tags once, at initialize.
func BenchmarkExecuteLegacy(b *testing.B) { benchmarkExecute(b, true) }

func benchmarkExecute(b *testing.B, legacy bool) {
	formats := []struct{ format, accept string }{
		{"json", "application/json"},
		{"markdown", "text/markdown"},
		{"text", "text/plain"},
	}
	server := weatherServer(b)
	var opts *gosdkbackend.Options
	if legacy {
		opts = &gosdkbackend.Options{ProtocolVersion: client.LegacyProtocol}
	}
	backend, err := gosdkbackend.New(context.Background(), server, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer backend.Close()
	h := rest.New(backend, &rest.Options{BasePath: "/mcp/v1"})
	const body = `{"arguments":{"city":"Bern"}}`
	for _, f := range formats {
		b.Run(f.format+"/rest", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/mcp/v1/tools/get_weather/execute", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", f.accept)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
		b.Run(f.format+"/mcp", func(b *testing.B) {
			cs := middlewaretest.Connect(b, server, &client.Options{Legacy: legacy,
				Settings: client.Declare("format="+f.format, "!interactive")})
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}})
				if err != nil || res.IsError {
					b.Fatal(err)
				}
			}
		})
	}
}

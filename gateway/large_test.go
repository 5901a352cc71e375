package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/gateway"
)

func jsonRaw(s string) json.RawMessage { return json.RawMessage(s) }

// bigUpstream answers "big" with n elements of structuredContent (about
// 13 bytes each) and the JSON as its text, as many servers do.
func bigUpstream(n int) func() *mcp.Server {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d}`, i)
	}
	b.WriteString(`]}`)
	value := b.String()
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "big", InputSchema: &jsonschemaObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "see structuredContent"}}, StructuredContent: jsonRaw(value)}, nil
		})
		return s
	}
}

// BenchmarkLargeResult: one call whose result is about 13 MB (10^6
// elements), directly and through the gateway, for a client that
// declares nothing (the bytes pass through) and for one that declares
// agent and format=json (the value is rendered). B/op is what a call
// allocates in this process, the in-process upstream's and the raw
// client's included: the gateway's share is the difference from
// "direct".
//
//	go test -run '^$' -bench LargeResult -benchtime 3x ./gateway/
func BenchmarkLargeResult(b *testing.B) {
	for _, tt := range []struct {
		name string
		caps string
	}{
		{"direct", `{}`},
		{"undeclared", `{}`},
		{"agent-json", `{"extensions":{"io.modelcontextprotocol/content-negotiation":{"version":"1.0","features":["agent","format=json"]}}}`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			g, err := gateway.New(&gateway.Options{Upstream: inProcess(nil, bigUpstream(1_000_000))})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			if tt.name == "direct" {
				// The same client and upstream, without the gateway.
				srv := bigUpstream(1_000_000)()
				go func() { _ = srv.Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW}) }()
			} else {
				go func() {
					_ = g.ServeConn(context.Background(), gateway.NewStreamConn(inR, outW, inR, gateway.DefaultMaxResult))
				}()
			}
			defer inW.Close()
			out := bufio.NewReaderSize(outR, 1<<20)
			exchange := func(msg string) []byte {
				if _, err := io.WriteString(inW, msg+"\n"); err != nil {
					b.Fatal(err)
				}
				var line []byte
				for {
					chunk, err := out.ReadSlice('\n')
					line = append(line, chunk...)
					if err == nil {
						return line
					}
					if err != bufio.ErrBufferFull {
						b.Fatal(err)
					}
				}
			}
			exchange(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + tt.caps + `,"clientInfo":{"name":"b","version":"1"}}}`)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				res := exchange(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{}}}`, i+1))
				if len(res) < 13_000_000 {
					b.Fatalf("a result of %d bytes: %.300s", len(res), res)
				}
			}
		})
	}
}

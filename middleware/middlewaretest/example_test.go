package middlewaretest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "ping", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}, StructuredContent: map[string]any{"reply": "pong"}}, nil
		})
	return s
}

func TestConnectInBothEras(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		s := newServer()
		middleware.Install(s, nil)
		cs := middlewaretest.Connect(t, s, &client.Options{Legacy: legacy, Settings: client.Declare("format=text")})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ping"})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != "reply: pong" {
			t.Errorf("legacy=%v: text %q, want the text rendering", legacy, got)
		}
		wantVersion := map[bool]string{true: client.LegacyProtocol, false: "2026-07-28"}[legacy]
		if got := cs.InitializeResult().ProtocolVersion; got != wantVersion {
			t.Errorf("legacy=%v: protocol %s, want %s", legacy, got, wantVersion)
		}
	}
}

func TestRawResultsAreTheWireBytes(t *testing.T) {
	got := middlewaretest.RawResults(t, newServer(), nil, []mcp.CallToolParams{{Name: "ping"}})
	var found bool
	for _, raw := range got {
		if raw == `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1.0.0"}},"content":[{"type":"text","text":"pong"}],"structuredContent":{"reply":"pong"},"resultType":"complete"}` {
			found = true
		}
	}
	if !found {
		t.Errorf("the tool's result is not among the raw results: %v", got)
	}
}

func ExampleNewClient() {
	server := newServer()
	middleware.Install(server, nil)

	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, serverT, nil)
	defer ss.Close()
	opts := &client.Options{Settings: client.Declare("human"), Legacy: true}
	cs, err := client.New(opts).Connect(ctx, clientT, client.SessionOptions(opts))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping"})
	fmt.Println(cs.InitializeResult().ProtocolVersion)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// 2025-11-25
	// - **Reply:** pong
}

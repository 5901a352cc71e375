package mcpgotool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/mcpgotool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type in struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
}

type out struct {
	Zeta  string `json:"zeta"`
	Alpha int    `json:"alpha"`
}

// call sends a tools/call of "t" with the raw arguments through the server.
func call(t *testing.T, s *server.MCPServer, args string) (result map[string]any) {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":` + args + `}}`
	resp, ok := s.HandleMessage(context.Background(), json.RawMessage(msg)).(mcp.JSONRPCResponse)
	if !ok {
		t.Fatalf("not a result for %s", args)
	}
	b, _ := json.Marshal(resp.Result)
	if err := json.Unmarshal(b, &result); err != nil {
		t.Fatal(err)
	}
	return result
}

func newServer(t *testing.T, h mcpgotool.Handler[in, out]) *server.MCPServer {
	t.Helper()
	s := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
	if err := mcpgotool.Add(s, mcp.Tool{Name: "t"}, nil, h); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTypedResultsLookLikeTheGoSDKs(t *testing.T) {
	s := newServer(t, func(_ context.Context, _ mcp.CallToolRequest, i in) (*mcp.CallToolResult, out, error) {
		return nil, out{Zeta: i.Name, Alpha: i.Count}, nil
	})
	res := call(t, s, `{"name":"x","count":2}`)
	content := res["content"].([]any)[0].(map[string]any)
	// Keys in alphabetical order, as the go-sdk's schema pass gives them.
	if content["text"] != `{"alpha":2,"zeta":"x"}` {
		t.Errorf("text %q", content["text"])
	}
	if sc, _ := json.Marshal(res["structuredContent"]); string(sc) != `{"alpha":2,"zeta":"x"}` {
		t.Errorf("structuredContent %s", sc)
	}
	tool := s.GetTool("t")
	if len(tool.Tool.RawInputSchema) == 0 || len(tool.Tool.RawOutputSchema) == 0 {
		t.Error("schemas not inferred")
	}
}

func TestBadInputAndErrorsAreToolErrors(t *testing.T) {
	s := newServer(t, func(_ context.Context, _ mcp.CallToolRequest, i in) (*mcp.CallToolResult, out, error) {
		if i.Name == "fail" {
			return nil, out{}, errors.New("it failed")
		}
		return nil, out{}, nil
	})
	tests := []struct {
		name string
		give string
		want string
	}{
		{"missing required argument", `{}`, `validating "arguments"`},
		{"wrong type", `{"name":3}`, `validating "arguments"`},
		{"unknown argument", `{"name":"x","extra":1}`, `validating "arguments"`},
		{"not an object", `[1,2]`, `validating "arguments"`},
		{"handler error", `{"name":"fail"}`, "it failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, s, tt.give)
			text, _ := res["content"].([]any)[0].(map[string]any)["text"].(string)
			if res["isError"] != true || !strings.Contains(text, tt.want) {
				t.Errorf("result %v, want a tool error with %q", res, tt.want)
			}
		})
	}
}

func TestInputRequestsPassThrough(t *testing.T) {
	s := newServer(t, func(context.Context, mcp.CallToolRequest, in) (*mcp.CallToolResult, out, error) {
		return server.NewInputRequestBuilder("s").Elicit("q", mcp.ElicitationParams{Message: "?", RequestedSchema: map[string]any{"type": "object"}}).ToolResult(), out{}, nil
	})
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"name":"x"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	resp, ok := s.HandleMessage(context.Background(), json.RawMessage(msg)).(mcp.JSONRPCResponse)
	if !ok {
		t.Fatal("not a result")
	}
	r, ok := resp.Result.(*mcp.CallToolResult)
	if !ok || !r.NeedsInput() || r.StructuredContent != nil {
		t.Errorf("result %#v, want the input request alone", resp.Result)
	}
}

package mcpgo_test

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var eras = []struct {
	name   string
	legacy bool
}{{"stateless", false}, {"legacy", true}}

func connect(t *testing.T, s *server.MCPServer, legacy bool, tags ...string) *gosdk.ClientSession {
	t.Helper()
	return behaviour.ConnectMCPGo(t, s, &client.Options{Settings: client.Declare(tags...), Legacy: legacy})
}

func callTool(t *testing.T, cs *gosdk.ClientSession, name string) *gosdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestTheExtensionIsAdvertisedAndTheServersMapKept(t *testing.T) {
	own := map[string]any{"x-vendor/thing": map[string]any{}}
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			s := server.NewMCPServer("t", "1", server.WithExtensions(own))
			mcpgo.Install(s, nil)
			got := connect(t, s, e.legacy).InitializeResult().Capabilities.Extensions
			if _, ok := got[negotiation.ExtensionID]; !ok {
				t.Errorf("extensions %v lack %s", got, negotiation.ExtensionID)
			}
			if _, ok := got["x-vendor/thing"]; !ok {
				t.Errorf("extensions %v lost the server's own", got)
			}
			if len(own) != 1 {
				t.Errorf("the server's map was changed: %v", own)
			}
		})
	}
}

func TestALegacySessionIsForgottenWhenItEnds(t *testing.T) {
	s := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("hello"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("hello"), nil
	})
	a := mcpgo.Install(s, nil)
	t.Run("connected", func(t *testing.T) {
		callTool(t, connect(t, s, true, "human"), "hello")
		if n := a.Shaper().Sessions(); n != 1 {
			t.Errorf("%d sessions kept while connected, want 1", n)
		}
	}) // the session closes when the subtest ends
	if n := a.Shaper().Sessions(); n != 0 {
		t.Errorf("%d sessions kept after the session ended, want 0", n)
	}
}

func TestDroppedStructuredContentLeavesNoRawBytes(t *testing.T) {
	// mcp-go sends RawStructuredContent in place of StructuredContent: the
	// markdown rendering of a tool without an output schema drops both.
	s := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("raw"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := mcp.NewToolResultStructured(map[string]any{"a": 1}, `{"a":1}`)
		res.RawStructuredContent = []byte(`{"a":1}`)
		return res, nil
	})
	mcpgo.Install(s, nil)
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			res := callTool(t, connect(t, s, e.legacy, "human"), "raw")
			if res.StructuredContent != nil {
				t.Errorf("structuredContent %v kept", res.StructuredContent)
			}
			if text := res.Content[0].(*gosdk.TextContent).Text; text == `{"a":1}` {
				t.Errorf("not rendered: %s", text)
			}
		})
	}
}

func TestInputRequestsOfAClosedGateAreAnsweredLocally(t *testing.T) {
	ask := func(id string) *mcp.CallToolResult {
		return server.NewInputRequestBuilder("state").Elicit(id, mcp.ElicitationParams{Message: "sure?", RequestedSchema: map[string]any{"type": "object"}}).ToolResult()
	}
	s := server.NewMCPServer("t", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("confirm"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if answer := server.ElicitationResponse(req.Params.InputResponses, "ok"); answer != nil {
			return mcp.NewToolResultText(string(answer.Action) + " " + req.Params.RequestState), nil
		}
		return ask("ok"), nil
	})
	s.AddTool(mcp.NewTool("nag"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return ask("again"), nil
	})
	mcpgo.Install(s, &mcpgo.Options{Refusal: negotiation.Cancel})
	never := &gosdk.ClientOptions{ElicitationHandler: func(_ context.Context, req *gosdk.ElicitRequest) (*gosdk.ElicitResult, error) {
		t.Errorf("asked %q", req.Params.Message)
		return &gosdk.ElicitResult{Action: "accept"}, nil
	}}
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			opts := &client.Options{Settings: client.Declare("!interactive"), Legacy: e.legacy, Client: never}
			cs := behaviour.ConnectMCPGo(t, s, opts)
			if got := callTool(t, cs, "confirm").Content[0].(*gosdk.TextContent).Text; got != "cancel state" {
				t.Errorf("confirm = %q, want the gate's cancel with the request state", got)
			}
			if res := callTool(t, cs, "nag"); !res.IsError {
				t.Errorf("a handler that keeps asking: %v, want a tool error", res.Content)
			}
		})
	}
}

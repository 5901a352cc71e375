package mcpgo_test

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware/client"
)

// A question the client never answers ends as "cancel" after the
// adapter's QuestionTimeout, in the legacy era (the stateless era holds no
// question on the server); and Close ends every open question at once.
func TestUnansweredQuestionsEndAsCancel(t *testing.T) {
	for _, closeIt := range []bool{false, true} {
		name := map[bool]string{false: "timeout", true: "close"}[closeIt]
		t.Run(name, func(t *testing.T) {
			s := server.NewMCPServer("t", "1")
			timeout := 100 * time.Millisecond
			if closeIt {
				timeout = time.Hour
			}
			a := mcpgo.Install(s, &mcpgo.Options{QuestionTimeout: timeout})
			s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				answer, _, err := mcpgo.Elicit(ctx, req, "q", mcp.ElicitationParams{Message: "Go ahead?", RequestedSchema: map[string]any{"type": "object"}})
				if err != nil {
					return mcp.NewToolResultError(err.Error()), nil
				}
				return mcp.NewToolResultText("answer: " + string(answer.Action)), nil
			})
			never := make(chan struct{})
			asked := make(chan struct{}, 1)
			clientOpts := &gosdk.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *gosdk.ElicitRequest) (*gosdk.ElicitResult, error) {
				asked <- struct{}{}
				select { // a person who never answers
				case <-never:
				case <-ctx.Done():
				}
				return &gosdk.ElicitResult{Action: "decline"}, nil // too late: the server gave up
			}}
			cs := behaviour.ConnectMCPGo(t, s, &client.Options{Settings: client.Declare("interactive"), Legacy: true, Client: clientOpts})
			t.Cleanup(func() { close(never) }) // runs before the connection's cleanups
			if closeIt {
				go func() { <-asked; a.Close() }()
			}
			res := callTool(t, cs, "ask") // bounded by callTool's 10 s deadline
			if got := res.Content[0].(*gosdk.TextContent).Text; got != "answer: cancel" {
				t.Errorf("text = %q, want the question to end as cancel", got)
			}
		})
	}
}

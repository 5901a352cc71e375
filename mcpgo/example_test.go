package mcpgo_test

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/negotiation"
)

func Example() {
	s := server.NewMCPServer("forecast", "1.0.0")
	s.AddTool(mcp.NewTool("forecast"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructuredOnly(map[string]any{"city": "Bern", "high_c": 9.5, "sky": "Overcast"}), nil
	})

	// The one line: advertise the extension, resolve profiles, render results.
	mcpgo.Install(s, nil)

	ctx := context.Background()
	for _, tags := range [][]string{{"human"}, {"format=text", "verbosity=compact"}} {
		c, err := client.NewInProcessClient(s)
		if err != nil {
			fmt.Println(err)
			return
		}
		var init mcp.InitializeRequest
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		init.Params.Capabilities.Extensions = map[string]any{
			negotiation.ExtensionID: negotiation.Settings{Features: tags}.Map(),
		}
		if _, err := c.Initialize(ctx, init); err != nil {
			fmt.Println(err)
			return
		}
		var call mcp.CallToolRequest
		call.Params.Name = "forecast"
		res, err := c.CallTool(ctx, call)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v:\n%s\n", tags, res.Content[0].(mcp.TextContent).Text)
		c.Close()
	}
	// Output:
	// [human]:
	// - **City:** Bern
	// - **High c:** 9.5
	// - **Sky:** Overcast
	// [format=text verbosity=compact]:
	// city=Bern high_c=9.5 sky=Overcast
}

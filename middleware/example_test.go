package middleware_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
)

type forecastIn struct {
	City string `json:"city"`
}

type forecastOut struct {
	City string  `json:"city"`
	High float64 `json:"high_c"`
	Sky  string  `json:"sky"`
}

func Example() {
	server := mcp.NewServer(&mcp.Implementation{Name: "forecast", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "forecast"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in forecastIn) (*mcp.CallToolResult, forecastOut, error) {
			return nil, forecastOut{City: in.City, High: 9.5, Sky: "Overcast"}, nil
		})

	// The one line: advertise the extension, resolve profiles, render results.
	middleware.Install(server, nil)

	ctx := context.Background()
	for _, tags := range [][]string{nil, {"human"}, {"format=text", "verbosity=compact"}} {
		serverT, clientT := mcp.NewInMemoryTransports()
		ss, _ := server.Connect(ctx, serverT, nil)
		opts := &client.Options{}
		if tags != nil {
			opts.Settings = negotiation.Settings{Features: tags}.Map()
		}
		cs, err := client.New(opts).Connect(ctx, clientT, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "forecast", Arguments: map[string]any{"city": "Bern"}})
		fmt.Printf("%v:\n%s\n", tags, res.Content[0].(*mcp.TextContent).Text)
		cs.Close()
		ss.Close()
	}
	// Output:
	// []:
	// {"city":"Bern","high_c":9.5,"sky":"Overcast"}
	// [human]:
	// - **City:** Bern
	// - **High c:** 9.5
	// - **Sky:** Overcast
	// [format=text verbosity=compact]:
	// city=Bern high_c=9.5 sky=Overcast
}

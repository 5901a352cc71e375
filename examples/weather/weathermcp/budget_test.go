package weathermcp_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/internal/tokens"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// The token budgets of issue "Renderings people and models want", on the
// demo's get_weather for every city, on a fixed clock: compact text at most
// 25% of the JSON mirror; a format=json result at most 60% of the
// pass-through result.
func TestGetWeatherTokenBudgets(t *testing.T) {
	now := time.Date(2026, 11, 20, 8, 0, 0, 0, time.FixedZone("CET", 3600))
	s := weathermcp.NewServer(weather.NewService(func() time.Time { return now }))
	middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	clients := map[string]*mcp.ClientSession{}
	for name, tags := range map[string][]string{"undeclared": nil, "agent": {"agent", "format=json", "verbosity=compact"}, "terminal": {"format=text", "verbosity=compact"}} {
		opts := &middlewaretest.Options{}
		if tags != nil {
			opts.Settings = middlewaretest.Declare(tags...)
		}
		clients[name] = middlewaretest.Connect(t, s, opts)
	}
	for _, city := range weather.NewService(nil).Cities() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		results := map[string]*mcp.CallToolResult{}
		for name, cs := range clients {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": city.Name}})
			if err != nil || res.IsError {
				t.Fatalf("%s, %s: %v %v", city.Name, name, err, res)
			}
			results[name] = res
		}
		cancel()
		mirror := tokens.Count(results["undeclared"].Content[0].(*mcp.TextContent).Text)
		compact := tokens.Count(results["terminal"].Content[0].(*mcp.TextContent).Text)
		if compact*100 > 25*mirror {
			t.Errorf("%s: compact text %d tokens, %d%% of the JSON mirror's %d (budget 25%%)", city.Name, compact, compact*100/mirror, mirror)
		}
		whole := func(r *mcp.CallToolResult) int { b, _ := json.Marshal(r); return tokens.Count(string(b)) }
		if j, p := whole(results["agent"]), whole(results["undeclared"]); j*100 > 60*p {
			t.Errorf("%s: format=json result %d tokens, %d%% of pass-through's %d (budget 60%%)", city.Name, j, j*100/p, p)
		}
	}
}

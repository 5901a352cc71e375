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
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// budgetCalls are the calls TestTokenBudgets measures, in order: every tool
// of the demo, get_weather and get_forecast for every city, list_alerts
// before and after set_alert.
func budgetCalls() []mcp.CallToolParams {
	calls := []mcp.CallToolParams{{Name: "list_alerts", Arguments: map[string]any{}}}
	for _, city := range weather.NewService(nil).Cities() {
		calls = append(calls, mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": city.Name}})
		for _, days := range []int{1, 3, 7} {
			calls = append(calls, mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": city.Name, "days": days}})
		}
	}
	for _, a := range []struct {
		city      string
		threshold float64
	}{{"Bern", 0}, {"Paris", 0}, {"Lima", 0}, {"Moscow", -5}} {
		calls = append(calls,
			mcp.CallToolParams{Name: "set_alert", Arguments: map[string]any{"city": a.city, "threshold_c": a.threshold}},
			mcp.CallToolParams{Name: "list_alerts", Arguments: map[string]any{}})
	}
	return calls
}

// The token budgets of the demo, for every tool, on a fixed clock (issue
// "Renderings you can trust on any server's data"): compact text at most
// compactBudget of the JSON mirror's o200k tokens; get_weather's format=json
// result at most 60% of the pass-through result.
func TestTokenBudgets(t *testing.T) {
	now := time.Date(2026, 11, 20, 8, 0, 0, 0, time.FixedZone("CET", 3600))
	s := weathermcp.NewServer(weather.NewService(func() time.Time { return now }))
	middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	confirm := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
	}}
	clients := map[string]*mcp.ClientSession{}
	for name, tags := range map[string][]string{"undeclared": nil, "agent": {"agent", "format=json", "verbosity=compact"}, "terminal": {"format=text", "verbosity=compact"}} {
		opts := &client.Options{Client: confirm}
		if tags != nil {
			opts.Settings = client.Declare(tags...)
		}
		clients[name] = middlewaretest.Connect(t, s, opts)
	}
	worst := map[string]int{} // the largest share of the mirror per tool, logged
	defer func() { t.Logf("compact text, largest share of the JSON mirror's tokens: %v", worst) }()
	for _, c := range budgetCalls() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		results := map[string]*mcp.CallToolResult{}
		for _, name := range []string{"undeclared", "agent", "terminal"} {
			if c.Name == "set_alert" && name != "undeclared" {
				continue // one alert per call
			}
			params := c // each call its own: the client writes its _meta into them
			res, err := clients[name].CallTool(ctx, &params)
			if err != nil || res.IsError {
				t.Fatalf("%s %v, %s: %v %v", c.Name, c.Arguments, name, err, res)
			}
			results[name] = res
		}
		if c.Name == "set_alert" {
			// Its compact text, on a server of its own, for the same alert.
			params := c
			res, err := middlewaretest.Connect(t, budgetServer(now), &client.Options{Client: confirm, Settings: client.Declare("format=text", "verbosity=compact")}).CallTool(ctx, &params)
			if err != nil || res.IsError {
				t.Fatalf("%s %v, terminal: %v %v", c.Name, c.Arguments, err, res)
			}
			results["terminal"] = res
		}
		cancel()
		mirror := tokens.Count(results["undeclared"].Content[0].(*mcp.TextContent).Text)
		compact := tokens.Count(results["terminal"].Content[0].(*mcp.TextContent).Text)
		budget := compactBudget[c.Name]
		if compact*100 > budget*mirror {
			t.Errorf("%s %v: compact text %d tokens, %d%% of the JSON mirror's %d (budget %d%%):\n%s", c.Name, c.Arguments,
				compact, compact*100/mirror, mirror, budget, results["terminal"].Content[0].(*mcp.TextContent).Text)
		}
		worst[c.Name] = max(worst[c.Name], compact*100/mirror)
		if c.Name != "get_weather" {
			continue // a small result is mostly the envelope, which format=json keeps
		}
		whole := func(r *mcp.CallToolResult) int { b, _ := json.Marshal(r); return tokens.Count(string(b)) }
		if j, p := whole(results["agent"]), whole(results["undeclared"]); j*100 > 60*p {
			t.Errorf("%s %v: format=json result %d tokens, %d%% of pass-through's %d (budget 60%%)", c.Name, c.Arguments, j, j*100/p, p)
		}
	}
}

// compactBudget is each tool's compact text budget, in percent of the JSON
// mirror's tokens: 25%, but where identity costs more (SPEC 5,
// "Self-sufficient": a budget never justifies dropping it). get_forecast
// keeps the city and each day's date (at most 36% on this clock); set_alert's
// answer is the alert itself, its city and threshold, in a result that is
// mostly its keys.
var compactBudget = map[string]int{"get_weather": 25, "list_alerts": 25, "get_forecast": 40, "set_alert": 80}

// budgetServer returns a fresh demo server with the middleware.
func budgetServer(now time.Time) *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(func() time.Time { return now }))
	middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	return s
}

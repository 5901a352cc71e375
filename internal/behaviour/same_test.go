package behaviour_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/examples/journey/journeymcpgo"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// everyProfile are the clients whose results must not depend on the SDK.
var everyProfile = [][]string{
	nil,
	{"@#$%", "format==json"},
	{"agent"},
	{"agent", "format=json", "verbosity=compact"},
	{"agent", "sampling"},
	{"human"},
	{"human", "format=markdown", "verbosity=compact"},
	{"human", "verbosity=verbose"},
	{"human", "sampling"},
	{"format=text"},
	{"format=text", "verbosity=compact"},
	{"format=text", "verbosity=verbose"},
	{"format=toon"},
	{"format=html"},
	{"verbosity=compact"},
	{"verbosity=verbose"},
	{"human", "format!=markdown"},
	{"human", "!interactive"},
}

// wire is what a client sees of a tools/call result.
type wire struct {
	Content    []mcp.Content
	Structured any
	IsError    bool
}

func wireOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.MarshalIndent(wire{res.Content, res.StructuredContent, res.IsError}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkSameResults calls every tool of calls as every profile, on the
// go-sdk server and on the mcp-go server that connect makes, in both eras,
// and fails unless the results are the same: the structured value, the
// text of every block, which blocks are present and how they are annotated.
func checkSameResults(t *testing.T, connect func(t *testing.T, sdk string, opts *client.Options) *mcp.ClientSession, calls []mcp.CallToolParams) {
	for _, legacy := range []bool{false, true} {
		for _, tags := range everyProfile {
			t.Run(behaviour.Mode{Transport: behaviour.InProcess, Legacy: legacy}.String()+"/"+tagNames(tags), func(t *testing.T) {
				for _, c := range calls {
					results := map[string]string{}
					for _, sdk := range []string{"go-sdk", "mcp-go"} {
						results[sdk] = wireOf(t, call(t, connect(t, sdk, options(tags, legacy)), c.Name, c.Arguments.(map[string]any)))
					}
					if diff := cmp.Diff(results["go-sdk"], results["mcp-go"]); diff != "" {
						t.Errorf("%s %v: mcp-go differs from go-sdk (-go-sdk +mcp-go):\n%s", c.Name, c.Arguments, diff)
					}
				}
			})
		}
	}
}

func tagNames(tags []string) string {
	if tags == nil {
		return "undeclared"
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

func TestTheWeatherDemoIsTheSameOnBothSDKs(t *testing.T) {
	calls := []mcp.CallToolParams{
		{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}},
		{Name: "get_weather", Arguments: map[string]any{"city": "springfield, il"}},
		{Name: "get_weather", Arguments: map[string]any{"city": "Springfield"}},
		{Name: "get_weather", Arguments: map[string]any{"city": "Bernn"}},
		{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 7}},
		{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 9}},
		{Name: "get_forecast", Arguments: map[string]any{"city": "Atlantis", "days": 2}},
		{Name: "set_alert", Arguments: map[string]any{"city": "Bern", "threshold_c": 0}},
		{Name: "list_alerts", Arguments: map[string]any{}},
	}
	checkSameResults(t, func(t *testing.T, sdk string, opts *client.Options) *mcp.ClientSession {
		if sdk == "mcp-go" {
			return behaviour.ConnectMCPGo(t, behaviour.MCPGoServer(true), opts)
		}
		return middlewaretest.Connect(t, behaviour.GoSDKServer(true), opts)
	}, calls)
}

func TestTheJourneyServerIsTheSameOnBothSDKs(t *testing.T) {
	planner, err := journey.NewPlanner()
	if err != nil {
		t.Fatal(err)
	}
	calls := []mcp.CallToolParams{
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Zürich HB", "to": "Bern", "departure": "2026-11-20T08:00:00+01:00", "limit": 3}},
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Zurich", "to": "Brig", "departure": "2026-11-20T22:30:00+01:00"}},
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Atlantis", "to": "Bern", "departure": "2026-11-20T08:00:00+01:00"}},
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Bern", "to": "Bern", "departure": "yesterday"}},
		{Name: journeymcp.GetStation, Arguments: map[string]any{"name": "Lausanne"}},
		{Name: journeymcp.GetStation, Arguments: map[string]any{"name": "Nowhere"}},
	}
	tools := journeymcp.Tools()
	checkSameResults(t, func(t *testing.T, sdk string, opts *client.Options) *mcp.ClientSession {
		if sdk == "mcp-go" {
			s := journeymcpgo.NewServer(planner)
			mcpgo.Install(s, &mcpgo.Options{Tools: tools})
			return behaviour.ConnectMCPGo(t, s, opts)
		}
		s := journeymcp.NewServer(planner)
		middleware.Install(s, &middleware.Options{Tools: tools})
		return middlewaretest.Connect(t, s, opts)
	}, calls)
}

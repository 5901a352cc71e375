package behaviour_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/middleware/client"
)

// everything makes every kind of request the demo serves, errors included.
// set_alert asks a question: for a client that declared the extension
// without the elicitation capability the gate answers it (contract section
// 6), so it is made only for clients that declared nothing.
func everything(declared bool) func(cs *mcp.ClientSession) error {
	return func(cs *mcp.ClientSession) error { return requests(cs, declared) }
}

func requests(cs *mcp.ClientSession, declared bool) error {
	ctx := context.Background()
	calls := []mcp.CallToolParams{
		{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}},
		{Name: "get_weather", Arguments: map[string]any{"city": "Springfield"}},
		{Name: "get_weather", Arguments: map[string]any{"city": "Bernn"}},
		{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 7}},
		{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 9}},
		{Name: "list_alerts", Arguments: map[string]any{}},
	}
	if !declared {
		calls = append(calls, mcp.CallToolParams{Name: "set_alert", Arguments: map[string]any{"city": "Bern", "threshold_c": 0}})
	}
	for _, c := range calls {
		if _, err := cs.CallTool(ctx, &c); err != nil {
			return fmt.Errorf("call %s: %w", c.Name, err)
		}
	}
	for _, uri := range []string{"weather://cities", "weather://bern", "weather://bern/report"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
			return fmt.Errorf("read %s: %w", uri, err)
		}
	}
	_, _ = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://atlantis"}) // an error, compared too
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan_outfit", Arguments: map[string]string{"city": "Bern"}}); err != nil {
		return fmt.Errorf("plan_outfit: %w", err)
	}
	for _, list := range []func() error{
		func() error { _, err := cs.ListTools(ctx, nil); return err },
		func() error { _, err := cs.ListResources(ctx, nil); return err },
		func() error { _, err := cs.ListResourceTemplates(ctx, nil); return err },
		func() error { _, err := cs.ListPrompts(ctx, nil); return err },
	} {
		if err := list(); err != nil {
			return err
		}
	}
	return nil
}

func TestPassThroughOnMCPGoIsByteIdentical(t *testing.T) {
	clients := []struct {
		name     string
		settings map[string]any
	}{
		{"undeclared", nil},
		{"only invalid tags", client.Declare("@#$%", "format==json", "!", "format=xml")},
		{"another major version", map[string]any{"version": "2.0", "features": []any{"agent"}}},
	}
	for _, legacy := range []bool{false, true} {
		for _, c := range clients {
			t.Run(behaviour.Mode{Transport: behaviour.InProcess, Legacy: legacy}.String()+"/"+c.name, func(t *testing.T) {
				behaviour.CheckSameResults(t, behaviour.MCPGoServer(false), behaviour.MCPGoServer(true),
					&client.Options{Settings: c.settings, Legacy: legacy}, everything(c.settings != nil))
			})
		}
	}
}

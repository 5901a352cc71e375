package weathermcp

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

func addPrompts(s *mcp.Server, h handlers) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "plan_outfit",
		Title:       "Plan an outfit",
		Description: "What to wear in a city today, from its current weather.",
		Arguments:   []*mcp.PromptArgument{{Name: "city", Description: "name of the city", Required: true}},
	}, h.planOutfit)
}

// planOutfit writes the prompt for the client's profile: terse steps for an
// agent, friendly markdown for everyone else. (For clients that get the
// text rendering, the middleware turns the markdown into plain text.)
func (h handlers) planOutfit(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	// The client's arguments are wrong: invalid params (-32602), so that
	// clients (and the REST binding, 400) tell it from a server failure.
	name := req.Params.Arguments["city"]
	if name == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `plan_outfit needs the argument "city"`}
	}
	c, err := h.svc.Current(name)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	p, _ := negotiation.FromContext(ctx)
	text := friendlyOutfit(c)
	if p.Audience() == negotiation.Agent {
		text = terseOutfit(c)
	}
	return &mcp.GetPromptResult{
		Description: "What to wear in " + c.Location + " today",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}

func terseOutfit(c weather.Conditions) string {
	return fmt.Sprintf(`Plan an outfit for %s now: %s, %g °C (feels %g °C), precipitation %.0f %%, wind %g km/h %s, UV %d.
1. Choose layers for the feels-like temperature.
2. Add rain protection if precipitation is 40 %% or more.
3. Add sun protection if UV is 3 or more.
4. Answer with a list of items, one per line.`,
		c.Location, c.Conditions, c.TemperatureC, c.FeelsLikeC, 100*c.PrecipitationProbability, c.WindSpeedKmh, c.WindDirection, c.UVIndex)
}

func friendlyOutfit(c weather.Conditions) string {
	return fmt.Sprintf(`## What should I wear in %s today?

Right now it is **%g °C** and feels like **%g °C**, with %s. The chance of precipitation is %.0f %%, the wind blows at %g km/h from the %s, and the UV index is %d.

Please suggest a comfortable outfit for a day out:

- layers that suit the *feels-like* temperature,
- something against rain or snow if it is likely,
- sun protection if the UV index calls for it.`,
		renderers.EscapeMarkdown(c.Location), c.TemperatureC, c.FeelsLikeC, renderers.EscapeMarkdown(c.Conditions),
		100*c.PrecipitationProbability, c.WindSpeedKmh, renderers.EscapeMarkdown(c.WindDirection), c.UVIndex)
}

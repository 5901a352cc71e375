// Package weathermcpgo serves the offline weather of package weather as an
// MCP server of github.com/mark3labs/mcp-go: the same tools, schemas,
// resources and prompt as package weathermcp (the official SDK's version),
// answering with the same values, so that a client cannot tell them apart.
// The demo installs package mcpgo on the server it returns, with the
// per-tool renderers of weathermcp.Tools; the handlers ask their questions
// through mcpgo.Elicit, so questions reach only clients that can answer.
package weathermcpgo

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/internal/mcpgotool"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/negotiation"
)

// NewServer returns an MCP server with the weather tools, answering from svc
// (weather.NewService(nil) when svc is nil).
func NewServer(svc *weather.Service) *server.MCPServer {
	if svc == nil {
		svc = weather.NewService(nil)
	}
	impl := weathermcp.Implementation
	s := server.NewMCPServer(impl.Name, impl.Version,
		server.WithTitle(impl.Title),
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
	)
	h := handlers{svc: svc, alerts: &weathermcp.AlertStore{}}
	must(mcpgotool.Add(s, mcp.Tool{
		Name:        "get_weather",
		Title:       "Current weather",
		Description: "Current conditions for a city: temperature, feels-like, humidity, precipitation chance, wind, UV index.",
	}, nil, h.getWeather))
	must(mcpgotool.Add(s, mcp.Tool{
		Name:        "get_forecast",
		Title:       "Daily forecast",
		Description: "Daily forecast for a city, 1 to 7 days: high, low, conditions and precipitation chance per day.",
	}, weathermcp.ForecastInputSchema(), h.getForecast))
	must(mcpgotool.Add(s, mcp.Tool{
		Name:        "set_alert",
		Title:       "Set a temperature alert",
		Description: "Set an alert for when a city's temperature falls below a threshold. The person is asked to confirm; without a confirmation no alert is set.",
	}, nil, h.setAlert))
	must(mcpgotool.Add(s, mcp.Tool{
		Name:        "list_alerts",
		Title:       "List alerts",
		Description: "The temperature alerts set so far.",
	}, nil, h.listAlerts))
	addResources(s, h)
	addPrompts(s, h)
	return s
}

// must stops on a schema that cannot be inferred: a programming error,
// caught by every test.
func must(err error) {
	if err != nil {
		panic(fmt.Sprintf("weathermcpgo: %v", err))
	}
}

type handlers struct {
	svc    *weather.Service
	alerts *weathermcp.AlertStore
}

// getWeather answers for one city. A name that matches several cities is a
// question to a client that can ask a person, and a tool error naming the
// candidates for every other client.
func (h handlers) getWeather(ctx context.Context, req mcp.CallToolRequest, in weather.WeatherInput) (*mcp.CallToolResult, weather.Conditions, error) {
	c, err := h.svc.Current(in.City)
	var ambiguous *weather.AmbiguousCityError
	if errors.As(err, &ambiguous) && mcpgo.MayElicit(ctx) {
		message, schema := weathermcp.WhichCity(ambiguous)
		answer, ask, askErr := mcpgo.Elicit(ctx, req, "city", mcp.ElicitationParams{Message: message, RequestedSchema: schema})
		switch {
		case askErr != nil:
			return nil, weather.Conditions{}, errors.Join(err, askErr)
		case ask != nil:
			return ask, weather.Conditions{}, nil
		case answer.Action == mcp.ElicitationResponseActionAccept:
			// Never trust an answer: only a listed candidate is taken.
			if choice := chosen(answer, "city"); slices.Contains(ambiguous.Candidates, choice) {
				c, err = h.svc.Current(choice)
			}
		}
	}
	if err != nil {
		return nil, weather.Conditions{}, err
	}
	if p, _ := negotiation.FromContext(ctx); p.WantsHints() {
		negotiation.AddHints(ctx, weathermcp.Hints(c)...)
	}
	return nil, c, nil
}

func (h handlers) getForecast(_ context.Context, _ mcp.CallToolRequest, in weather.ForecastInput) (*mcp.CallToolResult, weather.Forecast, error) {
	f, err := h.svc.Forecast(in.City, in.Days)
	if err != nil {
		return nil, weather.Forecast{}, err
	}
	return nil, f, nil
}

// setAlert sets an alert only once the person confirmed it.
func (h handlers) setAlert(ctx context.Context, req mcp.CallToolRequest, in weathermcp.AlertInput) (*mcp.CallToolResult, weathermcp.Alert, error) {
	city, err := h.svc.Resolve(in.City)
	if err != nil {
		return nil, weathermcp.Alert{}, err
	}
	alert := weathermcp.Alert{Location: city.Name, ThresholdC: in.ThresholdC}
	message, schema := weathermcp.Confirm(alert)
	answer, ask, err := mcpgo.Elicit(ctx, req, "confirm", mcp.ElicitationParams{Message: message, RequestedSchema: schema})
	switch {
	case err != nil:
		return nil, weathermcp.Alert{}, fmt.Errorf("the alert for %s was not set: it needs a confirmation this client cannot give (%w)", alert.Location, err)
	case ask != nil:
		return ask, weathermcp.Alert{}, nil
	case answer.Action != mcp.ElicitationResponseActionAccept || field(answer, "confirm") != true:
		return nil, weathermcp.Alert{}, fmt.Errorf("the alert for %s was not set: not confirmed (%s)", alert.Location, answer.Action)
	}
	if err := h.alerts.Add(alert); err != nil {
		return nil, weathermcp.Alert{}, err
	}
	return nil, alert, nil
}

func (h handlers) listAlerts(context.Context, mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, weathermcp.Alerts, error) {
	return nil, h.alerts.List(), nil
}

// field returns a field of an accepted answer's content.
func field(answer *mcp.ElicitationResult, name string) any {
	content, _ := answer.Content.(map[string]any)
	return content[name]
}

func chosen(answer *mcp.ElicitationResult, name string) string {
	s, _ := field(answer, name).(string)
	return s
}

// Package weathermcp serves the offline weather of package weather as an MCP
// server of the official Go SDK: the tools get_weather and get_forecast,
// set_alert and list_alerts, all with output schemas; the resources
// weather://cities, weather://{city} and weather://{city}/report (three
// formats of one URI); and the prompt plan_outfit. The demo installs the
// middleware on the server it returns, with the per-tool renderers of
// [Tools]; the handlers use its elicitation helpers, so questions reach only
// clients that can answer them.
package weathermcp

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/negotiation"
)

// Implementation names the demo server.
var Implementation = mcp.Implementation{Name: "demo-weather", Title: "Offline weather", Version: "1.0.0"}

// NewServer returns an MCP server with the weather tools, answering from svc
// (weather.NewService(nil) when svc is nil).
func NewServer(svc *weather.Service) *mcp.Server {
	if svc == nil {
		svc = weather.NewService(nil)
	}
	impl := Implementation
	s := mcp.NewServer(&impl, nil)
	h := handlers{svc: svc, alerts: &alertStore{}}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "get_weather",
		Title:       "Current weather",
		Description: "Current conditions for a city: temperature, feels-like, humidity, precipitation chance, wind, UV index.",
	}, h.getWeather)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "get_forecast",
		Title:       "Daily forecast",
		Description: "Daily forecast for a city, 1 to 7 days: high, low, conditions and precipitation chance per day.",
		InputSchema: forecastInputSchema(),
	}, h.getForecast)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "set_alert",
		Title:       "Set a temperature alert",
		Description: "Set an alert for when a city's temperature falls below a threshold. The person is asked to confirm; without a confirmation no alert is set.",
	}, h.setAlert)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "list_alerts",
		Title:       "List alerts",
		Description: "The temperature alerts set so far.",
	}, h.listAlerts)
	addResources(s, h)
	addPrompts(s, h)
	return s
}

type handlers struct {
	svc    *weather.Service
	alerts *alertStore
}

// getWeather answers for one city. A name that matches several cities is a
// question to a client that can ask a person, and a tool error naming the
// candidates for every other client.
func (h handlers) getWeather(ctx context.Context, req *mcp.CallToolRequest, in weather.WeatherInput) (*mcp.CallToolResult, weather.Conditions, error) {
	c, err := h.svc.Current(in.City)
	var ambiguous *weather.AmbiguousCityError
	if errors.As(err, &ambiguous) && middleware.MayElicit(ctx, req) {
		choice, ask, askErr := whichCity(ctx, req, ambiguous)
		switch {
		case askErr != nil:
			return nil, weather.Conditions{}, errors.Join(err, askErr)
		case ask != nil:
			return ask, weather.Conditions{}, nil
		case choice != "":
			c, err = h.svc.Current(choice)
		}
	}
	if err != nil {
		return nil, weather.Conditions{}, err
	}
	if p, _ := negotiation.FromContext(ctx); p.WantsHints() {
		negotiation.AddHints(ctx, Hints(c)...)
	}
	return nil, c, nil
}

func (h handlers) getForecast(_ context.Context, _ *mcp.CallToolRequest, in weather.ForecastInput) (*mcp.CallToolResult, weather.Forecast, error) {
	f, err := h.svc.Forecast(in.City, in.Days)
	if err != nil {
		return nil, weather.Forecast{}, err
	}
	return nil, f, nil
}

// whichCity asks the person which of the candidates they mean, and returns
// the one chosen, or "" when they did not choose one of them.
func whichCity(ctx context.Context, req *mcp.CallToolRequest, ambiguous *weather.AmbiguousCityError) (string, *mcp.CallToolResult, error) {
	message, schema := WhichCity(ambiguous)
	answer, ask, err := middleware.Elicit(ctx, req, "city", &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil || ask != nil || answer.Action != "accept" {
		return "", ask, err
	}
	choice, _ := answer.Content["city"].(string)
	if !slices.Contains(ambiguous.Candidates, choice) {
		return "", nil, nil // never trust an answer: only a listed candidate is taken
	}
	return choice, nil, nil
}

// forecastInputSchema is the schema of weather.ForecastInput, with the range
// of days stated so that the SDK validates it before the handler runs.
func forecastInputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[weather.ForecastInput](nil)
	if err != nil {
		panic(fmt.Sprintf("weathermcp: schema of ForecastInput: %v", err)) // a programming error, caught by every test
	}
	lo, hi := float64(weather.MinForecastDays), float64(weather.MaxForecastDays)
	s.Properties["days"].Minimum = &lo
	s.Properties["days"].Maximum = &hi
	return s
}

// Hints returns the reasoning hints for current conditions: what an
// assistant may want to tell a person (umbrella, sun protection, wind chill).
func Hints(c weather.Conditions) []string {
	var hints []string
	switch {
	case c.PrecipitationProbability >= 0.6:
		hints = append(hints, fmt.Sprintf("Precipitation is likely (%.0f%%): suggest an umbrella or waterproof clothing.", 100*c.PrecipitationProbability))
	case c.PrecipitationProbability >= 0.3:
		hints = append(hints, fmt.Sprintf("Precipitation is possible (%.0f%%): an umbrella is worth carrying.", 100*c.PrecipitationProbability))
	}
	if c.UVIndex >= 6 {
		hints = append(hints, fmt.Sprintf("UV index %d is high: suggest sunscreen, a hat and shade around midday.", c.UVIndex))
	} else if c.UVIndex >= 3 {
		hints = append(hints, fmt.Sprintf("UV index %d is moderate: sunscreen is advisable for long stays outdoors.", c.UVIndex))
	}
	if chill := c.TemperatureC - c.FeelsLikeC; chill >= 2 {
		hints = append(hints, fmt.Sprintf("Wind chill: it feels %.1f °C colder than the air temperature; suggest a windproof layer.", chill))
	}
	if c.TemperatureC <= 0 {
		hints = append(hints, "At or below freezing: warn about ice on roads and paths.")
	}
	return hints
}

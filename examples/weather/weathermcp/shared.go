package weathermcp

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

// This file holds what the demo serves, apart from the SDK it is served
// with: the mcp-go version of the demo (package weathermcpgo) serves the
// same values, questions and texts.

// ForecastInputSchema is the input schema of get_forecast: that of
// weather.ForecastInput, with the range of days stated.
func ForecastInputSchema() *jsonschema.Schema { return forecastInputSchema() }

// CitiesJSON is the content of weather://cities.
func CitiesJSON(svc *weather.Service) ([]byte, error) {
	cities := svc.Cities()
	entries := make([]cityEntry, len(cities))
	for i, c := range cities {
		entries[i] = cityEntry{Name: c.Name, Slug: c.Slug, URI: uriScheme + c.Slug}
	}
	return json.Marshal(map[string]any{"cities": entries})
}

// Report is weather://{city}/report in its three formats.
type Report struct {
	JSON, Markdown, Text string
}

// ReportOf returns the report of a city: current conditions and a 3-day
// forecast.
func ReportOf(svc *weather.Service, city weather.City) (Report, error) {
	current, err := svc.Current(city.Name)
	if err != nil {
		return Report{}, fmt.Errorf("report of %s: %w", city.Name, err)
	}
	forecast, err := svc.Forecast(city.Name, reportForecast)
	if err != nil {
		return Report{}, fmt.Errorf("report of %s: %w", city.Name, err)
	}
	value, err := json.Marshal(report{Current: current, Forecast: forecast})
	if err != nil {
		return Report{}, fmt.Errorf("report of %s: %w", city.Name, err)
	}
	opts := renderers.Options{MediaType: format.Markdown.MediaType, Title: "Weather report: " + city.Name}
	md, err := renderers.Generic{}.Render(value, opts)
	if err != nil {
		return Report{}, fmt.Errorf("report of %s: %w", city.Name, err)
	}
	opts.MediaType = format.Text.MediaType
	text, err := renderers.Generic{}.Render(value, opts)
	if err != nil {
		return Report{}, fmt.Errorf("report of %s: %w", city.Name, err)
	}
	return Report{JSON: string(value), Markdown: md, Text: text}, nil
}

// CityOf finds the city of a weather:// URI by its slug, after removing
// suffix ("" for weather://{city}, "/report" for the report).
func CityOf(svc *weather.Service, uri, suffix string) (weather.City, bool) {
	return handlers{svc: svc}.city(uri, suffix)
}

// ReportSuffix is the suffix of the report URIs.
const ReportSuffix = reportSuffix

// Outfit is the text of the plan_outfit prompt: terse steps for an agent,
// friendly markdown for everyone else.
func Outfit(c weather.Conditions, agent bool) string {
	if agent {
		return terseOutfit(c)
	}
	return friendlyOutfit(c)
}

// WhichCity is the question get_weather asks about an ambiguous name.
func WhichCity(ambiguous *weather.AmbiguousCityError) (message string, schema *jsonschema.Schema) {
	enum := make([]any, len(ambiguous.Candidates))
	for i, c := range ambiguous.Candidates {
		enum[i] = c
	}
	return fmt.Sprintf("%q matches several cities. Which one do you mean?", ambiguous.Name), &jsonschema.Schema{
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{"city": {Type: "string", Enum: enum, Description: "the city"}},
		Required:   []string{"city"},
	}
}

// Confirm is the question set_alert asks.
func Confirm(alert Alert) (message string, schema *jsonschema.Schema) {
	return fmt.Sprintf("Set an alert for %s when the temperature falls below %g °C?", alert.Location, alert.ThresholdC), confirmSchema
}

// AlertStore keeps the alerts set on one server, at most 100.
type AlertStore struct{ s alertStore }

// Add sets an alert.
func (s *AlertStore) Add(a Alert) error { return s.s.add(a) }

// List returns the alerts set so far, oldest first, never nil.
func (s *AlertStore) List() Alerts { return Alerts{Alerts: s.s.list()} }

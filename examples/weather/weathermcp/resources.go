package weathermcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
)

// The demo's resources: the list of cities, and two templates over a
// city's lower-case slug ("weather://bern", "weather://new-york").
const (
	CitiesURI      = "weather://cities"
	CurrentURI     = "weather://{city}"
	ReportURI      = "weather://{city}/report"
	uriScheme      = "weather://"
	reportSuffix   = "/report"
	reportForecast = 3 // days of forecast in a report
)

func addResources(s *mcp.Server, h handlers) {
	s.AddResource(&mcp.Resource{
		URI:         CitiesURI,
		Name:        "cities",
		Title:       "Cities",
		Description: "The cities the server knows, with the slugs of their weather:// resources.",
		MIMEType:    "application/json",
	}, h.readCities)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: CurrentURI,
		Name:        "current-weather",
		Title:       "Current weather",
		Description: "Current conditions for a city, by its lower-case slug: weather://bern, weather://new-york.",
		MIMEType:    "application/json",
	}, h.readCurrent)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: ReportURI,
		Name:        "weather-report",
		Title:       "Weather report",
		Description: "Current conditions and a 3-day forecast, in three formats of the same URI: application/json (primary), text/markdown and text/plain.",
		MIMEType:    "application/json",
	}, h.readReport)
}

// cityEntry is one element of the cities resource.
type cityEntry struct {
	Name string `json:"name"`
	Slug string `json:"slug"`
	URI  string `json:"uri"`
}

func (h handlers) readCities(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	b, err := CitiesJSON(h.svc)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", req.Params.URI, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
}

// readCurrent serves weather://{city}: the current conditions as JSON. The
// middleware renders them for clients that want markdown or text.
func (h handlers) readCurrent(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	city, ok := h.city(req.Params.URI, "")
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	c, err := h.svc.Current(city.Name)
	if err != nil {
		return nil, fmt.Errorf("current weather of %s: %w", city.Name, err)
	}
	return jsonResource(req.Params.URI, c)
}

// report is the value of a weather report.
type report struct {
	Current  weather.Conditions `json:"current"`
	Forecast weather.Forecast   `json:"forecast"`
}

// readReport serves weather://{city}/report as three format alternatives of
// the same URI (SEP-2093): the middleware gives each client the one that
// matches its profile, and a client that did not declare the extension all
// three.
func (h handlers) readReport(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	city, ok := h.city(uri, reportSuffix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	r, err := ReportOf(h.svc, city)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "application/json", Text: r.JSON},
		{URI: uri, MIMEType: "text/markdown", Text: r.Markdown},
		{URI: uri, MIMEType: "text/plain", Text: r.Text},
	}}, nil
}

// city finds the city of a weather:// URI by its slug, after removing suffix.
func (h handlers) city(uri, suffix string) (weather.City, bool) {
	slug, ok := strings.CutPrefix(uri, uriScheme)
	if !ok {
		return weather.City{}, false
	}
	if slug, ok = strings.CutSuffix(slug, suffix); !ok && suffix != "" {
		return weather.City{}, false
	}
	return h.svc.BySlug(slug)
}

func jsonResource(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

package weathermcpgo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

func addResources(s *server.MCPServer, h handlers) {
	s.AddResource(mcp.NewResource(weathermcp.CitiesURI, "cities",
		mcp.WithResourceTitle("Cities"),
		mcp.WithResourceDescription("The cities the server knows, with the slugs of their weather:// resources."),
		mcp.WithMIMEType("application/json"),
	), h.readCities)
	s.AddResourceTemplate(mcp.NewResourceTemplate(weathermcp.CurrentURI, "current-weather",
		mcp.WithTemplateTitle("Current weather"),
		mcp.WithTemplateDescription("Current conditions for a city, by its lower-case slug: weather://bern, weather://new-york."),
		mcp.WithTemplateMIMEType("application/json"),
	), h.readCurrent)
	s.AddResourceTemplate(mcp.NewResourceTemplate(weathermcp.ReportURI, "weather-report",
		mcp.WithTemplateTitle("Weather report"),
		mcp.WithTemplateDescription("Current conditions and a 3-day forecast, in three formats of the same URI: application/json (primary), text/markdown and text/plain."),
		mcp.WithTemplateMIMEType("application/json"),
	), h.readReport)
}

func (h handlers) readCities(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	b, err := weathermcp.CitiesJSON(h.svc)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", req.Params.URI, err)
	}
	return jsonContents(req.Params.URI, b), nil
}

// notFound is a resource that does not exist. mcp-go sends a handler's
// error as -32603, whatever it wraps (see package mcpgo).
func notFound(uri string) error { return fmt.Errorf("%s: %w", uri, shaping.ErrNotFound) }

func (h handlers) readCurrent(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	city, ok := weathermcp.CityOf(h.svc, req.Params.URI, "")
	if !ok {
		return nil, notFound(req.Params.URI)
	}
	c, err := h.svc.Current(city.Name)
	if err != nil {
		return nil, fmt.Errorf("current weather of %s: %w", city.Name, err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", req.Params.URI, err)
	}
	return jsonContents(req.Params.URI, b), nil
}

// readReport serves weather://{city}/report as three format alternatives
// of the same URI (SEP-2093).
func (h handlers) readReport(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	uri := req.Params.URI
	city, ok := weathermcp.CityOf(h.svc, uri, weathermcp.ReportSuffix)
	if !ok {
		return nil, notFound(uri)
	}
	r, err := weathermcp.ReportOf(h.svc, city)
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{
		mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: r.JSON},
		mcp.TextResourceContents{URI: uri, MIMEType: "text/markdown", Text: r.Markdown},
		mcp.TextResourceContents{URI: uri, MIMEType: "text/plain", Text: r.Text},
	}, nil
}

func jsonContents(uri string, b []byte) []mcp.ResourceContents {
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}
}

func addPrompts(s *server.MCPServer, h handlers) {
	s.AddPrompt(mcp.NewPrompt("plan_outfit",
		mcp.WithPromptTitle("Plan an outfit"),
		mcp.WithPromptDescription("What to wear in a city today, from its current weather."),
		mcp.WithArgument("city", mcp.ArgumentDescription("name of the city"), mcp.RequiredArgument()),
	), h.planOutfit)
}

// planOutfit writes the prompt for the client's profile: terse steps for
// an agent, friendly markdown for everyone else.
func (h handlers) planOutfit(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	// The client's arguments are wrong: mcp.ErrInvalidParams says so.
	// mcp-go v1.2.1 sends every prompt handler's error as -32603 with its
	// text; the REST binding reads the error itself (package mcpgobackend)
	// and answers 400.
	name := req.Params.Arguments["city"]
	if name == "" {
		return nil, fmt.Errorf(`%w: plan_outfit needs the argument "city"`, mcp.ErrInvalidParams)
	}
	c, err := h.svc.Current(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", mcp.ErrInvalidParams, err)
	}
	p, _ := negotiation.FromContext(ctx)
	return mcp.NewGetPromptResult("What to wear in "+c.Location+" today", []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(weathermcp.Outfit(c, p.Audience() == negotiation.Agent))),
	}), nil
}

// Package journeymcpgo serves the offline journey planner of package
// journey as an MCP server of github.com/mark3labs/mcp-go: the same tools,
// schemas and results as package journeymcp (the official SDK's version).
// The example command installs package mcpgo on it, with the per-tool
// renderers of journeymcp.Tools.
package journeymcpgo

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/internal/mcpgotool"
)

// NewServer returns an MCP server with the journey tools, answering from p.
// A nil p means journey.NewPlanner(); should the embedded timetable not
// load, every call is a tool error saying why.
func NewServer(p *journey.Planner) *server.MCPServer {
	h := handlers{planner: p}
	if p == nil {
		h.planner, h.err = journey.NewPlanner()
	}
	impl := journeymcp.Implementation
	s := server.NewMCPServer(impl.Name, impl.Version, server.WithTitle(impl.Title), server.WithToolCapabilities(true), server.WithLogging())
	must(mcpgotool.Add(s, mcp.Tool{
		Name:  journeymcp.FindConnections,
		Title: "Find connections",
		Description: "Train connections between two Swiss stations departing at a given time or later, " +
			"the earliest first: departure, arrival, travel time, changes, and every train with its platforms. " +
			"Station names may be aliases (Zurich, Geneva, Lucerne) or unambiguous prefixes.",
	}, nil, h.findConnections))
	must(mcpgotool.Add(s, mcp.Tool{
		Name:        journeymcp.GetStation,
		Title:       "Station",
		Description: "One station of the network: canonical name, id, position, platforms and the lines calling there.",
	}, nil, h.getStation))
	return s
}

// must stops on a schema that cannot be inferred: a programming error,
// caught by every test.
func must(err error) {
	if err != nil {
		panic(fmt.Sprintf("journeymcpgo: %v", err))
	}
}

type handlers struct {
	planner *journey.Planner
	err     error // why there is no planner
}

func (h handlers) findConnections(_ context.Context, _ mcp.CallToolRequest, in journey.FindInput) (*mcp.CallToolResult, journey.Connections, error) {
	if h.err != nil {
		return nil, journey.Connections{}, h.err
	}
	c, err := h.planner.Find(in)
	if err != nil {
		return nil, journey.Connections{}, err
	}
	return nil, c, nil
}

func (h handlers) getStation(_ context.Context, _ mcp.CallToolRequest, in journey.StationInput) (*mcp.CallToolResult, journey.Station, error) {
	if h.err != nil {
		return nil, journey.Station{}, h.err
	}
	s, err := h.planner.Station(in.Name)
	if err != nil {
		return nil, journey.Station{}, err
	}
	return nil, s, nil
}

// Package journeymcp serves the offline journey planner of package journey
// as an MCP server of the official Go SDK: the tools find_connections and
// get_station, with output schemas. It does no negotiation itself; the
// example command installs the middleware on the server it returns, with the
// per-tool renderers of [Tools].
package journeymcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

// Implementation names the journey server.
var Implementation = mcp.Implementation{Name: "journey", Title: "Offline journey planner", Version: "1.0.0"}

// Tool names.
const (
	// FindConnections is the tool that finds connections between two stations.
	FindConnections = "find_connections"
	// GetStation is the tool that describes one station.
	GetStation = "get_station"
)

// NewServer returns an MCP server with the journey tools, answering from p.
// A nil p means journey.NewPlanner(); should the embedded timetable not load
// (the journey package's tests rule that out), every call is a tool error
// saying why.
func NewServer(p *journey.Planner) *mcp.Server {
	h := handlers{planner: p}
	if p == nil {
		h.planner, h.err = journey.NewPlanner()
	}
	impl := Implementation
	s := mcp.NewServer(&impl, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:  FindConnections,
		Title: "Find connections",
		Description: "Train connections between two Swiss stations departing at a given time or later, " +
			"the earliest first: departure, arrival, travel time, changes, and every train with its platforms. " +
			"Station names may be aliases (Zurich, Geneva, Lucerne) or unambiguous prefixes.",
	}, h.findConnections)
	mcp.AddTool(s, &mcp.Tool{
		Name:        GetStation,
		Title:       "Station",
		Description: "One station of the network: canonical name, id, position, platforms and the lines calling there.",
	}, h.getStation)
	return s
}

// handlers are the typed tool handlers. The planner's errors are returned
// as they are: they name the argument, say what to send instead and list the
// closest station names, and the SDK turns them into tool errors
// (isError: true) with that message.
type handlers struct {
	planner *journey.Planner
	err     error // why there is no planner
}

func (h handlers) findConnections(_ context.Context, _ *mcp.CallToolRequest, in journey.FindInput) (*mcp.CallToolResult, journey.Connections, error) {
	if h.err != nil {
		return nil, journey.Connections{}, h.err
	}
	c, err := h.planner.Find(in)
	if err != nil {
		return nil, journey.Connections{}, err
	}
	return nil, c, nil
}

func (h handlers) getStation(_ context.Context, _ *mcp.CallToolRequest, in journey.StationInput) (*mcp.CallToolResult, journey.Station, error) {
	if h.err != nil {
		return nil, journey.Station{}, h.err
	}
	s, err := h.planner.Station(in.Name)
	if err != nil {
		return nil, journey.Station{}, err
	}
	return nil, s, nil
}

package journeymcp_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// callTimeout bounds every call of the tests.
const callTimeout = 10 * time.Second

// departure is the fixed departure time of every test.
const departure = "2026-11-20T08:00:00+01:00"

// newServer returns the journey server, with the middleware when negotiated.
func newServer(t *testing.T, negotiated bool) *mcp.Server {
	t.Helper()
	p, err := journey.NewPlanner()
	if err != nil {
		t.Fatalf("planner: %v", err)
	}
	s := journeymcp.NewServer(p)
	if negotiated {
		middleware.Install(s, &middleware.Options{Tools: journeymcp.Tools()})
	}
	return s
}

// eras are the two protocol eras: stateless (the go-sdk client's default)
// and legacy (the 2025-11-25 initialize handshake).
var eras = []struct {
	name   string
	legacy bool
}{{"stateless", false}, {"legacy", true}}

// profiles are the feature tags of the clients the tests connect, nil for a
// client that does not declare the extension.
var profiles = []struct {
	name string
	tags []string
}{
	{"undeclared", nil},
	{"only invalid tags", []string{"@#$%", "format==json", "!", "format=xml"}},
	{"agent", []string{"agent", "format=json", "verbosity=compact"}},
	{"person", []string{"human"}},
	{"person, verbose", []string{"human", "verbosity=verbose"}},
	{"person, compact markdown", []string{"format=markdown", "verbosity=compact"}},
	{"terminal", []string{"format=text", "verbosity=compact"}},
	{"text, standard", []string{"format=text"}},
	{"text, verbose", []string{"format=text", "verbosity=verbose"}},
	{"sampling", []string{"sampling"}},
}

// options describes a client declaring tags (nothing when tags is nil).
func options(legacy bool, tags []string) *client.Options {
	opts := &client.Options{Legacy: legacy}
	if tags != nil {
		opts.Settings = client.Declare(tags...)
	}
	return opts
}

// connect connects a client declaring tags to a negotiating server.
func connect(t *testing.T, legacy bool, tags []string) *mcp.ClientSession {
	t.Helper()
	return middlewaretest.Connect(t, newServer(t, true), options(legacy, tags))
}

// call makes one tool call with a deadline. p is a copy: the SDK writes the
// client's capabilities into the params' _meta.
func call(t *testing.T, cs *mcp.ClientSession, p mcp.CallToolParams) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &p)
	if err != nil {
		t.Fatalf("call %s: %v", p.Name, err)
	}
	return res
}

// listTools lists the tools with a deadline.
func listTools(t *testing.T, cs *mcp.ClientSession) []*mcp.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return res.Tools
}

// text returns the first content block, which must be text.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("no content")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("first block is %T", res.Content[0])
	}
	return tc.Text
}

// find is a find_connections call at the fixed departure time.
func find(from, to string, limit int) mcp.CallToolParams {
	return mcp.CallToolParams{
		Name:      journeymcp.FindConnections,
		Arguments: map[string]any{"from": from, "to": to, "departure": departure, "limit": limit},
	}
}

// station is a get_station call.
func station(name string) mcp.CallToolParams {
	return mcp.CallToolParams{Name: journeymcp.GetStation, Arguments: map[string]any{"name": name}}
}

// Calls of the tests; errorCalls are tool errors.
var (
	direct     = find("Zürich HB", "Bern", 3)
	withChange = find("Zürich HB", "Brig", 3)
	errorCalls = []mcp.CallToolParams{
		find("Atlantis", "Bern", 3),
		find("Zür", "Bern", 3),
		find("Bern", "Bern", 3),
		find("Bern", "Thun", 99),
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Atlantis", "to": "Bernn", "departure": "tomorrow", "limit": -1}},
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Bern", "to": "Thun"}},
		station("Lausane"),
		station(""),
	}
	successCalls = []mcp.CallToolParams{
		direct,
		withChange,
		find("Interlaken Ost", "Luzern", 2),
		// After the last trains: rolls over midnight, with two changes.
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "Bern", "to": "Lugano", "departure": "2026-11-20T22:30:00+01:00", "limit": 3}},
		{Name: journeymcp.FindConnections, Arguments: map[string]any{"from": "zurich", "to": "geneva", "departure": departure}},
		station("Bern"),
		station("lucerne"),
	}
)

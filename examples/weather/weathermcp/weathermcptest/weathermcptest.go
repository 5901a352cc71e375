// Package weathermcptest holds the demo weather server's elicitation
// scenarios, so that every transport's tests run the same ones: clients that
// cannot answer are never asked, clients that can are asked and their
// answers used.
package weathermcptest

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/client"
)

// Client is one client of a scenario: its settings and client options.
type Client struct {
	Name     string
	Settings map[string]any
	Options  *mcp.ClientOptions
}

// CannotAnswer returns the clients that must never be asked: two that have
// the elicitation capability and a handler that fails tb when called, and
// one without the capability.
func CannotAnswer(tb testing.TB) []Client {
	failIfAsked := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			tb.Errorf("a client that cannot answer was asked: %q", req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true, "city": "Springfield, IL"}}, nil
		},
	}
	return []Client{
		{Name: "!interactive", Settings: client.Declare("human", "!interactive"), Options: failIfAsked},
		{Name: "interactive and !interactive", Settings: client.Declare("interactive", "!interactive"), Options: failIfAsked},
		{Name: "no elicitation capability", Settings: client.Declare("human", "interactive")},
	}
}

// CanAnswer returns a client that declares "interactive" and answers every
// question: the city "Springfield, MO", and yes to confirmations. asked
// counts the questions.
func CanAnswer() (Client, *atomic.Int32) {
	var asked atomic.Int32
	return Client{
		Name:     "interactive",
		Settings: client.Declare("human", "interactive"),
		Options: &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"city": "Springfield, MO", "confirm": true}}, nil
			},
		},
	}, &asked
}

// Timeout bounds every call of the scenarios: no call may hang.
const Timeout = 20 * time.Second

// Call calls a tool with a deadline and fails the test on a protocol error.
func Call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: %v", name, args, err)
	}
	return res
}

// Text returns the text blocks of a result, joined.
func Text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// CheckNeverAsked runs the calls that would ask a person, for a client that
// cannot answer: the ambiguous city is a tool error naming every candidate,
// set_alert is a tool error, and list_alerts stays empty.
func CheckNeverAsked(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res := Call(t, cs, "get_weather", map[string]any{"city": "Springfield"})
	if !res.IsError {
		t.Errorf("get_weather Springfield: not a tool error: %s", Text(res))
	}
	for _, c := range []string{"Springfield, IL", "Springfield, MA", "Springfield, MO"} {
		if !strings.Contains(Text(res), c) {
			t.Errorf("the error does not name %q: %s", c, Text(res))
		}
	}
	res = Call(t, cs, "set_alert", map[string]any{"city": "Bern", "threshold_c": 0})
	if !res.IsError {
		t.Errorf("set_alert from a client that cannot confirm: not a tool error: %s", Text(res))
	}
	if alerts := alertsOf(t, Call(t, cs, "list_alerts", map[string]any{})); len(alerts) != 0 {
		t.Errorf("an alert was set without a confirmation: %v", alerts)
	}
}

// CheckAsked runs the same calls for a client that answers: the question
// arrives and the answer is used.
func CheckAsked(t *testing.T, cs *mcp.ClientSession, asked *atomic.Int32) {
	t.Helper()
	res := Call(t, cs, "get_weather", map[string]any{"city": "Springfield"})
	if res.IsError || !strings.Contains(structured(t, res), `"location":"Springfield, MO"`) {
		t.Errorf("get_weather Springfield did not use the answer: %s", Text(res))
	}
	res = Call(t, cs, "set_alert", map[string]any{"city": "Bern", "threshold_c": -2.5})
	if res.IsError {
		t.Errorf("set_alert, confirmed: %s", Text(res))
	}
	alerts := alertsOf(t, Call(t, cs, "list_alerts", map[string]any{}))
	if len(alerts) != 1 || alerts[0]["location"] != "Bern, Switzerland" || alerts[0]["threshold_c"] != -2.5 {
		t.Errorf("alerts = %v, want the one confirmed", alerts)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("the client was asked %d times, want 2", n)
	}
}

func structured(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("structuredContent: %v", err)
	}
	return string(b)
}

func alertsOf(t *testing.T, res *mcp.CallToolResult) []map[string]any {
	t.Helper()
	var out struct {
		Alerts []map[string]any `json:"alerts"`
	}
	if err := json.Unmarshal([]byte(structured(t, res)), &out); err != nil {
		t.Fatalf("list_alerts: %v", err)
	}
	return out.Alerts
}

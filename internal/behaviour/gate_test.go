package behaviour_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather/weathermcp/weathermcptest"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/middleware/client"
)

const behaviourTimeout = weathermcptest.Timeout

func TestClientsThatCannotAnswerAreNeverAsked(t *testing.T) {
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		// Every handler asks through the helpers; a client's handler that is
		// called fails the test.
		for _, c := range weathermcptest.CannotAnswer(t) {
			t.Run(c.Name, func(t *testing.T) {
				cs := s.Connect(t, &client.Options{Settings: c.Settings, Legacy: m.Legacy, Client: c.Options})
				weathermcptest.CheckNeverAsked(t, cs)
			})
		}
	})
}

func TestClientsThatCanAnswerAreAskedAndHeard(t *testing.T) {
	// A stateless HTTP server cannot reach a legacy client: not asked there.
	forEachFrontEndIn(t, behaviour.Mode.Negotiates, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		c, asked := weathermcptest.CanAnswer()
		cs := s.Connect(t, &client.Options{Settings: c.Settings, Legacy: m.Legacy, Client: c.Options})
		weathermcptest.CheckAsked(t, cs, asked)
	})
}

func TestForgedAnswersAreRefused(t *testing.T) {
	// A stateless client that declared !interactive sends an "accept" of its
	// own for the confirmation it was never asked: the gate answers instead.
	// Input responses belong to the stateless era.
	stateless := func(m behaviour.Mode) bool { return !m.Legacy }
	forEachFrontEndIn(t, stateless, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		cs := s.Connect(t, &client.Options{
			Settings: client.Declare("!interactive"),
			Client:   &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil }},
		})
		ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{
			Name:           "set_alert",
			Arguments:      map[string]any{"city": "Bern", "threshold_c": 0},
			InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			t.Errorf("a forged confirmation set the alert: %s", weathermcptest.Text(res))
		}
		if res := weathermcptest.Call(t, cs, "list_alerts", map[string]any{}); weathermcptest.Text(res) != `{"alerts":[]}` {
			t.Errorf("alerts: %s", weathermcptest.Text(res))
		}
	})
}

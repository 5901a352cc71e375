package weathermcp_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather/weathermcp/weathermcptest"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

func TestClientsThatCannotAnswerAreNeverAsked(t *testing.T) {
	for _, e := range eras {
		for _, c := range weathermcptest.CannotAnswer(t) {
			t.Run(e.name+"/"+c.Name, func(t *testing.T) {
				cs := middlewaretest.Connect(t, newServer(true), &client.Options{Settings: c.Settings, Legacy: e.legacy, Client: c.Options})
				weathermcptest.CheckNeverAsked(t, cs)
			})
		}
	}
}

func TestClientsThatCanAnswerAreAsked(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			c, asked := weathermcptest.CanAnswer()
			cs := middlewaretest.Connect(t, newServer(true), &client.Options{Settings: c.Settings, Legacy: e.legacy, Client: c.Options})
			weathermcptest.CheckAsked(t, cs, asked)
		})
	}
}

func TestUndeclaredClientsKeepTheSDKsBehaviour(t *testing.T) {
	// A client that does not declare the extension is asked when it has the
	// capability, exactly as without the middleware.
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			c, asked := weathermcptest.CanAnswer()
			cs := middlewaretest.Connect(t, newServer(true), &client.Options{Legacy: e.legacy, Client: c.Options})
			weathermcptest.CheckAsked(t, cs, asked)
		})
	}
}

func TestDecliningLeavesNoAlert(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}}
			cs := middlewaretest.Connect(t, newServer(true), &client.Options{Settings: client.Declare("interactive"), Legacy: e.legacy, Client: opts})
			if res := weathermcptest.Call(t, cs, "set_alert", map[string]any{"city": "Bern", "threshold_c": 1}); !res.IsError {
				t.Errorf("a declined alert was set: %s", weathermcptest.Text(res))
			}
			if res := weathermcptest.Call(t, cs, "list_alerts", map[string]any{}); weathermcptest.Text(res) != `{"alerts":[]}` {
				t.Errorf("alerts after a decline: %s", weathermcptest.Text(res))
			}
		})
	}
}

func TestANonInteractiveClientCannotConfirmByItself(t *testing.T) {
	// A stateless client that declared !interactive sends an "accept" of its
	// own for the confirmation it was never asked: the gate answers instead.
	cs := middlewaretest.Connect(t, newServer(true), &client.Options{
		Settings: client.Declare("!interactive"),
		Client:   &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil }},
	})
	ctx, cancel := context.WithTimeout(context.Background(), weathermcptest.Timeout)
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
}

func TestHintsReachExactlyTheSamplingClients(t *testing.T) {
	// Bern at 13:00 UTC on 2026-11-20 has rain and wind chill to hint at.
	profiles := []struct {
		tags      []string
		wantHints bool
	}{
		{nil, false},
		{[]string{"agent"}, false},
		{[]string{"human", "verbosity=verbose"}, false},
		{[]string{"agent", "sampling"}, true},
		{[]string{"human", "sampling"}, true},
		{[]string{"format=text", "verbosity=compact", "sampling"}, true},
		{[]string{"sampling", "!sampling"}, false},
	}
	for _, e := range eras {
		for _, p := range profiles {
			t.Run(e.name+"/"+fmtTags(p.tags), func(t *testing.T) {
				cs := connect(t, e.legacy, p.tags)
				res := weathermcptest.Call(t, cs, "get_weather", map[string]any{"city": "Bern"})
				var hints []*mcp.TextContent
				for _, c := range res.Content {
					if tc, ok := c.(*mcp.TextContent); ok && tc.Annotations != nil {
						hints = append(hints, tc)
					}
				}
				if got := len(hints) == 1; got != p.wantHints {
					t.Fatalf("hints block present = %v, want %v; content: %s", got, p.wantHints, weathermcptest.Text(res))
				}
				if p.wantHints && (len(hints[0].Annotations.Audience) != 1 || hints[0].Annotations.Audience[0] != "assistant") {
					t.Errorf("hints annotated for %v, want [assistant]", hints[0].Annotations.Audience)
				}
				validate(t, cs, "get_weather", res.StructuredContent)
			})
		}
	}
}

func fmtTags(tags []string) string {
	b, _ := json.Marshal(tags)
	return string(b)
}

// validate checks structuredContent against the tool's output schema, as
// listed by the server.
func validate(t *testing.T, cs *mcp.ClientSession, tool string, structured any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if tl.Name != tool {
			continue
		}
		raw, _ := json.Marshal(tl.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("output schema: %v", err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("resolve output schema: %v", err)
		}
		value, _ := json.Marshal(structured)
		var v any
		_ = json.Unmarshal(value, &v)
		if err := resolved.Validate(v); err != nil {
			t.Errorf("structuredContent does not validate against the output schema: %v\n%s", err, value)
		}
		return
	}
	t.Fatalf("tool %s not listed", tool)
}

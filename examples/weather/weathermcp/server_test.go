package weathermcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/renderers"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// noon is the fixed clock of every test: 2026-11-20 13:00 UTC.
func noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

func newServer(negotiated bool) *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(noon))
	if negotiated {
		middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	}
	return s
}

var eras = []struct {
	name   string
	legacy bool
}{{"stateless", false}, {"legacy", true}}

// demoCalls covers every demo tool, its errors included.
var demoCalls = []mcp.CallToolParams{
	{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}},
	{Name: "get_weather", Arguments: map[string]any{"city": "springfield, il"}},
	{Name: "get_weather", Arguments: map[string]any{"city": "Springfield"}},
	{Name: "get_weather", Arguments: map[string]any{"city": "Bernn"}},
	{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 7}},
	{Name: "get_forecast", Arguments: map[string]any{"city": "Bern", "days": 9}},
	{Name: "get_forecast", Arguments: map[string]any{"city": "Atlantis", "days": 2}},
}

func TestPassThroughIsByteIdenticalForEveryDemoTool(t *testing.T) {
	clients := []struct {
		name     string
		settings map[string]any
	}{
		{"undeclared", nil},
		{"only invalid tags", client.Declare("@#$%", "format==json", "!", "format=xml")},
	}
	for _, e := range eras {
		for _, c := range clients {
			t.Run(e.name+"/"+c.name, func(t *testing.T) {
				opts := &client.Options{Settings: c.settings, Legacy: e.legacy}
				middlewaretest.CheckSameResults(t, newServer(false), newServer(true), opts, demoCalls)
			})
		}
	}
}

func connect(t *testing.T, legacy bool, tags []string) *mcp.ClientSession {
	t.Helper()
	opts := &client.Options{Legacy: legacy}
	if tags != nil {
		opts.Settings = client.Declare(tags...)
	}
	return middlewaretest.Connect(t, newServer(true), opts)
}

func call(t *testing.T, cs *mcp.ClientSession, p mcp.CallToolParams) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &p)
	if err != nil {
		t.Fatalf("call %s: %v", p.Name, err)
	}
	return res
}

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

func TestRenderingsOfTheDemoTools(t *testing.T) {
	weatherCall := demoCalls[0]
	forecastCall := demoCalls[4]
	tests := []struct {
		name  string
		tags  []string
		give  mcp.CallToolParams
		check func(t *testing.T, body string)
	}{
		{"agent weather is JSON", []string{"agent"}, weatherCall, isJSON},
		{"human weather is markdown", []string{"human", "format=markdown"}, weatherCall, isMarkdown("Bern, Switzerland")},
		{"human forecast is a markdown table", []string{"human"}, forecastCall, isMarkdown("| 2026-11-26 |")},
		{"verbose weather explains its fields", []string{"human", "verbosity=verbose"}, weatherCall, isMarkdown("°C")},
		{"terminal weather is plain", []string{"format=text", "verbosity=compact"}, weatherCall, isPlain("Bern, Switzerland")},
		{"terminal forecast is plain, a line a day", []string{"format=text", "verbosity=compact"}, forecastCall, isPlain("Partly cloudy -1/-7 27%")},
		{"standard text forecast", []string{"format=text"}, forecastCall, isPlain("2026-11-26")},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				res := call(t, connect(t, e.legacy, tt.tags), tt.give)
				if res.IsError {
					t.Fatalf("tool error: %s", text(t, res))
				}
				if res.StructuredContent == nil {
					t.Error("structuredContent dropped; the demo tools declare output schemas")
				}
				tt.check(t, text(t, res))
			})
		}
	}
}

func isJSON(t *testing.T, body string) {
	t.Helper()
	if !json.Valid([]byte(body)) {
		t.Errorf("not JSON: %s", body)
	}
}

func isMarkdown(want string) func(*testing.T, string) {
	return func(t *testing.T, body string) {
		t.Helper()
		if err := renderers.CheckMarkdown(body); err != nil || json.Valid([]byte(body)) || !strings.Contains(body, want) {
			t.Errorf("not markdown with %q (%v):\n%s", want, err, body)
		}
	}
}

func isPlain(want string) func(*testing.T, string) {
	return func(t *testing.T, body string) {
		t.Helper()
		if err := renderers.CheckPlain(body); err != nil || json.Valid([]byte(body)) || !strings.Contains(body, want) {
			t.Errorf("not plain text with %q (%v):\n%s", want, err, body)
		}
	}
}

func TestToolErrorsNameTheCandidates(t *testing.T) {
	tests := []struct {
		name string
		give mcp.CallToolParams
		want []string
	}{
		{"ambiguous", demoCalls[2], []string{"Springfield, IL", "Springfield, MA", "Springfield, MO"}},
		{"unknown suggests", demoCalls[3], []string{"Bern, Switzerland"}},
		{"days out of range", demoCalls[5], []string{"days"}},
	}
	for _, e := range eras {
		for _, profile := range [][]string{nil, {"human"}, {"format=text", "verbosity=compact"}, {"agent", "format=json"}} {
			for _, tt := range tests {
				t.Run(e.name+"/"+tt.name, func(t *testing.T) {
					res := call(t, connect(t, e.legacy, profile), tt.give)
					body := text(t, res)
					if !res.IsError {
						t.Fatalf("not a tool error: %s", body)
					}
					for _, w := range tt.want {
						if !strings.Contains(body, w) {
							t.Errorf("error %q does not name %q", body, w)
						}
					}
				})
			}
		}
	}
}

func TestCityNamesMatchCaseInsensitively(t *testing.T) {
	for _, give := range []string{"BERN", "bern", "Bern, Switzerland", "springfield, mo"} {
		t.Run(give, func(t *testing.T) {
			res := call(t, connect(t, false, nil), mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": give}})
			if res.IsError {
				t.Errorf("%q: %s", give, text(t, res))
			}
		})
	}
}

func TestToolListIsIdenticalForEveryProfile(t *testing.T) {
	var want string
	for i, tags := range [][]string{nil, {"agent", "format=json", "verbosity=compact"}, {"human", "format=markdown"}, {"format=text", "verbosity=compact"}} {
		for _, e := range eras {
			cs := connect(t, e.legacy, tags)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			res, err := cs.ListTools(ctx, nil)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res.Tools)
			if i == 0 && want == "" {
				want = string(b)
			}
			if string(b) != want {
				t.Errorf("%v (%s): tools/list differs", tags, e.name)
			}
		}
	}
}

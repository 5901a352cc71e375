package check_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/examples/journey/journeymcpgo"
	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/examples/weather/weathermcpgo"
	"github.com/contentneg/contentneg/internal/conformance/check"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// noon is the fixed clock of the weather server: 2026-11-20 13:00 UTC.
func noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

// A server under test, as its command runs it, and a call to check it with.
type example struct {
	name     string
	app      serve.App
	tool     string
	args     string
	wantPass []string // checks that must pass, not be skipped, in every era served
}

// searchText is what the search tool of jsonTextApp answers: its data as
// indented JSON text, without structuredContent, as many servers do.
const searchText = "{\n  \"hits\": [\n    {\"path\": \"pkg/*_test.go\", \"line\": 12, \"id\": 12345678901234567890}\n  ],\n  \"total\": 1\n}\n"

// jsonTextApp is a server whose one tool returns JSON text, on both SDKs.
func jsonTextApp() serve.App {
	return serve.App{
		Name: "json-text",
		Provide: []any{func() *mcp.Server {
			s := mcp.NewServer(&mcp.Implementation{Name: "json-text", Version: "1.0.0"}, nil)
			s.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: searchText}}}, nil
				})
			return s
		}},
		MCPGo: []any{func() *server.MCPServer {
			s := server.NewMCPServer("json-text", "1.0.0", server.WithToolCapabilities(false))
			s.AddTool(mcpgomcp.NewTool("search"), func(context.Context, mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
				return mcpgomcp.NewToolResultText(searchText), nil
			})
			return s
		}},
	}
}

// rendered are the checks a call that returns data exercises.
var rendered = []string{
	"advertised", "pass-through/invalid-tags", "pass-through/no-preference", "pass-through/unknown-version",
	"lists/tools", "structured/value", "rendering/applied", "markdown/one-block", "markdown/no-raw-html",
	"text/one-block", "text/no-markup", "toon/one-block", "structured-content/kept", "hints/only-for-sampling",
	"gate/no-elicitation", "gate/no-input-requests",
}

func examples() []example {
	return []example{
		{
			name: "weather",
			app: serve.App{
				Name:    "demo-weather",
				Provide: []any{func() *weather.Service { return weather.NewService(noon) }, weathermcp.NewServer},
				MCPGo:   []any{func() *weather.Service { return weather.NewService(noon) }, weathermcpgo.NewServer},
				Tools:   weathermcp.Tools(),
			},
			tool:     "get_forecast",
			args:     `{"city":"Bern","days":3}`,
			wantPass: rendered,
		},
		{
			name: "weather, an elicitation",
			app: serve.App{
				Name:    "demo-weather",
				Provide: []any{func() *weather.Service { return weather.NewService(noon) }, weathermcp.NewServer},
				MCPGo:   []any{func() *weather.Service { return weather.NewService(noon) }, weathermcpgo.NewServer},
				Tools:   weathermcp.Tools(),
			},
			tool:     "get_weather",
			args:     `{"city":"Springfield"}`,
			wantPass: []string{"advertised", "lists/tools", "errors/unchanged", "gate/no-elicitation", "gate/no-input-requests", "gate/no-error-without-capability"},
		},
		{
			name: "journey",
			app: serve.App{
				Name:    "journey",
				Provide: []any{journey.NewPlanner, journeymcp.NewServer},
				MCPGo:   []any{journey.NewPlanner, journeymcpgo.NewServer},
				Tools:   journeymcp.Tools(),
			},
			tool:     "find_connections",
			args:     `{"from":"Zürich HB","to":"Bern","departure":"2026-11-20T08:00:00+01:00","limit":3}`,
			wantPass: rendered,
		},
		{
			name: "JSON text",
			app:  jsonTextApp(),
			tool: "search",
			args: `{}`,
			wantPass: append(slices.DeleteFunc(slices.Clone(rendered), func(name string) bool { return name == "structured-content/kept" }),
				"structured/no-mirror", "structured/mirror", "structured-content/omitted"),
		},
	}
}

// stdioPipe runs app with -stdio in-process for each session, as its
// command would run; every run must exit with 0.
func stdioPipe(t *testing.T, app serve.App, flags ...string) func(context.Context) (io.ReadCloser, io.WriteCloser, error) {
	return func(context.Context) (io.ReadCloser, io.WriteCloser, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		var stderr servetest.SyncBuffer
		done := make(chan int, 1)
		go func() {
			code := serve.Run(context.Background(), app, append([]string{"-stdio"}, flags...), inR, outW, &stderr)
			outW.Close()
			done <- code
		}()
		t.Cleanup(func() {
			inW.Close()
			if code := <-done; code != 0 {
				t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
			}
		})
		return outR, inW, nil
	}
}

// run runs the kit with a deadline and fails the test if it cannot.
func run(t *testing.T, target check.Target, tool, args string) *check.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	report, err := check.Run(ctx, check.Options{Target: target, Tool: tool, Arguments: json.RawMessage(args), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return report
}

// failures lists the failed checks of report at level, as "era name: detail".
func failures(report *check.Report, level check.Level) []string {
	var out []string
	for _, r := range report.Results {
		if r.Status == check.Fail && r.Level == level {
			out = append(out, string(r.Era)+" "+r.Name+": "+r.Detail)
		}
	}
	return out
}

func TestTheExampleServersPass(t *testing.T) {
	if testing.Short() {
		t.Skip("many sessions")
	}
	transports := []struct {
		name       string
		target     func(t *testing.T, app serve.App) check.Target
		wantLegacy bool // the stateless era falls back to 2025-11-25
		sessions   bool // the legacy era can be served
	}{
		{"stdio", func(t *testing.T, app serve.App) check.Target { return check.Target{Pipe: stdioPipe(t, app)} }, false, true},
		{"HTTP, stateless", func(t *testing.T, app serve.App) check.Target { return check.Target{URL: servetest.HTTP(t, app, true)} }, false, false},
		{"HTTP, with sessions", func(t *testing.T, app serve.App) check.Target {
			return check.Target{URL: servetest.HTTP(t, app, false)}
		}, true, true},
	}
	for _, ex := range examples() {
		for _, tr := range transports {
			for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
				t.Run(ex.name+", "+tr.name+", "+sdk, func(t *testing.T) {
					t.Setenv(serve.SDKEnv, sdk)
					// mcp-go's HTTP with sessions serves 2026-07-28 too.
					checkExample(t, ex, tr.target(t, ex.app), tr.wantLegacy && sdk == serve.SDKGo, tr.sessions)
				})
			}
		}
	}
}

// checkExample runs the kit against one example server and fails the test
// unless every MUST holds and the example's checks pass. wantLegacy: the
// stateless era falls back to 2025-11-25; sessions: the legacy era can be
// served.
func checkExample(t *testing.T, ex example, target check.Target, wantLegacy, sessions bool) {
	report := run(t, target, ex.tool, ex.args)
	if !report.OK() {
		t.Errorf("MUST failures:\n%s", strings.Join(failures(report, check.Must), "\n"))
	}
	eras := map[check.Era]string{}
	for _, r := range report.Results {
		eras[r.Era] = r.Protocol
	}
	wantStateless := string(check.Stateless)
	if wantLegacy {
		wantStateless = string(check.Legacy)
	}
	if eras[check.Stateless] != wantStateless || eras[check.Legacy] != string(check.Legacy) {
		t.Errorf("protocols by era: %v", eras)
	}
	for _, r := range report.Results {
		want := slices.Contains(ex.wantPass, r.Name)
		if r.Era == check.Legacy && !sessions {
			// Without sessions, only the advertisement is checked.
			want = r.Name == "advertised"
			if !want && r.Status != check.Skip {
				t.Errorf("%s %s: %s, want skipped without sessions", r.Era, r.Name, r.Status)
			}
		}
		if want && r.Status != check.Pass {
			t.Errorf("%s %s: %s: %s", r.Era, r.Name, r.Status, r.Detail)
		}
	}
}

func TestTheGateIsExercised(t *testing.T) {
	// Springfield is ambiguous: the weather demo asks an interactive client
	// which one it means, so the gate checks see a real elicitation.
	ex := examples()[1]
	report := run(t, check.Target{Pipe: stdioPipe(t, ex.app)}, ex.tool, ex.args)
	for _, r := range report.Results {
		if !strings.HasPrefix(r.Name, "gate/") {
			continue
		}
		if r.Status != check.Pass || !strings.Contains(r.Detail, "the undeclared client was asked") {
			t.Errorf("%s %s: %s: %s", r.Era, r.Name, r.Status, r.Detail)
		}
	}
}

func TestTheDefaultAndTheFormatArgumentAreChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("many sessions")
	}
	ex := examples()[0]
	tests := []struct {
		name  string
		flags []string
		want  map[string]string // check -> "pass: what the detail says" or "skip: ..."
	}{
		{"neither", nil, map[string]string{
			"default/declared-untouched":    "skip: the server applies no default tags",
			"format-argument/applied":       "skip: the tool's input schema advertises no format argument",
			"format-argument/unknown-value": "skip: the tool's input schema advertises no format argument",
		}},
		{"both", []string{"-default-tags", "human", "-format-argument", "response_format"}, map[string]string{
			"default/declared-untouched":    "pass: the server applies default tags: an undeclared client gets a rendering",
			"format-argument/applied":       `pass: argument "response_format"`,
			"format-argument/unknown-value": "pass: ",
			"pass-through/invalid-tags":     "pass: ",
			"pass-through/unknown-version":  "pass: ",
			"rendering/applied":             "pass: ",
		}},
	}
	for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
		for _, tt := range tests {
			t.Run(sdk+"/"+tt.name, func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				report := run(t, check.Target{Pipe: stdioPipe(t, ex.app, tt.flags...)}, ex.tool, ex.args)
				if !report.OK() {
					t.Errorf("MUST failures:\n%s", strings.Join(failures(report, check.Must), "\n"))
				}
				for _, r := range report.Results {
					want, ok := tt.want[r.Name]
					if !ok {
						continue
					}
					status, detail, _ := strings.Cut(want, ": ")
					if string(r.Status) != status || !strings.Contains(r.Detail, detail) {
						t.Errorf("%s %s: %s: %s; want %s", r.Era, r.Name, r.Status, r.Detail, want)
					}
				}
			})
		}
	}
}

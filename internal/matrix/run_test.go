package matrix_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/internal/matrix"
	"github.com/contentneg/contentneg/middleware"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// noon is the fixed clock of the weather tests: 2026-11-20 13:00 UTC.
func noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

// weatherServer is the demo server, negotiating, on a fixed clock.
func weatherServer() *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	return s
}

func TestRunPresetsAgainstTheWeatherDemo(t *testing.T) {
	tests := []struct {
		name         string
		giveTool     string
		giveArgs     string
		giveLegacy   bool
		wantProtocol string
	}{
		{"get_weather, stateless", "get_weather", `{"city":"Bern"}`, false, "2026-07-28"},
		{"get_weather, legacy", "get_weather", `{"city":"Bern"}`, true, matrix.LegacyProtocol},
		{"get_forecast, stateless", "get_forecast", `{"city":"Bern","days":3}`, false, "2026-07-28"},
		{"get_forecast, legacy", "get_forecast", `{"city":"Bern","days":3}`, true, matrix.LegacyProtocol},
	}
	wantRenderings := map[string]matrix.Rendering{
		"undeclared": matrix.RenderJSONMirror,
		"agent":      matrix.RenderStructured, // format=json: structuredContent alone
		"human":      matrix.RenderMarkdown,
		"terminal":   matrix.RenderText,
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := matrix.Run(testContext(t), inMemory(t, weatherServer()), matrix.Options{
				Tool:      tt.giveTool,
				Arguments: json.RawMessage(tt.giveArgs),
				Legacy:    tt.giveLegacy,
				Timeout:   20 * time.Second,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if len(m.Rows) != 4 {
				t.Fatalf("%d rows, want 4", len(m.Rows))
			}
			byName := map[string]matrix.Row{}
			for _, r := range m.Rows {
				byName[r.Profile] = r
				if want := wantRenderings[r.Profile]; r.Rendering != want {
					t.Errorf("%s: rendering %q, want %q", r.Profile, r.Rendering, want)
				}
				if r.Rendering == matrix.RenderStructured {
					if r.TextBlocks != 0 || r.TextBytes != 0 || r.ResultBytes <= 0 {
						t.Errorf("%s: text %d bytes in %d blocks, result %d bytes: want no text and a result", r.Profile, r.TextBytes, r.TextBlocks, r.ResultBytes)
					}
				} else if r.TextBytes <= 0 || r.ResultBytes <= r.TextBytes || r.Tokens <= 0 || r.TextBlocks != 1 {
					t.Errorf("%s: text %d bytes in %d blocks, result %d bytes, %d tokens: want positive sizes, the result larger than its text",
						r.Profile, r.TextBytes, r.TextBlocks, r.ResultBytes, r.Tokens)
				}
				if r.Structured.Status != matrix.StatusValid || !r.Structured.Present {
					t.Errorf("%s: structuredContent %+v, want present and valid", r.Profile, r.Structured)
				}
				if r.Elicitations != 0 {
					t.Errorf("%s: %d elicitations, want none", r.Profile, r.Elicitations)
				}
				if r.Protocol != tt.wantProtocol {
					t.Errorf("%s: protocol %q, want %q", r.Profile, r.Protocol, tt.wantProtocol)
				}
				if r.Error != "" || len(r.Warnings) > 0 {
					t.Errorf("%s: error %q, warnings %q", r.Profile, r.Error, r.Warnings)
				}
			}
			if term, undeclared := byName["terminal"], byName["undeclared"]; term.TextBytes >= undeclared.TextBytes || term.Tokens >= undeclared.Tokens {
				t.Errorf("terminal text %d bytes / %d tokens, undeclared %d / %d: want the terminal's smaller",
					term.TextBytes, term.Tokens, undeclared.TextBytes, undeclared.Tokens)
			}
		})
	}
}

func TestOutputGolden(t *testing.T) {
	tests := []struct {
		give  string // the tool
		args  string
		write func(*bytes.Buffer, *matrix.Matrix) error
		want  string // golden file under testdata
	}{
		{"get_weather", `{"city":"Bern"}`, tableAndTexts, "get_weather.golden"},
		{"get_forecast", `{"city":"Bern","days":3}`, tableAndTexts, "get_forecast.golden"},
		{"get_weather", `{"city":"Bern"}`, func(b *bytes.Buffer, m *matrix.Matrix) error { return matrix.WriteJSON(b, m) }, "get_weather.json.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			m, err := matrix.Run(testContext(t), inMemory(t, weatherServer()), matrix.Options{
				Tool: tt.give, Arguments: json.RawMessage(tt.args),
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			var got bytes.Buffer
			if err := tt.write(&got, m); err != nil {
				t.Fatalf("write: %v", err)
			}
			path := filepath.Join("testdata", tt.want)
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("output differs from %s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// tableAndTexts writes what the command writes with -show.
func tableAndTexts(b *bytes.Buffer, m *matrix.Matrix) error {
	if err := matrix.WriteTable(b, m); err != nil {
		return err
	}
	return matrix.WriteTexts(b, m)
}

func TestJSONRoundTrips(t *testing.T) {
	m, err := matrix.Run(testContext(t), inMemory(t, weatherServer()), matrix.Options{
		Tool: "get_weather", Arguments: json.RawMessage(`{"city":"Bern"}`),
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var buf bytes.Buffer
	if err := matrix.WriteJSON(&buf, m); err != nil {
		t.Fatal(err)
	}
	var back matrix.Matrix
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("the JSON does not decode: %v", err)
	}
	var args bytes.Buffer
	if err := json.Compact(&args, back.Arguments); err != nil {
		t.Fatal(err)
	}
	back.Arguments = args.Bytes()
	if diff := cmp.Diff(m, &back); diff != "" {
		t.Errorf("the JSON loses something (-ran +decoded):\n%s", diff)
	}
	var generic map[string]any
	_ = json.Unmarshal(buf.Bytes(), &generic)
	rows, _ := generic["profiles"].([]any)
	if len(rows) != 4 {
		t.Fatalf("%d profiles in the JSON, want 4", len(rows))
	}
	if tags := rows[0].(map[string]any)["tags"]; tags != nil {
		t.Errorf("the undeclared profile's tags are %v, want null", tags)
	}
}

func TestRunKeepsGoingAfterAFailure(t *testing.T) {
	server := weatherServer()
	inProcess := inMemory(t, server)
	dialErr := errors.New("no route")
	dial := func(ctx context.Context, p matrix.Profile) (mcp.Transport, error) {
		if p.Name == "human" {
			return nil, dialErr
		}
		return inProcess(ctx, p)
	}
	m, err := matrix.Run(testContext(t), dial, matrix.Options{Tool: "get_weather", Arguments: json.RawMessage(`{"city":"Bern"}`)})
	if !errors.Is(err, dialErr) {
		t.Fatalf("Run: %v, want an error wrapping %v", err, dialErr)
	}
	if m == nil || len(m.Rows) != 4 || m.Failed() != 1 {
		t.Fatalf("matrix %+v, want 4 rows, 1 failed", m)
	}
	if r := m.Rows[2]; r.Rendering != matrix.RenderFailed || r.Error == "" {
		t.Errorf("the human row: rendering %q, error %q", r.Rendering, r.Error)
	}
	if r := m.Rows[3]; r.Rendering != matrix.RenderText {
		t.Errorf("the profile after the failure: rendering %q, want text", r.Rendering)
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		name string
		give matrix.Options
		want string // in every row's error
	}{
		{"unknown tool", matrix.Options{Tool: "get_wether"}, `no tool named "get_wether" (it has `},
		{"unknown tool, names listed", matrix.Options{Tool: "get_wether"}, `get_weather`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.give.Profiles = matrix.Presets()[:2]
			m, err := matrix.Run(testContext(t), inMemory(t, weatherServer()), tt.give)
			if err == nil {
				t.Fatal("Run succeeded")
			}
			for _, r := range m.Rows {
				if !bytes.Contains([]byte(r.Error), []byte(tt.want)) {
					t.Errorf("%s: error %q, want it to contain %q", r.Profile, r.Error, tt.want)
				}
			}
		})
	}
}

func TestRunTimesOut(t *testing.T) {
	// A server that reads every request and answers none.
	dials := 0
	hang := func(ctx context.Context, _ matrix.Profile) (mcp.Transport, error) {
		dials++
		serverT, clientT := mcp.NewInMemoryTransports()
		conn, err := serverT.Connect(ctx)
		if err != nil {
			return nil, err
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				if _, err := conn.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		t.Cleanup(func() { _ = conn.Close(); <-done })
		return clientT, nil
	}
	m, err := matrix.Run(testContext(t), hang, matrix.Options{Tool: "x", Timeout: 100 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, matrix.ErrStopped) {
		t.Errorf("Run: %v, want a deadline error that stopped the run", err)
	}
	// The timeout is not waited for again for each of the four profiles.
	if dials != 1 || len(m.Rows) != 1 || m.Failed() != 1 {
		t.Errorf("%d dials, %d rows, %d failed; want the run stopped at the first", dials, len(m.Rows), m.Failed())
	}
}

func TestRunTimeoutIsPerRequest(t *testing.T) {
	// A tool that answers after its client's deadline, for the human
	// profile only: the profiles before it get their results, the run stops
	// there, and the one after it is not run.
	calls := make(map[string]int)
	var mu sync.Mutex
	server := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "t", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			human := strings.Contains(fmt.Sprint(req.Session.InitializeParams().Capabilities.Extensions), "human")
			mu.Lock()
			calls[fmt.Sprint(human)]++
			mu.Unlock()
			if human {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	m, err := matrix.Run(testContext(t), inMemory(t, server), matrix.Options{Tool: "t", Legacy: true, Timeout: 200 * time.Millisecond})
	if !errors.Is(err, matrix.ErrStopped) {
		t.Fatalf("Run: %v, want it stopped", err)
	}
	got := make([]string, 0, len(m.Rows))
	for _, r := range m.Rows {
		got = append(got, r.Profile+" "+string(r.Rendering))
	}
	if diff := cmp.Diff([]string{"undeclared text", "agent text", "human failed"}, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	mu.Lock()
	slow := calls["true"]
	mu.Unlock()
	if slow != 1 {
		t.Errorf("the slow call was made %d times, want once", slow)
	}
}

func TestRunStopsWhenTheServerCannotBeReached(t *testing.T) {
	tests := []struct {
		name     string
		giveDial func(inProcess matrix.Dial) matrix.Dial
		give     matrix.Options
		wantErr  string
	}{
		{"dial fails", func(matrix.Dial) matrix.Dial {
			return func(context.Context, matrix.Profile) (mcp.Transport, error) { return nil, errors.New("no route") }
		}, matrix.Options{Tool: "get_weather"}, "no route"},
		{"the tool is missing", func(d matrix.Dial) matrix.Dial { return d }, matrix.Options{Tool: "get_wether"}, `no tool named "get_wether"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dials := 0
			inner := tt.giveDial(inMemory(t, weatherServer()))
			dial := func(ctx context.Context, p matrix.Profile) (mcp.Transport, error) {
				dials++
				return inner(ctx, p)
			}
			m, err := matrix.Run(testContext(t), dial, tt.give)
			if !errors.Is(err, matrix.ErrStopped) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Run: %v, want it stopped, with %q", err, tt.wantErr)
			}
			if dials != 1 || m == nil || len(m.Rows) != 1 {
				t.Errorf("%d dials, matrix %+v; want one dial and one row", dials, m)
			}
		})
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	dial := inMemory(t, weatherServer())
	tests := []struct {
		name     string
		giveDial matrix.Dial
		give     matrix.Options
	}{
		{"no dial", nil, matrix.Options{Tool: "get_weather"}},
		{"no tool", dial, matrix.Options{}},
		{"blank tool", dial, matrix.Options{Tool: "  "}},
		{"arguments not an object", dial, matrix.Options{Tool: "get_weather", Arguments: json.RawMessage(`["Bern"]`)}},
		{"arguments null", dial, matrix.Options{Tool: "get_weather", Arguments: json.RawMessage(`null`)}},
		{"arguments not JSON", dial, matrix.Options{Tool: "get_weather", Arguments: json.RawMessage(`{city:Bern}`)}},
		{"no profiles", dial, matrix.Options{Tool: "get_weather", Profiles: []matrix.Profile{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := matrix.Run(testContext(t), tt.giveDial, tt.give)
			if !errors.Is(err, matrix.ErrOptions) || m != nil {
				t.Errorf("Run: %v, %v; want nil and an error wrapping ErrOptions", m, err)
			}
		})
	}
}

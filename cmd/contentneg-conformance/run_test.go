package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// runCommand runs the command with args and a deadline.
func runCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	var out, errOut servetest.SyncBuffer
	code = run(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// noon is the fixed clock of the weather server: 2026-11-20 13:00 UTC.
func noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

// serveHTTP serves server over streamable HTTP until the test ends.
func serveHTTP(t *testing.T, server *mcp.Server, stateless bool) string {
	t.Helper()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: stateless}))
	t.Cleanup(func() {
		for ss := range server.Sessions() {
			_ = ss.Close()
		}
		ts.Close()
	})
	return ts.URL
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name    string
		give    []string
		want    int
		wantMsg string
	}{
		{"help", []string{"-h"}, exitOK, "Usage:"},
		{"nothing", nil, exitUsage, "give the server"},
		{"no tool", []string{"-url", "http://127.0.0.1:1/mcp"}, exitUsage, "-tool is required"},
		{"command and url", []string{"-command", "demo -stdio", "-url", "http://127.0.0.1:1/mcp", "-tool", "t"}, exitUsage, "not both"},
		{"command twice", []string{"-command", "demo", "-tool", "t", "--", "demo"}, exitUsage, "not both"},
		{"arguments not an object", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-args", "[1]"}, exitUsage, "-args must be a JSON object"},
		{"url without scheme", []string{"-url", "127.0.0.1:1/mcp", "-tool", "t"}, exitUsage, "-url must be"},
		{"unknown era", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-era", "2024"}, exitUsage, "-era must be"},
		{"zero timeout", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-timeout", "0s"}, exitUsage, "-timeout must be positive"},
		{"unterminated quote", []string{"-command", "demo 'x", "-tool", "t"}, exitUsage, "unterminated"},
		{"unknown flag", []string{"-nope"}, exitUsage, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCommand(t, tt.give...)
			if code != tt.want || !strings.Contains(stderr, tt.wantMsg) || stdout != "" {
				t.Errorf("exit code %d (want %d), stdout %q, stderr:\n%s\nwant it to contain %q", code, tt.want, stdout, stderr, tt.wantMsg)
			}
		})
	}
}

func TestAServerThatCannotBeChecked(t *testing.T) {
	tests := []struct {
		name    string
		give    []string
		wantMsg string
	}{
		{"no such command", []string{"-command", filepath.Join(t.TempDir(), "nonexistent")}, "start the server"},
		{"nothing listens", []string{"-url", "http://127.0.0.1:1/mcp", "-timeout", "5s"}, "connect"},
		{"no such tool", []string{"-url", serveHTTP(t, weathermcp.NewServer(weather.NewService(noon)), true)}, `no tool named "t"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCommand(t, append([]string{"-q", "-tool", "t"}, tt.give...)...)
			if code != exitNoServer || stdout != "" {
				t.Errorf("exit code %d, stdout %q; want %d and nothing", code, stdout, exitNoServer)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.wantMsg) {
				t.Errorf("stderr, want one line with %q:\n%s", tt.wantMsg, stderr)
			}
		})
	}
}

func TestVerdicts(t *testing.T) {
	negotiating := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(negotiating, &middleware.Options{Tools: weathermcp.Tools()})
	plain := weathermcp.NewServer(weather.NewService(noon)) // does not advertise the extension
	tests := []struct {
		name     string
		give     []string
		want     int
		wantText []string // in stdout
	}{
		{"negotiating, table", []string{"-url", serveHTTP(t, negotiating, false)}, exitOK,
			[]string{"lists/tools ", "MUST ", "pass ", "§3", "every MUST holds"}},
		{"negotiating, stateless era only", []string{"-url", serveHTTP(t, negotiating, true), "-era", "stateless"}, exitOK,
			[]string{"2026-07-28  2026-07-28  advertised"}},
		{"plain server", []string{"-url", serveHTTP(t, plain, false)}, exitMustFails,
			[]string{"advertised ", "FAIL", "a MUST fails"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCommand(t, append([]string{"-tool", "get_forecast", "-args", `{"city":"Bern","days":2}`}, tt.give...)...)
			if code != tt.want {
				t.Errorf("exit code %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.want, stdout, stderr)
			}
			for _, want := range tt.wantText {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, "] 1/") {
				t.Errorf("stderr has no progress:\n%s", stderr)
			}
		})
	}
}

func TestJSONReport(t *testing.T) {
	server := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(server, &middleware.Options{Tools: weathermcp.Tools()})
	code, stdout, stderr := runCommand(t, "-q", "-json", "-url", serveHTTP(t, server, false), "-tool", "get_weather", "-args", `{"city":"Bern"}`)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	var doc struct {
		OK      bool            `json:"ok"`
		Tool    string          `json:"tool"`
		Args    json.RawMessage `json:"arguments"`
		Results []struct {
			Name, Clause, Level, Era, Protocol, Status, Detail string
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	var args bytes.Buffer
	_ = json.Compact(&args, doc.Args)
	if !doc.OK || doc.Tool != "get_weather" || args.String() != `{"city":"Bern"}` || len(doc.Results) < 40 {
		t.Errorf("report: ok %v, tool %q, args %s, %d results", doc.OK, doc.Tool, doc.Args, len(doc.Results))
	}
	for _, r := range doc.Results {
		if r.Name == "" || r.Clause == "" || (r.Level != "MUST" && r.Level != "SHOULD") || r.Status == "" || r.Era == "" {
			t.Errorf("incomplete result %+v", r)
		}
	}
}

func TestTheBuiltCommandAgainstTheBuiltDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two commands")
	}
	dir := t.TempDir()
	for _, pkg := range []string{"./cmd/demo-weather", "./cmd/contentneg-conformance"} {
		build := exec.CommandContext(t.Context(), "go", "build", "-o", dir, pkg)
		build.Dir = "../.."
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	cmd := exec.CommandContext(t.Context(), filepath.Join(dir, "contentneg-conformance"), "-q",
		"-command", filepath.Join(dir, "demo-weather")+" -stdio", "-tool", "get_forecast", "-args", `{"city":"Bern","days":2}`)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v; stdout:\n%s", err, out)
	}
	if !strings.Contains(string(out), "every MUST holds") {
		t.Errorf("stdout:\n%s", out)
	}
	if stderr.Len() > 0 {
		t.Errorf("-q, and stderr holds (the server's log, presumably):\n%s", stderr.String())
	}
}

func TestTheCommandDoesNotLinkTesting(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "testing" || strings.HasSuffix(pkg, "test") && strings.HasPrefix(pkg, "github.com/contentneg/") {
			t.Errorf("the command links %s", pkg)
		}
	}
}

// TestWarnsWhenAnEraCannotBeChecked: legacy-era clients of a server without
// sessions cannot negotiate; the command warns on stderr, even with -q, and
// not when the era was checked.
func TestWarnsWhenAnEraCannotBeChecked(t *testing.T) {
	tests := []struct {
		name      string
		stateless bool
		era       string
		warn      bool
	}{
		{"stateless server, legacy era", true, "legacy", true},
		{"stateless server, stateless era", true, "stateless", false},
		{"server with sessions, legacy era", false, "legacy", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := weathermcp.NewServer(weather.NewService(noon))
			middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
			code, _, stderr := runCommand(t, "-q", "-url", serveHTTP(t, s, tt.stateless), "-tool", "get_weather", "-args", `{"city":"Bern"}`, "-era", tt.era)
			if code != exitOK {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			if got := strings.Contains(stderr, "warning: ") && strings.Contains(stderr, "negotiation is impossible"); got != tt.warn {
				t.Errorf("warned %v, want %v; stderr:\n%s", got, tt.warn, stderr)
			}
		})
	}
}

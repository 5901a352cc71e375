package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/internal/matrix"
	"github.com/contentneg/contentneg/middleware"
)

func TestUsageErrors(t *testing.T) {
	profiles := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(profiles, []byte("- agent\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		give    []string
		want    int
		wantMsg string // on stderr
	}{
		{"help", []string{"-h"}, 0, "Usage:"},
		{"nothing", nil, 2, "give the server"},
		{"no tool", []string{"-url", "http://127.0.0.1:1/mcp"}, 2, "-tool is required"},
		{"command and url", []string{"-command", "demo -stdio", "-url", "http://127.0.0.1:1/mcp", "-tool", "t"}, 2, "not both"},
		{"command twice", []string{"-command", "demo -stdio", "-tool", "t", "--", "demo", "-stdio"}, 2, "not both"},
		{"url and a command after --", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "--", "demo"}, 2, "not both"},
		{"arguments an array", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-args", `["Bern"]`}, 2, "-args must be a JSON object"},
		{"arguments null", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-args", "null"}, 2, "-args must be a JSON object"},
		{"arguments not JSON", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-args", "{city: Bern}"}, 2, "-args must be a JSON object"},
		{"url without scheme", []string{"-url", "127.0.0.1:8080/mcp", "-tool", "t"}, 2, "-url must be an http or https URL"},
		{"url of another scheme", []string{"-url", "ftp://example.com/mcp", "-tool", "t"}, 2, "-url must be"},
		{"unterminated quote", []string{"-command", "demo 'stdio", "-tool", "t"}, 2, "unterminated"},
		{"zero timeout", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-timeout", "0s"}, 2, "-timeout must be positive"},
		{"unknown flag", []string{"-nope"}, 2, "flag provided but not defined"},
		{"bad profiles file", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-profiles", profiles}, 2, "not a map"},
		{"missing profiles file", []string{"-url", "http://127.0.0.1:1/mcp", "-tool", "t", "-profiles", filepath.Join(filepath.Dir(profiles), "missing.yaml")}, 2, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCommand(t, tt.give...)
			if code != tt.want {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.want, stderr)
			}
			if !strings.Contains(stderr, tt.wantMsg) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantMsg, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %q, want nothing", stdout)
			}
		})
	}
}

// noon is the fixed clock of the in-process servers: 2026-11-20 13:00 UTC.
func noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

// httpServer serves the negotiating weather demo over streamable HTTP,
// with sessions (the legacy protocol) or stateless (the 2026 protocol).
func httpServer(t *testing.T, stateless bool) string {
	t.Helper()
	server := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(server, &middleware.Options{Tools: weathermcp.Tools()})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestAgainstAStreamableHTTPServer(t *testing.T) {
	tests := []struct {
		name          string
		giveStateless bool // the server's mode
		give          []string
		wantProtocol  string
	}{
		{"stateless server", true, nil, "2026-07-28"},
		{"server with sessions", false, nil, matrix.LegacyProtocol}, // the client falls back
		{"server with sessions, -legacy", false, []string{"-legacy"}, matrix.LegacyProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-url", httpServer(t, tt.giveStateless), "-tool", "get_weather", "-args", `{"city":"Bern"}`, "-json"}, tt.give...)
			code, stdout, stderr := runCommand(t, args...)
			if code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			var m matrix.Matrix
			if err := json.Unmarshal([]byte(stdout), &m); err != nil {
				t.Fatalf("stdout is not the JSON matrix: %v\n%s", err, stdout)
			}
			want := map[string]matrix.Rendering{"undeclared": matrix.RenderJSONMirror, "agent": matrix.RenderStructured, "human": matrix.RenderMarkdown, "terminal": matrix.RenderText}
			if len(m.Rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(m.Rows), len(want))
			}
			for _, r := range m.Rows {
				if r.Rendering != want[r.Profile] || r.Protocol != tt.wantProtocol || r.Structured.Status != matrix.StatusValid {
					t.Errorf("%s: rendering %q, protocol %q, structuredContent %s", r.Profile, r.Rendering, r.Protocol, r.Structured)
				}
			}
			for i, name := range []string{"undeclared", "agent", "human", "terminal"} {
				if line := "[" + string(rune('1'+i)) + "/4] " + name + " ...\n"; !strings.Contains(stderr, line) {
					t.Errorf("stderr lacks the progress line %q:\n%s", line, stderr)
				}
			}
		})
	}
}

func TestQuietTableWithTexts(t *testing.T) {
	code, stdout, stderr := runCommand(t, "-url", httpServer(t, true), "-tool", "get_forecast", "-args", `{"city":"Bern","days":3}`, "-show", "-q")
	if code != 0 || stderr != "" {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"profile ", "structuredContent", "json (mirror)", "markdown", "text",
		"---- human: markdown, 1 text block", "| 2026-11-20 |",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

func TestAServerThatCannotStart(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	starts := filepath.Join(t.TempDir(), "starts")
	tests := []struct {
		name       string
		give       []string
		wantStderr []string
	}{
		{"it exits", []string{"--", "sh", "-c", "echo started >> " + starts + "; echo 'cannot open the timetable' >&2; exit 3"},
			[]string{`stopped after profile "undeclared": connect: `, "the server's stderr ended with:\n    | cannot open the timetable\n"}},
		{"no such command", []string{"-command", filepath.Join(t.TempDir(), "nonexistent") + " -stdio"},
			[]string{`stopped after profile "undeclared": connect: `, "no such file or directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_ = os.Remove(starts)
			code, stdout, stderr := runCommand(t, append([]string{"-q", "-tool", "get_weather", "-timeout", "10s"}, tt.give...)...)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing: no profile got a result", stdout)
			}
			if !strings.HasPrefix(stderr, "profile-matrix: ") || strings.Count(stderr, "profile-matrix: ") != 1 {
				t.Errorf("stderr does not say it once:\n%s", stderr)
			}
			for _, want := range tt.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if data, err := os.ReadFile(starts); err == nil && strings.Count(string(data), "started") != 1 {
				t.Errorf("the server was started %d times, want once", strings.Count(string(data), "started"))
			}
		})
	}
}

func TestAnErrorIsPrintedOnce(t *testing.T) {
	// A server whose tool fails with a protocol error for human profiles:
	// the other profiles still get their rows.
	server := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(server, &middleware.Options{Tools: weathermcp.Tools()})
	const failure = "the human renderer is out of order"
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.CallToolRequest); ok && strings.Contains(fmt.Sprint(r.ClientCapabilities()), "human") {
				return nil, errors.New(failure)
			}
			return next(ctx, method, req)
		}
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	for _, format := range [][]string{nil, {"-json"}, {"-show"}} {
		t.Run(fmt.Sprint(format), func(t *testing.T) {
			code, stdout, stderr := runCommand(t, append([]string{"-q", "-url", ts.URL, "-tool", "get_weather", "-args", `{"city":"Bern"}`}, format...)...)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if n := strings.Count(stdout+stderr, failure); n != 1 {
				t.Errorf("the error is printed %d times, want once; stdout:\n%s\nstderr:\n%s", n, stdout, stderr)
			}
			if !strings.Contains(stderr, "1 of 4 profiles failed") {
				t.Errorf("stderr:\n%s", stderr)
			}
			if !strings.Contains(stdout, "terminal") {
				t.Errorf("stdout lacks the profile after the failure:\n%s", stdout)
			}
		})
	}
}

func TestAgainstTheBuiltDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/demo-weather")
	}
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo-weather")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", demo, "github.com/contentneg/contentneg/cmd/demo-weather")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	profiles := filepath.Join(dir, "profiles.yaml")
	if err := os.WriteFile(profiles, []byte("batch: [agent, \"!interactive\", format=text]\nchat: [human]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		give []string
		want []string // in stdout
	}{
		{"-command", []string{"-command", demo + " -stdio", "-tool", "get_weather", "-args", `{"city":"Bern"}`},
			[]string{"undeclared", "json (mirror)", "markdown", "2026-07-28"}},
		{"after --, legacy, profiles file", []string{"-legacy", "-profiles", profiles, "-tool", "get_forecast", "-args", `{"city":"Bern","days":2}`, "--", demo, "-stdio"},
			[]string{"batch ", "agent, !interactive, format=text", "chat ", "markdown", "2025-11-25"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCommand(t, append([]string{"-q"}, tt.give...)...)
			if code != 0 {
				t.Fatalf("exit code %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
}

// TestWarnsWhenNegotiationIsImpossible: a stateless server with legacy-era
// clients gives every profile the same result; the command says so, and
// says nothing when the profiles differ.
func TestWarnsWhenNegotiationIsImpossible(t *testing.T) {
	tests := []struct {
		name      string
		stateless bool
		give      []string
		warn      bool
	}{
		{"stateless server, legacy clients", true, []string{"-legacy"}, true},
		{"stateless server, stateless clients", true, nil, false},
		{"server with sessions, legacy clients", false, []string{"-legacy"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-q", "-url", httpServer(t, tt.stateless), "-tool", "get_weather", "-args", `{"city":"Bern"}`}, tt.give...)
			code, stdout, stderr := runCommand(t, args...)
			if code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			warned := strings.Contains(stderr, "warning: every profile got the same result")
			if warned != tt.warn {
				t.Errorf("warned %v, want %v; stderr:\n%s\nstdout:\n%s", warned, tt.warn, stderr, stdout)
			}
			if tt.warn && !strings.Contains(stderr, "without -legacy") {
				t.Errorf("the warning does not say what to do:\n%s", stderr)
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/interopskip"
)

var update = flag.Bool("update", false, "write the plain servers' pass lists to testdata/")

const (
	// extensionID is the key the middleware advertises under
	// capabilities.extensions.
	extensionID = "io.modelcontextprotocol/content-negotiation"
	// suiteDeadline bounds one run of the suite.
	suiteDeadline = 2 * time.Minute
)

// The suite's entry points, as npm ci installs them from package-lock.json.
var (
	suite016 = filepath.Join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	suite020 = filepath.Join("node_modules", "conformance-next", "dist", "index.js")
)

// suiteRun is one way of running the suite.
type suiteRun struct {
	// name names the baseline, testdata/<name>.pass.
	name      string
	entry     string
	args      []string
	stateless bool
}

var runs = []suiteRun{
	{name: "0.1.16-stateful", entry: suite016, args: []string{"--suite", "all"}},
	{name: "0.1.16-stateless", entry: suite016, args: []string{"--suite", "all"}, stateless: true},
	{name: "0.2.0-alpha.12-2026-07-28-stateless", entry: suite020, args: []string{"--suite", "all", "--spec-version", "2026-07-28"}, stateless: true},
}

// TestConformanceSuite runs the official MCP conformance suite's server
// scenarios against the conformance server, plain and with the
// content-negotiation middleware installed. The suite's client declares no
// extension, so the middleware must pass everything through: every scenario
// that passes plain must pass wrapped, and the plain server must pass at
// least the scenarios recorded in testdata/<run>.pass.
func TestConformanceSuite(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not installed (%v); install Node 20 or later, then run npm ci in interop/conformance", err)
	}
	for _, r := range runs {
		if _, err := os.Stat(r.entry); err != nil {
			unavailable(t, "the conformance suite is not installed (%v); run npm ci in interop/conformance", err)
		}
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			plain, plainLog := runSuite(t, node, r, config{stateless: r.stateless})
			wrapped, wrappedLog := runSuite(t, node, r, config{stateless: r.stateless, contentneg: true})
			t.Logf("plain: %d of %d scenarios pass: %s", len(plain.passed()), len(plain), strings.Join(plain.passed(), " "))

			if diff := cmp.Diff(plain.passed(), wrapped.passed()); diff != "" {
				t.Errorf("the scenarios that pass differ with the middleware installed (-plain +wrapped):\n%s", diff)
				t.Logf("the suite against the plain server:\n%s", summary(plainLog))
				t.Logf("the suite against the wrapped server:\n%s", summary(wrappedLog))
			}
			for name, p := range plain {
				if w, ok := wrapped[name]; ok && p != w {
					t.Logf("%s: checks plain %+v, wrapped %+v", name, p, w)
				}
			}

			baseline := filepath.Join("testdata", r.name+".pass")
			if *update {
				if err := os.WriteFile(baseline, []byte(strings.Join(plain.passed(), "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(baseline)
			if err != nil {
				t.Fatalf("read the baseline (go test -run TestConformanceSuite -update writes it): %v", err)
			}
			want := strings.Fields(string(b))
			if missing := without(want, plain.passed()); len(missing) > 0 {
				t.Errorf("the plain server no longer passes %d scenarios of %s: %s", len(missing), baseline, strings.Join(missing, " "))
				t.Logf("the suite against the plain server:\n%s", summary(plainLog))
			}
			if extra := without(plain.passed(), want); len(extra) > 0 {
				t.Logf("the plain server now also passes %s: run go test -run TestConformanceSuite -update to record it", strings.Join(extra, " "))
			}
		})
	}
}

// TestContentNegOption checks that -contentneg installs the middleware,
// which advertises the extension, and that the plain server does not: the
// comparison of TestConformanceSuite means nothing otherwise.
func TestContentNegOption(t *testing.T) {
	tests := []struct {
		name string
		cfg  config
		want bool
	}{
		{"plain", config{}, false},
		{"with content negotiation", config{contentneg: true}, true},
		{"stateless, plain", config{stateless: true}, false},
		{"stateless, with content negotiation", config{stateless: true, contentneg: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := start(t, tt.cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "contentneg-conformance-test", Version: "1.0.0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				t.Fatalf("connect to %s: %v", url, err)
			}
			defer cs.Close()
			_, got := cs.InitializeResult().Capabilities.Extensions[extensionID]
			if got != tt.want {
				t.Errorf("extension %s advertised: %v, want %v (capabilities %+v)", extensionID, got, tt.want, cs.InitializeResult().Capabilities)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
			if err != nil {
				t.Fatalf("call test_simple_text: %v", err)
			}
			if len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "This is a simple text response for testing." {
				t.Errorf("test_simple_text: got %+v", res.Content)
			}
		})
	}
}

func TestRunUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"unknown flag", []string{"-nope"}, 2},
		{"stray argument", []string{"extra"}, 2},
		{"address that cannot be listened on", []string{"-http", "127.0.0.1:-1"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := run(context.Background(), tt.args, &stderr); got != tt.want {
				t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.want, stderr.String())
			}
			if stderr.Len() == 0 {
				t.Errorf("run(%q) said nothing on stderr", tt.args)
			}
		})
	}
}

// start serves the conformance server on a free port of 127.0.0.1 until the
// test ends and returns its URL.
func start(t *testing.T, cfg config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, cfg) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve (%s): %v", cfg, err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// counts are the checks of one scenario, by status.
type counts struct {
	Success, Failure, Warning int
}

// results are the scenarios of one run of the suite.
type results map[string]counts

// passed lists the scenarios without a failed check, sorted.
func (r results) passed() []string {
	var names []string
	for name, c := range r {
		if c.Failure == 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// runSuite runs the suite once against a server served with cfg and returns
// its results and its output.
func runSuite(t *testing.T, node string, r suiteRun, cfg config) (results, string) {
	t.Helper()
	url := start(t, cfg)
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), deadline(t))
	defer cancel()
	args := append([]string{"--import", "./register.mjs", r.entry, "server", "--url", url, "-o", out}, r.args...)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.WaitDelay = 10 * time.Second
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("the suite against the %s server did not finish in time (%v):\n%s", cfg, err, log.String())
	case err != nil && !errors.As(err, &exit):
		t.Fatalf("run the suite: %v", err)
	}
	// The suite exits 1 when a scenario fails: the results decide.
	res, rerr := readResults(out)
	if rerr != nil || len(res) == 0 {
		t.Fatalf("the suite against the %s server left no results (%v; exit %v):\n%s", cfg, rerr, err, log.String())
	}
	if testing.Verbose() {
		t.Logf("the suite against the %s server:\n%s", cfg, summary(log.String()))
	}
	return res, log.String()
}

// resultDir is the name of one scenario's result directory:
// server-<scenario>-<timestamp>.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$`)

// readResults reads the checks.json of every scenario under dir.
func readResults(dir string) (results, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read the results: %w", err)
	}
	res := results{}
	for _, e := range entries {
		m := resultDir.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			return nil, fmt.Errorf("results of %s: %w", m[1], err)
		}
		var checks []struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(b, &checks); err != nil {
			return nil, fmt.Errorf("results of %s: %w", m[1], err)
		}
		if _, dup := res[m[1]]; dup {
			return nil, fmt.Errorf("scenario %s ran twice", m[1])
		}
		var c counts
		for _, check := range checks {
			switch check.Status {
			case "SUCCESS":
				c.Success++
			case "FAILURE", "ERROR":
				c.Failure++
			case "WARNING":
				c.Warning++
			}
		}
		res[m[1]] = c
	}
	return res, nil
}

// summary is the suite's summary block, or all of its output if it has none.
func summary(log string) string {
	if i := strings.Index(log, "=== SUMMARY ==="); i >= 0 {
		return log[i:]
	}
	return log
}

// without returns the elements of a that are not in b.
func without(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// unavailable skips the test, or fails it when CONTENTNEG_REQUIRE_INTEROP=1 (interopskip).
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	interopskip.Unavailable(t, format, args...)
}

func TestMain(m *testing.M) { os.Exit(interopskip.Main(m).Run()) }

// deadline is suiteDeadline, or less if the test binary's own deadline is
// nearer, leaving time to report.
func deadline(t *testing.T) time.Duration {
	d := suiteDeadline
	if end, ok := t.Deadline(); ok {
		if left := time.Until(end) - 15*time.Second; left < d {
			d = max(left, time.Second)
		}
	}
	return d
}

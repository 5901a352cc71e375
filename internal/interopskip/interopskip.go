// Package interopskip is how the interop tests (the TypeScript SDK, the
// conformance suite, the npm servers behind the gateway, the reference TOON
// decoder, headless Chromium) skip when node, an npm install or chromium is
// missing, and how the skips are counted, so that a run that skipped them
// says so in one line instead of a bare "ok":
//
//   - every test binary that skipped some prints, when its tests end, one
//     line: "interop: N tests skipped in PKG: REASON (...)" (shown by
//     go test -v, go test -json and go test in a package's directory; a
//     plain go test ./... shows no output of a package that passed);
//   - with CONTENTNEG_INTEROP_SKIPS naming a file, every skip is appended to
//     it, and go run ./internal/interopskip/skipline FILE prints the one line
//     for the whole run (.ci/run does).
//
// With CONTENTNEG_REQUIRE_INTEROP=1 (.ci/run sets it) a missing tool fails
// the test instead.
package interopskip

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

const (
	// RequireEnv, set to 1, turns every interop skip into a failure.
	RequireEnv = "CONTENTNEG_REQUIRE_INTEROP"
	// LogEnv names a file every interop skip is appended to, one line each:
	// the test binary, a tab, the reason.
	LogEnv = "CONTENTNEG_INTEROP_SKIPS"
)

var skipped struct {
	mu      sync.Mutex
	reasons []string
}

// Unavailable skips t because what it needs is missing (format and args
// say what, and how to install it), or fails it when RequireEnv is 1; the
// skip is counted for the package's line and written to LogEnv's file.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s (%s=1: the interop tests may not be skipped)", msg, RequireEnv)
	}
	skipped.mu.Lock()
	skipped.reasons = append(skipped.reasons, msg)
	skipped.mu.Unlock()
	if file := os.Getenv(LogEnv); file != "" {
		if err := appendLine(file, binary()+"\t"+oneLine(msg)); err != nil {
			t.Errorf("%s: %v", LogEnv, err)
		}
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, RequireEnv)
}

func appendLine(file, line string) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	// One write of a short line: test binaries running at once do not
	// interleave theirs (O_APPEND).
	if _, err := f.WriteString(line + "\n"); err != nil {
		_ = f.Close()
		return fmt.Errorf("write: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// binary names the running test binary ("gateway.test").
func binary() string { return filepath.Base(os.Args[0]) }

// Main wraps m: its Run runs the tests, then prints the package's one line
// when some interop tests skipped. Use it as os.Exit(interopskip.Main(m).Run())
// or goleak.VerifyTestMain(interopskip.Main(m)).
func Main(m *testing.M) interface{ Run() int } { return wrapped{m} }

type wrapped struct{ m *testing.M }

func (x wrapped) Run() int {
	code := x.m.Run()
	skipped.mu.Lock()
	reasons := skipped.reasons
	skipped.mu.Unlock()
	if len(reasons) > 0 {
		fmt.Println(Line(len(reasons), []string{binary()}, reasons))
	}
	return code
}

// Line is the one line that says how many interop tests skipped, in which
// test binaries, and why: the most frequent reason, and how many others.
func Line(n int, binaries, reasons []string) string {
	if n == 0 {
		return "interop: no test skipped"
	}
	count := map[string]int{}
	for _, r := range reasons {
		count[oneLine(r)]++
	}
	distinct := make([]string, 0, len(count))
	for r := range count {
		distinct = append(distinct, r)
	}
	sort.Slice(distinct, func(i, j int) bool {
		if count[distinct[i]] != count[distinct[j]] {
			return count[distinct[i]] > count[distinct[j]]
		}
		return distinct[i] < distinct[j]
	})
	bins := slicesCompact(binaries)
	why := distinct[0]
	if others := len(distinct) - 1; others > 0 {
		why += fmt.Sprintf("; and %d other %s", others, plural(others, "reason", "reasons"))
	}
	return fmt.Sprintf("interop: %d %s skipped (%s): %s (%s=1 fails them instead)", n, plural(n, "test", "tests"), strings.Join(bins, ", "), why, RequireEnv)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// slicesCompact returns the distinct names, sorted.
func slicesCompact(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

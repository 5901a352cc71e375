package typescript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	// modulePath identifies the module root when looking for it upwards.
	modulePath = "github.com/contentneg/contentneg"
	// requireEnv, set to 1, turns every skip of this package into a failure.
	requireEnv = "CONTENTNEG_REQUIRE_INTEROP"
	// binEnv names the demo binary for the node tests.
	binEnv = "DEMO_WEATHER_BIN"
	// sdkEnv chooses the SDK the demo binary serves on.
	sdkEnv = "CONTENTNEG_SDK"
	// nodeDeadline bounds the build and the whole node run.
	nodeDeadline = 3 * time.Minute
)

// TestTypeScriptSDKClient builds the demo and runs the TypeScript SDK
// client tests against it with node --test.
func TestTypeScriptSDKClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not installed (%v); install Node 20 or later, then run npm ci in interop/typescript", err)
	}
	for _, pkg := range []string{"sdk", "client"} {
		if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", pkg, "package.json")); err != nil {
			unavailable(t, "the TypeScript SDK (@modelcontextprotocol/%s) is not installed (%v); run npm ci in interop/typescript", pkg, err)
		}
	}

	limit := deadline(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()

	bin := buildDemo(ctx, t)

	// The same binary serves on either SDK; CONTENTNEG_SDK picks one (both
	// when it is unset).
	sdks := []string{"go-sdk", "mcp-go"}
	if sdk := os.Getenv(sdkEnv); sdk != "" {
		sdks = []string{sdk}
	}
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) { runNode(ctx, t, node, bin, sdk, limit) })
	}
}

// runNode runs the node tests against the demo binary on one SDK.
func runNode(ctx context.Context, t *testing.T, node, bin, sdk string, limit time.Duration) {
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec")
	cmd.Env = append(os.Environ(), binEnv+"="+bin, sdkEnv+"="+sdk, "NO_COLOR=1")
	// node, and every demo it spawns, in a process group of their own:
	// on timeout the whole group is killed.
	startGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 10 * time.Second

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		_ = r.Close()
		_ = w.Close()
		t.Fatalf("start node: %v", err)
	}
	_ = w.Close() // node and its children hold the write end now

	// The suites that must have run: node --test finds the files itself, so
	// a suite that was not found would otherwise pass unnoticed.
	suites := map[string]bool{}
	for _, s := range requiredSuites {
		suites[s] = false
	}
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		lines := bufio.NewScanner(r)
		lines.Buffer(make([]byte, 0, 64*1024), 1024*1024)
		for lines.Scan() {
			line := lines.Text()
			for s := range suites {
				if strings.Contains(line, s) {
					suites[s] = true
				}
			}
			t.Log(line)
		}
	}()

	err = cmd.Wait()
	// A demo left behind by node would keep the pipe open: end the group.
	_ = killGroup(cmd)
	select {
	case <-logged:
	case <-time.After(10 * time.Second):
		t.Error("node's output did not end 10 s after node exited")
	}
	_ = r.Close()
	<-logged

	switch {
	case ctx.Err() != nil:
		t.Fatalf("go build and node --test did not finish within %v; node's process group was killed (%v)", limit, err)
	case err != nil:
		t.Fatalf("node --test failed (%v); the failing assertions are in the log above", err)
	}
	for _, s := range requiredSuites {
		if !suites[s] {
			t.Errorf("node --test did not run the suite %q", s)
		}
	}
}

// requiredSuites are the names of the node test suites, as the spec
// reporter prints them, that every run must include.
var requiredSuites = []string{
	"TypeScript SDK client over stdio",
	"TypeScript SDK client over streamable HTTP, stateful",
	"TypeScript SDK client over streamable HTTP, stateless",
	"TypeScript SDK v2 client, pinned to 2026-07-28, over stdio",
	"TypeScript SDK v2 client, pinned to 2026-07-28, over streamable HTTP, stateless",
}

// unavailable skips the test, or fails it when requireEnv is set.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf("%s (%s=1: the TypeScript interop tests may not be skipped)", msg, requireEnv)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, requireEnv)
}

// deadline is nodeDeadline, or less if the test binary's own deadline is
// nearer, leaving time to report.
func deadline(t *testing.T) time.Duration {
	d := nodeDeadline
	if end, ok := t.Deadline(); ok {
		if left := time.Until(end) - 15*time.Second; left < d {
			d = max(left, time.Second)
		}
	}
	return d
}

// buildDemo builds cmd/demo-weather into a temporary directory and returns
// the binary's path.
func buildDemo(ctx context.Context, t *testing.T) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "demo-weather")
	if exe := executableSuffix(); exe != "" {
		bin += exe
	}
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin, "./cmd/demo-weather")
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build ./cmd/demo-weather in %s: %v\n%s", root, err, out.String())
	}
	return bin
}

// moduleRoot finds the directory of this module's go.mod, upwards from the
// working directory (the package's directory under go test).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module "+modulePath+"\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of " + modulePath + " above the working directory")
		}
		dir = parent
	}
}

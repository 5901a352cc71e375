package typescript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/interopskip"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(interopskip.Main(m)) }

const (
	// modulePath identifies the module root when looking for it upwards.
	modulePath = "github.com/contentneg/contentneg"
	// binEnv names the demo binary for the node tests.
	binEnv = "DEMO_WEATHER_BIN"
	// gatewayEnv names the gateway binary for gateway-downstream.mjs.
	gatewayEnv = "CONTENTNEG_GATEWAY_BIN"
	// serversEnv names interop/servers/node_modules/.bin for it.
	serversEnv = "CONTENTNEG_SERVERS_BIN"
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

	bin := build(ctx, t, "./cmd/demo-weather", "demo-weather")

	// The same binary serves on either SDK; CONTENTNEG_SDK picks one (both
	// when it is unset).
	sdks := []string{"go-sdk", "mcp-go"}
	if sdk := os.Getenv(sdkEnv); sdk != "" {
		sdks = []string{sdk}
	}
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			runNode(ctx, t, node, nil, []string{binEnv + "=" + bin, sdkEnv + "=" + sdk}, requiredSuites, limit)
		})
	}
}

// TestGatewayDownstream builds the gateway, cmd/contentneg, and runs
// gateway-downstream.mjs with node --test: the TypeScript SDK v1 and v2
// clients connect to the gateway in front of the pinned npm reference
// servers (interop/servers), and to those servers directly.
func TestGatewayDownstream(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not installed (%v); install Node 20 or later, then run npm ci in interop/typescript and interop/servers", err)
	}
	for _, pkg := range []string{"sdk", "client"} {
		if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", pkg, "package.json")); err != nil {
			unavailable(t, "the TypeScript SDK (@modelcontextprotocol/%s) is not installed (%v); run npm ci in interop/typescript", pkg, err)
		}
	}
	servers, err := filepath.Abs(filepath.Join("..", "servers", "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bin := range []string{"mcp-server-memory", "mcp-server-everything"} {
		if _, err := os.Stat(filepath.Join(servers, bin)); err != nil {
			unavailable(t, "the npm server %s is not installed (%v); run npm ci in interop/servers", bin, err)
		}
	}

	limit := deadline(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()

	gateway := build(ctx, t, "./cmd/contentneg", "contentneg")
	runNode(ctx, t, node, []string{"gateway-downstream.mjs"},
		[]string{gatewayEnv + "=" + gateway, serversEnv + "=" + servers}, gatewaySuites, limit)
}

// gatewaySuites are the suites of gateway-downstream.mjs, as the spec
// reporter prints them.
var gatewaySuites = []string{
	"The gateway to a TypeScript SDK v1 client, over stdio",
	"The gateway to a TypeScript SDK v1 client, over streamable HTTP, stateful",
	"The gateway to a TypeScript SDK v2 client, negotiating its era, over stdio",
	"The gateway to a TypeScript SDK v2 client, negotiating its era, over streamable HTTP, stateful",
	"The gateway to a TypeScript SDK v2 client, negotiating its era, over streamable HTTP, stateless",
}

// runNode runs node --test on files (every test file node finds when there
// are none) with env added to the environment, and fails unless each of
// suites ran.
func runNode(ctx context.Context, t *testing.T, node string, files, env, suites []string, limit time.Duration) {
	cmd := exec.CommandContext(ctx, node, append([]string{"--test", "--test-reporter=spec"}, files...)...)
	cmd.Env = append(append(os.Environ(), env...), "NO_COLOR=1")
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
	ran := map[string]bool{}
	for _, s := range suites {
		ran[s] = false
	}
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		lines := bufio.NewScanner(r)
		lines.Buffer(make([]byte, 0, 64*1024), 1024*1024)
		for lines.Scan() {
			line := lines.Text()
			for s := range ran {
				if strings.Contains(line, s) {
					ran[s] = true
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
	for _, s := range suites {
		if !ran[s] {
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

// unavailable skips the test, or fails it when CONTENTNEG_REQUIRE_INTEROP=1 (interopskip).
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	interopskip.Unavailable(t, format, args...)
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

// build builds the command pkg (a path from the module root) into a
// temporary directory as name and returns the binary's path.
func build(ctx context.Context, t *testing.T, pkg, name string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), name)
	if exe := executableSuffix(); exe != "" {
		bin += exe
	}
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin, pkg)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build %s in %s: %v\n%s", pkg, root, err, out.String())
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

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/hostileup"
	"github.com/contentneg/contentneg/internal/interopskip"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/shaping"
)

const (
	// runAsGateway, set in the environment to a JSON list of arguments,
	// makes the test binary run the command's main: a real process to send
	// SIGTERM to.
	runAsGateway = "CONTENTNEG_RUN_AS_GATEWAY"
	// testTimeout bounds each test's exchanges.
	testTimeout = time.Minute
)

func TestMain(m *testing.M) {
	if os.Getenv(hostileup.Env) == "1" {
		hostileup.Serve(os.Stdin, os.Stdout)
		return
	}
	if os.Getenv(runAsUpstream) != "" {
		if err := serveGoUpstream(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if args := os.Getenv(runAsGateway); args != "" {
		var list []string
		if err := json.Unmarshal([]byte(args), &list); err != nil {
			panic(err)
		}
		os.Args = append([]string{name}, list...)
		main()
		return
	}
	os.Exit(interopskip.Main(m).Run())
}

// everything returns the command line of the npm everything server, or
// skips (fails when required) without node or the installed servers.
func everything(t testing.TB) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not installed (%v); install Node 20 or later, then run npm ci in interop/servers", err)
	}
	bin, err := filepath.Abs(filepath.Join("..", "..", "interop", "servers", "node_modules", ".bin", "mcp-server-everything"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		unavailable(t, "the npm everything server is not installed (%v); run npm ci in interop/servers", err)
	}
	return []string{node, bin, "stdio"}
}

func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	interopskip.Unavailable(t, format, args...)
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no upstream", args: nil, want: "no upstream"},
		{name: "both upstreams", args: []string{"-upstream", "http://127.0.0.1:1/mcp", "--", "node", "server.js"}, want: "not both"},
		{name: "stateless without http", args: []string{"-stateless", "--", "node"}, want: "-stateless needs -http"},
		{name: "zero call timeout", args: []string{"-call-timeout", "0s", "--", "node"}, want: "positive duration"},
		{name: "negative idle", args: []string{"-session-idle", "-1s", "--", "node"}, want: "0 or more"},
		{name: "unknown flag", args: []string{"-nope", "--", "node"}, want: "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := run(context.Background(), tt.args, strings.NewReader(""), io.Discard, &stderr); code != 2 {
				t.Errorf("exit code %d, want 2 (stderr: %s)", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tt.want)
			}
		})
	}
}

// TestBadDefaultTags: default tags the server cannot serve are a start-up
// error naming them, exit code 1, before the upstream starts.
func TestBadDefaultTags(t *testing.T) {
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"-default", "human, format=xml", "--", "/nonexistent/mcp-server"}, strings.NewReader(""), io.Discard, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "xml") || strings.Contains(stderr.String(), "nonexistent") {
		t.Errorf("exit code %d, stderr %q; want 1 and format=xml named, before the upstream", code, stderr.String())
	}
}

// TestUpstreamThatCannotStart: a command that does not exist is an error
// naming it, exit code 1, not a hang.
func TestUpstreamThatCannotStart(t *testing.T) {
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"--", "/nonexistent/mcp-server"}, strings.NewReader(""), io.Discard, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "/nonexistent/mcp-server") {
		t.Errorf("exit code %d, stderr %q; want 1 and the command named", code, stderr.String())
	}
}

// stdioSession runs the command in-process with args and connects a client
// to its stdio, declaring features when there are any; the channel gives
// the exit code.
func stdioSession(ctx context.Context, t testing.TB, args []string, features []string) (*mcp.ClientSession, <-chan int) {
	t.Helper()
	outR, inW, code := startStdio(ctx, args)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, declaring(features)).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, code
}

// startStdio runs the command in-process with args on two pipes: it
// returns the command's stdout, its stdin, and the channel that gives its
// exit code once it has ended (its stdout is then closed).
func startStdio(ctx context.Context, args []string) (stdout *io.PipeReader, stdin *io.PipeWriter, code <-chan int) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, args, inR, outW, io.Discard)
		_ = outW.Close()
	}()
	return outR, inW, exit
}

// declaring is the options of a client that declares features, or nil
// (the defaults) for nil features.
func declaring(features []string) *mcp.ClientOptions {
	if features == nil {
		return nil
	}
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
	return &mcp.ClientOptions{Capabilities: caps}
}

// text is the text of a result's one text block, or "" when it has not
// exactly one.
func text(res *mcp.CallToolResult) string {
	if len(res.Content) != 1 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// TestStdio: the default downstream is stdio; a client that declared a
// profile gets the upstream's structured result rendered, the model may
// ask for one call's format with -format-argument, and the gateway exits
// 0 when its client closes stdin.
func TestStdio(t *testing.T) {
	cmdline := everything(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cs, code := stdioSession(ctx, t, append([]string{"-format-argument", "format", "--"}, cmdline...), []string{"human"})
	if _, ok := cs.InitializeResult().Capabilities.Extensions[shaping.ExtensionID]; !ok {
		t.Error("the gateway does not advertise the extension")
	}
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{name: "declared profile", args: map[string]any{"location": "Chicago"}, want: "- **Temperature:**"},
		{name: "format argument", args: map[string]any{"location": "Chicago", "format": "toon"}, want: "temperature: "},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: tt.args})
		if err != nil {
			t.Fatal(err)
		}
		if got := text(res); !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q, want it to contain %q", tt.name, got, tt.want)
		}
	}
	_ = cs.Close()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d after stdin closed, want 0", c)
		}
	case <-ctx.Done():
		t.Fatal("the gateway did not exit when stdin closed")
	}
}

// TestDefaultTags: with -default, a client that declares nothing gets the
// operator's rendering; without it, the upstream's result as it is.
func TestDefaultTags(t *testing.T) {
	cmdline := everything(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "default toon", args: []string{"-default", "format=toon"}, want: "temperature: "},
		{name: "no default", args: nil, want: `"temperature":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, _ := stdioSession(ctx, t, append(append(tt.args, "--"), cmdline...), nil)
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := text(res); !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

// TestRESTAndSIGTERM runs the command as a process with -rest and -http in
// front of the everything server: REST clients get their renderings by
// Accept, and SIGTERM ends everything within 2 s with exit code 0.
func TestRESTAndSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	cmdline := everything(t)
	args, _ := json.Marshal(append([]string{"-rest", "127.0.0.1:0", "-http", "127.0.0.1:0", "--"}, cmdline...))
	child := servetest.StartChild(t, runAsGateway+"="+string(args))
	cmd, lines, exited := child.Cmd, child.Lines, child.Exited
	var restURL, mcpURL string
	deadline := time.After(testTimeout)
	for restURL == "" || mcpURL == "" {
		select {
		case line := <-lines:
			if m := regexp.MustCompile(`REST under (\S+) at (http://\S+)`).FindStringSubmatch(line); m != nil {
				restURL = m[2] + m[1]
			}
			if m := regexp.MustCompile(`under /mcp at (http://\S+)`).FindStringSubmatch(line); m != nil {
				mcpURL = m[1] + "/mcp"
			}
		case err := <-exited:
			t.Fatalf("the gateway exited before serving: %v", err)
		case <-deadline:
			t.Fatal("the gateway did not say where it listens")
		}
	}

	tests := []struct {
		accept, want string
	}{
		{accept: "text/markdown", want: "- **Temperature:**"},
		{accept: "text/plain", want: "temperature"},
		{accept: "application/json", want: `"status":"success"`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(http.MethodPost, restURL+"/tools/get-structured-content/execute", strings.NewReader(`{"arguments":{"location":"Chicago"}}`))
		req.Header.Set("Accept", tt.accept)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), tt.want) {
			t.Errorf("Accept %s: %d %s, want 200 with %q", tt.accept, resp.StatusCode, body, tt.want)
		}
	}

	// An MCP client over HTTP, connected when the signal comes.
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}}); err != nil {
		t.Fatal(err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the gateway exited with %v, want status 0", err)
		}
	case <-time.After(shutdownBound):
		t.Fatalf("the gateway did not exit within %v of SIGTERM", shutdownBound)
	}
}

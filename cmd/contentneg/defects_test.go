package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/hostileup"
	"github.com/contentneg/contentneg/internal/rawrpc"
	"github.com/contentneg/contentneg/shaping"
)

// The tests of this file run the gateway in front of package hostileup's
// server, this test binary run again as its upstream (TestMain).

// hostileCommand returns the command line of the hostile upstream; the
// test's environment makes the child the server.
func hostileCommand(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(hostileup.Env, "1")
	return []string{exe, "-test.run=^$"}
}

// askingClient connects a legacy-era client over HTTP that declares
// features and counts the questions it is asked (and accepts them).
func askingClient(ctx context.Context, t *testing.T, url string, features []string, asked *atomic.Int32) *mcp.ClientSession {
	t.Helper()
	opts := declaring(features)
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callText(ctx context.Context, t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return text(res)
}

// TestHTTPQuestionAfterCancelReachesNoOtherClient (issue: a question
// reaches the wrong client): over -http, a call that its client cancelled
// asks afterwards, while another client's call is the only one under way.
// The other client is never asked.
func TestHTTPQuestionAfterCancelReachesNoOtherClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	url, _, _ := serveHTTP(ctx, t, append([]string{"-http", "127.0.0.1:0", "--"}, hostileCommand(t)...))
	var askedA, askedB atomic.Int32
	a := askingClient(ctx, t, url, []string{"human", "!interactive"}, &askedA)
	b := askingClient(ctx, t, url, []string{"human"}, &askedB)
	cctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := a.CallTool(cctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"ms": 60000}})
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		callText(ctx, t, b, "slow", map[string]any{"ms": 1500})
	}()
	time.Sleep(300 * time.Millisecond)
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call: %v", err)
	}
	wg.Wait()
	if n := askedB.Load(); n != 0 {
		t.Errorf("the other client was asked %d times: it answered for a call not its own", n)
	}
	if n := askedA.Load(); n != 0 {
		t.Errorf("the !interactive client was asked %d times", n)
	}
}

// TestHTTPClientsShareNoState (issue: clients share upstream state): over
// -http, what one client sets upstream another does not read, and one
// client's log lines reach it alone.
func TestHTTPClientsShareNoState(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	url, _, _ := serveHTTP(ctx, t, append([]string{"-http", "127.0.0.1:0", "--"}, hostileCommand(t)...))
	var logsA, logsB atomic.Int32
	connect := func(n *atomic.Int32) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
			LoggingMessageHandler: func(context.Context, *mcp.LoggingMessageRequest) { n.Add(1) },
		}).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	a, b := connect(&logsA), connect(&logsB)
	callText(ctx, t, a, "set_dir", map[string]any{"dir": "/home/a"})
	if got := callText(ctx, t, b, "status", nil); got != "dir=(none)" {
		t.Errorf("b reads %q, a's state", got)
	}
	callText(ctx, t, a, "log", nil)
	time.Sleep(300 * time.Millisecond)
	if logsB.Load() != 0 {
		t.Errorf("b got %d of a's log lines", logsB.Load())
	}
}

// TestHTTPOneBadAnswerFailsOneCall (issue: one client's bad answer fails
// everyone): an answer over -max-result fails that call; the session
// keeps its upstream (its state stays) and another client's calls under
// way succeed.
func TestHTTPOneBadAnswerFailsOneCall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	url, _, _ := serveHTTP(ctx, t, append([]string{"-http", "127.0.0.1:0", "--"}, hostileCommand(t)...))
	a, b := connectHTTP(ctx, t, url, nil), connectHTTP(ctx, t, url, nil)
	callText(ctx, t, a, "set_dir", map[string]any{"dir": "/kept"})
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := b.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 300}}); err != nil {
				failed.Add(1)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	if _, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "oversize", Arguments: map[string]any{"bytes": 17 << 20}}); err == nil {
		t.Error("a 17 MiB answer did not fail its call")
	}
	wg.Wait()
	if n := failed.Load(); n != 0 {
		t.Errorf("%d of the other client's 10 calls failed", n)
	}
	if got := callText(ctx, t, a, "status", nil); got != "dir=/kept" {
		t.Errorf("after the bad answer a reads %q: its upstream restarted", got)
	}
}

// stdioRaw runs the command in-process on stdio with args and returns a
// raw client on it.
func stdioRaw(ctx context.Context, t *testing.T, args []string) *rawrpc.Client {
	t.Helper()
	outR, inW, code := startStdio(ctx, args)
	t.Cleanup(func() {
		_ = inW.Close()
		<-code
	})
	return rawrpc.NewClient(t, outR, inW)
}

// TestListsAreTheUpstreamsBytes (issue: lists are re-encoded): tools/list
// through the gateway is the upstream's, byte for byte: its key order,
// "execution", no "ttlMs" or "cacheScope", no defaulted hints.
func TestListsAreTheUpstreamsBytes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c := stdioRaw(ctx, t, append([]string{"--"}, hostileCommand(t)...))
	c.Initialize(ctx, `{}`)
	if got := c.CallRaw(ctx, "tools/list", "{}"); got != hostileup.Tools {
		t.Errorf("tools/list through the gateway:\n got %s\nwant %s", got, hostileup.Tools)
	}
}

// TestRenderingsFollowTheSchemasOrder (issue: order is lost): a markdown
// table lists its columns in the output schema's written order, and the
// JSON keeps the upstream's digits.
func TestRenderingsFollowTheSchemasOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmdline := hostileCommand(t)
	human, _ := stdioSession(ctx, t, append([]string{"--"}, cmdline...), []string{"human"})
	defer human.Close()
	md := callText(ctx, t, human, "branches", nil)
	header := regexp.MustCompile(`(?m)^\|.*Name.*\|$`).FindString(md)
	cols := strings.FieldsFunc(header, func(r rune) bool { return r == '|' })
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	if want := []string{"Name", "Current", "Commit hash", "Ahead", "Behind"}; strings.Join(cols, "|") != strings.Join(want, "|") {
		t.Errorf("columns %q, want %q; markdown:\n%s", cols, want, md)
	}
	// The go-sdk client decodes numbers into float64: the bytes are read
	// by a raw client.
	agent := stdioRaw(ctx, t, append([]string{"--"}, cmdline...))
	agent.Initialize(ctx, `{"extensions":{"`+shaping.ExtensionID+`":{"version":"1.0","features":["agent","format=json"]}}}`)
	if res := agent.CallRaw(ctx, "tools/call", `{"name":"branches","arguments":{}}`); !strings.Contains(res, `"id":12345678901234567890`) || !strings.Contains(res, `"price":1.50`) {
		t.Errorf("structuredContent lost digits: %s", res)
	}
}

// TestRESTKeepsDigitsAndTheFormatArgument (issues: REST loses digits;
// -rest ignores -format-argument).
func TestRESTKeepsDigitsAndTheFormatArgument(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	_, restURL, _ := serveHTTP(ctx, t, append([]string{"-http", "127.0.0.1:0", "-rest", "127.0.0.1:0", "-format-argument", "response_format", "--"}, hostileCommand(t)...))
	post := func(tool, body, accept string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, restURL+"/tools/"+tool+"/execute", strings.NewReader(body))
		req.Header.Set("Accept", accept)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		return resp, string(b)
	}
	resp, body := post("branches", `{"arguments":{}}`, "application/json")
	if resp.StatusCode != 200 || !strings.Contains(body, "12345678901234567890") || !strings.Contains(body, "1.50") {
		t.Errorf("REST JSON: %d %s; want the upstream's digits 12345678901234567890 and 1.50", resp.StatusCode, body)
	}
	resp, body = post("branches", `{"arguments":{"response_format":"markdown"}}`, "application/json")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/markdown") {
		t.Errorf("with response_format markdown: Content-Type %q, body %s; want the markdown rendering", ct, body)
	}
}

// TestStartUpSaysWhy (issue: start-up errors do not say why).
func TestStartUpSaysWhy(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{name: "exits", args: []string{"--", "sh", "-c", "echo cannot open the database >&2; exit 3"}, want: []string{"exited with status 3", "cannot open the database"}},
		{name: "banner", args: []string{"--", "sh", "-c", "echo Starting the server...; cat"}, want: []string{"not JSON-RPC", "Starting the server..."}},
		{name: "silent", args: []string{"-call-timeout", "500ms", "--", "sleep", "30"}, want: []string{"did not answer initialize", "-call-timeout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(context.Background(), tt.args, strings.NewReader(""), io.Discard, &stderr)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not say %q", stderr.String(), w)
				}
			}
		})
	}
}

// TestSIGTERMWithAClientOnStdio (issue: SIGTERM in front of the
// everything server still running after 2 s), with a client connected on
// stdio that has made a call, and the demos' flag name -default-tags.
func TestSIGTERMWithAClientOnStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	cmdline := everything(t)
	args, _ := json.Marshal(append([]string{"-default-tags", "human", "--"}, cmdline...))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), runAsGateway+"="+string(args))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	exited := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	go func() { exited <- cmd.Wait() }()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text(res), "**") {
		t.Errorf("-default-tags human: the result is not markdown: %q", text(res))
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the gateway exited with %v, want status 0", err)
		}
		t.Logf("exited %v after SIGTERM", time.Since(start))
	case <-time.After(shutdownBound):
		t.Fatalf("the gateway did not exit within %v of SIGTERM", shutdownBound)
	}
}

// TestRESTAgainstAHostileUpstream: REST clients share one upstream
// session among themselves, never an MCP client's; the upstream's
// question to a REST call is declined and reaches no MCP client; an
// oversize answer fails that REST call alone, and the shared session
// keeps its state.
func TestRESTAgainstAHostileUpstream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	url, restURL, _ := serveHTTP(ctx, t, append([]string{"-http", "127.0.0.1:0", "-rest", "127.0.0.1:0", "--"}, hostileCommand(t)...))
	execute := func(tool, args string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, restURL+"/tools/"+tool+"/execute", strings.NewReader(`{"arguments":`+args+`}`))
		req.Header.Set("Accept", "text/plain")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	var asked atomic.Int32
	mcpClient := askingClient(ctx, t, url, []string{"human"}, &asked)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		callText(ctx, t, mcpClient, "slow", map[string]any{"ms": 800})
	}()
	if code, body := execute("ask", `{"ms":100}`); code != 200 || !strings.Contains(body, `decline`) {
		t.Errorf("REST ask: %d %s; want the question declined", code, body)
	}
	wg.Wait()
	if n := asked.Load(); n != 0 {
		t.Errorf("the MCP client was asked %d times for a REST call", n)
	}
	execute("set_dir", `{"dir":"/rest"}`)
	if got := callText(ctx, t, mcpClient, "status", nil); got != "dir=(none)" {
		t.Errorf("the MCP client reads %q: the REST clients' state", got)
	}
	if code, body := execute("oversize", `{"bytes":17000000}`); code < 500 {
		t.Errorf("REST oversize: %d %s; want a server error", code, clipString(body))
	}
	if code, body := execute("status", `{}`); code != 200 || !strings.Contains(body, "dir=/rest") {
		t.Errorf("REST status after the oversize answer: %d %s; the shared session restarted", code, body)
	}
}

func clipString(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestAllowHosts: -http and -rest refuse a foreign Host on a loopback
// address (DNS rebinding) unless -allow-hosts names it.
func TestAllowHosts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	mcpURL, restURL, _ := serveHTTP(ctx, t, append([]string{"-http", "127.0.0.1:0", "-rest", "127.0.0.1:0", "-allow-hosts", "mcp.example.org", "--"}, hostileCommand(t)...))
	for _, tt := range []struct {
		url, host string
		want      int
	}{
		{mcpURL, "rebind.attacker.example", http.StatusForbidden},
		{restURL + "/tools", "rebind.attacker.example", http.StatusForbidden},
		{restURL + "/tools", "mcp.example.org", http.StatusOK},
	} {
		method, body := http.MethodGet, ""
		if tt.url == mcpURL {
			method, body = http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"ping"}`
		}
		req, _ := http.NewRequest(method, tt.url, strings.NewReader(body))
		req.Host = tt.host
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s with Host %s: %d, want %d", method, tt.url, tt.host, resp.StatusCode, tt.want)
		}
	}
}

// TestHTTPUpstream: -upstream URL in front of a go-sdk server over
// streamable HTTP: each client its own upstream session, the upstream's
// bytes for a client that declares nothing, markdown for one that
// declares human.
func TestHTTPUpstream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "http-upstream", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "price", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a price"}}, StructuredContent: json.RawMessage(`{"sku":"A-1","price":1.50,"id":12345678901234567890}`)}, nil
	})
	up := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(up.Close) // after the gateways, which hold its connections, end

	plain := stdioRaw(ctx, t, []string{"-upstream", up.URL})
	plain.Initialize(ctx, `{}`)
	if got := plain.CallRaw(ctx, "tools/call", `{"name":"price","arguments":{}}`); !strings.Contains(got, `"structuredContent":{"sku":"A-1","price":1.50,"id":12345678901234567890}`) {
		t.Errorf("a client that declares nothing got %s", got)
	}
	human := stdioRaw(ctx, t, []string{"-upstream", up.URL})
	human.Initialize(ctx, `{"extensions":{"`+shaping.ExtensionID+`":{"version":"1.0","features":["human"]}}}`)
	if got := human.CallRaw(ctx, "tools/call", `{"name":"price","arguments":{}}`); !strings.Contains(got, `**Price:** 1.50`) {
		t.Errorf("a human got %s", got)
	}
	n := 0
	for range srv.Sessions() {
		n++
	}
	if n != 2 {
		t.Errorf("the upstream serves %d sessions, want one per client (2)", n)
	}
}

// TestPromptWithEmptyArguments (issue: prompts/get with "arguments": {}
// fails through the gateway): a prompt whose arguments are all optional,
// of a server that wants the arguments object even empty, answers through
// the gateway as directly.
func TestPromptWithEmptyArguments(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c := stdioRaw(ctx, t, append([]string{"--"}, hostileCommand(t)...))
	c.Initialize(ctx, `{}`)
	if got := c.CallRaw(ctx, "prompts/get", `{"name":"greeting","arguments":{}}`); !strings.Contains(got, `"Hello!"`) {
		t.Errorf("prompts/get with arguments {}: %s", got)
	}
}

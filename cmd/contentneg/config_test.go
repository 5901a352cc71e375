package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/shaping"
)

// exampleConfig is the config file docs/gateway.md shows, for the npm
// everything server.
var exampleConfig = filepath.Join("..", "..", "examples", "gateway", "gateway.yaml")

// legacy is the protocol version of the clients whose results are compared
// with a direct connection's: the npm servers' own era, so that neither
// side adds the stateless era's envelope.
const legacy = "2025-11-25"

// serveHTTP runs the command in-process with args (which serve -http and
// may serve -rest on 127.0.0.1:0) until the test ends, and returns where it
// serves MCP and REST ("" without -rest), and the lines it wrote to stderr
// before it served.
func serveHTTP(ctx context.Context, t *testing.T, args []string) (mcpURL, restURL string, before []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, args, strings.NewReader(""), io.Discard, pw)
		_ = pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-code
	})
	wantREST := false
	for _, a := range args {
		wantREST = wantREST || a == "-rest"
	}
	sc := bufio.NewScanner(pr)
	for (mcpURL == "" || wantREST && restURL == "") && sc.Scan() {
		line := sc.Text()
		if m := regexp.MustCompile(`REST under (\S+) at (http://\S+)`).FindStringSubmatch(line); m != nil {
			restURL = m[2] + m[1]
			continue
		}
		if m := regexp.MustCompile(`under /mcp at (http://\S+)`).FindStringSubmatch(line); m != nil {
			mcpURL = m[1] + "/mcp"
			continue
		}
		before = append(before, line)
	}
	if mcpURL == "" || wantREST && restURL == "" {
		t.Fatalf("the gateway did not serve; it said:\n%s", strings.Join(before, "\n"))
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }() // the upstream's stderr, and the log
	return mcpURL, restURL, before
}

// connectHTTP connects a legacy-era client to url, declaring features when
// there are any.
func connectHTTP(ctx context.Context, t *testing.T, url string, features []string) *mcp.ClientSession {
	t.Helper()
	var opts *mcp.ClientOptions
	if features != nil {
		caps := &mcp.ClientCapabilities{}
		caps.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
		opts = &mcp.ClientOptions{Capabilities: caps}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// connectEverything connects a client that declares nothing to the
// everything server directly, over stdio.
func connectEverything(ctx context.Context, t *testing.T, cmdline []string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(cmdline[0], cmdline[1:]...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callJSON calls a tool and returns its result and the result as JSON.
func callJSON(ctx context.Context, t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// TestConfigEndToEnd: the example config file in front of the npm
// everything server, with -default "" given so that a client that
// declares nothing gets every result exactly as a direct connection does;
// each setting of the file takes effect for the clients it concerns:
// the compact markdown template, the compact projection, the standard text
// template, the title, a markdown answer made plain text, a verbatim tool,
// the format argument, and the REST key read from the variable the file
// names.
func TestConfigEndToEnd(t *testing.T) {
	cmdline := everything(t)
	t.Setenv("EVERYTHING_API_KEY", "k1")
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	mcpURL, restURL, before := serveHTTP(ctx, t, append([]string{
		"-config", exampleConfig, "-default", "", "-http", "127.0.0.1:0", "-rest", "127.0.0.1:0", "--",
	}, cmdline...))
	for _, line := range before {
		if strings.Contains(line, "gateway.yaml") {
			t.Errorf("the gateway warned about the example file: %s", line)
		}
	}

	weather := map[string]any{"location": "Chicago"}
	echo := map[string]any{"message": "**bold** and `code`"}
	direct := connectEverything(ctx, t, cmdline)
	undeclared := connectHTTP(ctx, t, mcpURL, nil)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"get-structured-content", weather}, {"echo", echo}, {"get-env", map[string]any{}}} {
		_, want := callJSON(ctx, t, direct, c.tool, c.args)
		if _, got := callJSON(ctx, t, undeclared, c.tool, c.args); got != want {
			t.Errorf("%s, undeclared client: the result differs from a direct connection's (%d bytes, want %d)", c.tool, len(got), len(want))
		}
	}

	// get-env is verbatim: a client that wants markdown gets its JSON text
	// as the tool gave it, which it would otherwise get rendered.
	directEnv, _ := callJSON(ctx, t, direct, "get-env", map[string]any{})
	if !json.Valid([]byte(text(directEnv))) || !strings.HasPrefix(text(directEnv), "{") {
		t.Fatalf("get-env does not answer with a JSON object text; the verbatim case shows nothing")
	}

	tests := []struct {
		name     string
		features []string
		tool     string
		args     map[string]any
		want     string
		// lines, when not nil, are the lines of the text in any order
		// (the order of structuredContent's members is the go-sdk's, not
		// the upstream's), want its first.
		lines []string
	}{
		{name: "markdown template, compact", features: []string{"human", "verbosity=compact"}, tool: "get-structured-content", args: weather,
			want: "**Light rain / drizzle**, 36°"},
		{name: "title, generic markdown", features: []string{"human"}, tool: "get-structured-content", args: weather,
			want: "# Weather", lines: []string{"", "- **Temperature:** 36", "- **Conditions:** Light rain / drizzle", "- **Humidity:** 82%"}},
		{name: "compact projection", features: []string{"format=text", "verbosity=compact"}, tool: "get-structured-content", args: weather,
			want: "Weather\nconditions=\"Light rain / drizzle\" temperature=36"},
		{name: "text template", features: []string{"format=text"}, tool: "get-structured-content", args: weather,
			want: "Light rain / drizzle, 36°, humidity 82 %"},
		{name: "markdown made plain text", features: []string{"format=text"}, tool: "echo", args: echo,
			want: "Echo: bold and code"},
		{name: "verbatim", features: []string{"human"}, tool: "get-env", args: map[string]any{},
			want: text(directEnv)},
		{name: "format argument", features: nil, tool: "get-structured-content", args: map[string]any{"location": "Chicago", "response_format": "toon"},
			lines: []string{"temperature: 36", "conditions: Light rain / drizzle", "humidity: 82"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connectHTTP(ctx, t, mcpURL, tt.features)
			res, _ := callJSON(ctx, t, cs, tt.tool, tt.args)
			got := text(res)
			if tt.lines != nil {
				lines := strings.Split(got, "\n")
				if tt.want != "" && lines[0] == tt.want {
					lines = lines[1:]
				}
				slices.Sort(lines)
				want := slices.Sorted(slices.Values(tt.lines))
				if !slices.Equal(lines, want) || tt.want != "" && !strings.HasPrefix(got, tt.want+"\n") {
					t.Errorf("%s: got\n%s\nwant %q then the lines %q", tt.tool, got, tt.want, tt.lines)
				}
				return
			}
			if got != tt.want {
				if tt.tool == "get-env" {
					t.Errorf("%s: the text differs from the tool's own (%d bytes, want %d)", tt.tool, len(got), len(tt.want))
					return
				}
				t.Errorf("%s: got\n%s\nwant\n%s", tt.tool, got, tt.want)
			}
		})
	}

	// REST: the key is $EVERYTHING_API_KEY, as the file says.
	for _, tt := range []struct {
		key  string
		want int
	}{{key: "", want: http.StatusUnauthorized}, {key: "k1", want: http.StatusOK}} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, restURL+"/tools/echo/execute", strings.NewReader(`{"arguments":{"message":"hi"}}`))
		req.Header.Set("Content-Type", "application/json")
		if tt.key != "" {
			req.Header.Set("Authorization", "Bearer "+tt.key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("REST with key %q: status %d, want %d", tt.key, resp.StatusCode, tt.want)
		}
	}
}

// TestConfigFlagsWin: the file's default tags and format argument apply
// unless the flag is given; a flag given wins.
func TestConfigFlagsWin(t *testing.T) {
	cmdline := everything(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cs, _ := stdioSession(ctx, t, append([]string{"-config", exampleConfig, "-format-argument", "fmt", "--"}, cmdline...), nil)
	defer cs.Close()
	// The file's default (human, format=markdown): no -default flag.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); !strings.HasPrefix(got, "# Weather\n") {
		t.Errorf("a client that declares nothing got %q, want the file's default rendering (markdown, # Weather)", got)
	}
	// The flag's format argument, not the file's.
	var schema []byte
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name == "get-structured-content" {
			schema, _ = json.Marshal(tool.InputSchema)
		}
	}
	if !bytes.Contains(schema, []byte(`"fmt":`)) || bytes.Contains(schema, []byte(`"response_format"`)) {
		t.Errorf("input schema %s: want the flag's argument fmt, not the file's response_format", schema)
	}
}

// TestBadConfig: a config file the gateway cannot serve with is exit code
// 1, the error naming the file and line, before the upstream starts.
func TestBadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv("GWCONFIG_UNSET_KEY", "")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "bad template", args: []string{"-config", write("t.yaml", "tools:\n  a:\n    templates:\n      markdown: \"{{.x\"\n")},
			want: "t.yaml:4:17: tools.a.templates.markdown: renderers: template markdown standard"},
		{name: "unknown key", args: []string{"-config", write("k.yaml", "# settings\ntool:\n  a: {}\n")},
			want: "k.yaml:2:1: tool: unknown key"},
		{name: "missing file", args: []string{"-config", filepath.Join(dir, "none.yaml")}, want: "none.yaml"},
		{name: "REST key variable unset", args: []string{"-rest", "127.0.0.1:0", "-config", write("r.yaml", "rest:\n  api_key_env: GWCONFIG_UNSET_KEY\n")},
			want: "r.yaml:2:16: rest.api_key_env: $GWCONFIG_UNSET_KEY is not set or empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(context.Background(), append(tt.args, "--", "/nonexistent/mcp-server"), strings.NewReader(""), io.Discard, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), tt.want) || strings.Contains(stderr.String(), "nonexistent") {
				t.Errorf("exit code %d, stderr %q; want 1 and %q, before the upstream", code, stderr.String(), tt.want)
			}
		})
	}
}

// TestConfigDocumented: docs/gateway.md shows the example file as it is.
func TestConfigDocumented(t *testing.T) {
	file, err := os.ReadFile(exampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "gateway.md"))
	if err != nil {
		t.Fatal(err)
	}
	const open, end = "<!-- examples/gateway/gateway.yaml -->\n```yaml\n", "```\n<!-- /examples/gateway/gateway.yaml -->"
	_, rest, ok := strings.Cut(string(doc), open)
	shown, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("docs/gateway.md has no block between %q and %q", open, end)
	}
	if shown != string(file) {
		t.Errorf("docs/gateway.md shows a config file other than %s; copy it there", exampleConfig)
	}
}

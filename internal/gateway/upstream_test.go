package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/internal/gateway"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/shaping"
)

// requireEnv, set to 1 (as .ci/run does), turns the skip for a missing node
// or node_modules into a failure.
const requireEnv = "CONTENTNEG_REQUIRE_INTEROP"

// serversDir holds the pinned npm reference servers (npm ci there).
var serversDir = filepath.Join("..", "..", "interop", "servers")

// unavailable skips, or fails when the interop tests are required.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// upstream is one npm reference server and how to start it.
type upstream struct {
	name string
	bin  string
	// args are the server's arguments, given a directory of the test.
	args func(dir string) []string
	// env is the server's extra environment, given a fresh directory.
	env func(dir string) []string
	// prepare runs before the server starts, given the same directory.
	prepare func(t *testing.T, dir string)
	// setup are calls made before the compared ones (both directly and
	// through the gateway), so that the server has state to show.
	setup []call
	// calls are compared directly and through the gateway.
	calls []call
}

type call struct {
	tool string
	args map[string]any
}

var upstreams = []upstream{
	{
		name: "memory",
		bin:  "mcp-server-memory",
		env:  func(dir string) []string { return []string{"MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl")} },
		setup: []call{
			{tool: "create_entities", args: map[string]any{"entities": []any{
				map[string]any{"name": "Zoë", "entityType": "person", "observations": []any{"admin of contentneg", "lives in Bern"}},
				map[string]any{"name": "contentneg", "entityType": "project", "observations": []any{"content negotiation for MCP"}},
			}}},
			{tool: "create_relations", args: map[string]any{"relations": []any{
				map[string]any{"from": "Zoë", "to": "contentneg", "relationType": "maintains"},
			}}},
		},
		calls: []call{
			{tool: "read_graph", args: map[string]any{}},
			{tool: "search_nodes", args: map[string]any{"query": "admin"}},
		},
	},
	{
		name: "filesystem",
		bin:  "mcp-server-filesystem",
		args: func(dir string) []string { return []string{filepath.Join(dir, "root")} },
		prepare: func(t *testing.T, dir string) {
			root := filepath.Join(dir, "root")
			for name, body := range map[string]string{"README.md": "# hello\n", "main.go": "package main\n", "sub/data.json": `{"a":1}`} {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		},
		calls: []call{
			{tool: "list_directory_with_sizes", args: map[string]any{"path": "$ROOT"}},
			{tool: "read_text_file", args: map[string]any{"path": "$ROOT/README.md"}},
			{tool: "read_text_file", args: map[string]any{"path": "$ROOT/missing.txt"}},
		},
	},
	{
		name: "everything",
		bin:  "mcp-server-everything",
		args: func(string) []string { return []string{"stdio"} },
		calls: []call{
			{tool: "get-structured-content", args: map[string]any{"location": "Chicago"}},
			{tool: "echo", args: map[string]any{"message": "hi"}},
			{tool: "get-sum", args: map[string]any{"a": 2, "b": 3}},
		},
	},
}

// command returns the command that starts u in dir, or skips (fails when
// required) without node or the installed servers.
func (u upstream) command(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not installed (%v); install Node 20 or later, then run npm ci in interop/servers", err)
	}
	bin, err := filepath.Abs(filepath.Join(serversDir, "node_modules", ".bin", u.bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		unavailable(t, "the npm server %s is not installed (%v); run npm ci in interop/servers", u.bin, err)
	}
	var args []string
	if u.args != nil {
		args = u.args(dir)
	}
	cmd := exec.Command(node, append([]string{bin}, args...)...)
	cmd.Env = os.Environ()
	if u.env != nil {
		cmd.Env = append(cmd.Env, u.env(dir)...)
	}
	return cmd
}

// connectDirect starts u and connects a client that declares nothing.
func connectDirect(ctx context.Context, t *testing.T, u upstream, dir string) *mcp.ClientSession {
	t.Helper()
	// The capabilities of the gateway's own client, so that the upstream
	// offers both the same tools: form and URL elicitation and sampling
	// (roots only with Options.PassRoots).
	client := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1.0.0"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
			Sampling:    &mcp.SamplingCapabilities{},
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, errors.New("no model here")
		},
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: u.command(t, dir)}, nil)
	if err != nil {
		t.Fatalf("connect %s directly: %v", u.name, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// startGateway starts u behind a gateway.
func startGateway(ctx context.Context, t *testing.T, u upstream, dir string) *gateway.Gateway {
	t.Helper()
	u.command(t, dir) // skips or fails without node, before the gateway starts
	g, err := gateway.New(ctx, func() mcp.Transport {
		return &mcp.CommandTransport{Command: u.command(t, dir)}
	}, &gateway.Options{Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatalf("gateway to %s: %v", u.name, err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// eras are the two downstream protocol eras.
var eras = []struct {
	name    string
	version string
}{
	{name: "stateless", version: ""},
	{name: "legacy", version: "2025-11-25"},
}

// connectGateway connects a downstream client to g's mirror server in
// memory, declaring features when there are any.
func connectGateway(ctx context.Context, t *testing.T, g *gateway.Gateway, version string, features []string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	if features != nil {
		caps := &mcp.ClientCapabilities{}
		caps.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
		if opts.ElicitationHandler != nil {
			caps.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
		}
		opts.Capabilities = caps
	}
	return connectClient(ctx, t, g, mcp.NewClient(&mcp.Implementation{Name: "downstream", Version: "1.0.0"}, opts), version, nil)
}

// callTool calls c on cs with $ROOT replaced, and returns the result as
// JSON, or the error's text.
func callTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession, c call, dir string) (*mcp.CallToolResult, string) {
	t.Helper()
	args := expand(c.args, filepath.Join(dir, "root"))
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: args})
	if err != nil {
		return nil, "error: " + err.Error()
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// envelopeless removes from a result's JSON what the SDK adds to every
// result of the stateless era (its _meta serverInfo, "resultType"), which a
// direct connection to a legacy-era server does not have.
func envelopeless(t *testing.T, s string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &m) != nil {
		return s
	}
	delete(m, "resultType")
	if raw, ok := m["_meta"]; ok {
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(raw, &meta); err != nil {
			t.Fatal(err)
		}
		delete(meta, mcp.MetaKeyServerInfo)
		if len(meta) == 0 {
			delete(m, "_meta")
		} else {
			m["_meta"], _ = json.Marshal(meta)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// expand replaces "$ROOT" in the string values of args.
func expand(args map[string]any, root string) map[string]any {
	b, _ := json.Marshal(args)
	r, _ := json.Marshal(root)
	b = []byte(strings.ReplaceAll(string(b), "$ROOT", string(r[1:len(r)-1])))
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// lists returns the four listings of cs as JSON.
func lists(ctx context.Context, t *testing.T, cs *mcp.ClientSession) map[string]string {
	t.Helper()
	out := map[string]string{}
	add := func(name string, v any, err error) {
		if err != nil {
			out[name] = "error: " + err.Error()
			return
		}
		b, _ := json.Marshal(v)
		out[name] = string(b)
	}
	caps := cs.InitializeResult().Capabilities
	if caps.Tools != nil {
		v, err := gather(cs.Tools(ctx, nil))
		add("tools", v, err)
	}
	if caps.Resources != nil {
		v, err := gather(cs.Resources(ctx, nil))
		add("resources", v, err)
		w, err := gather(cs.ResourceTemplates(ctx, nil))
		add("templates", w, err)
	}
	if caps.Prompts != nil {
		v, err := gather(cs.Prompts(ctx, nil))
		add("prompts", v, err)
	}
	return out
}

func gather[T any](seq func(func(T, error) bool)) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// TestUndeclaredIsUnchanged: against each npm reference server and in both
// downstream eras, a client that declares nothing gets through the gateway
// exactly what a direct connection gets: the same lists in the same order,
// the same results, the same errors.
func TestUndeclaredIsUnchanged(t *testing.T) {
	for _, u := range upstreams {
		t.Run(u.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dirDirect, dirGateway := t.TempDir(), t.TempDir()
			for _, d := range []string{dirDirect, dirGateway} {
				if u.prepare != nil {
					u.prepare(t, d)
				}
			}
			// The same root for both, so that paths in results are the same.
			if u.prepare != nil {
				dirGateway = dirDirect
			}
			direct := connectDirect(ctx, t, u, dirDirect)
			g := startGateway(ctx, t, u, dirGateway)
			for _, c := range u.setup {
				if _, s := callTool(ctx, t, direct, c, dirDirect); strings.HasPrefix(s, "error:") {
					t.Fatalf("setup %s: %s", c.tool, s)
				}
			}
			wantLists := lists(ctx, t, direct)
			var want []string
			for _, c := range u.calls {
				_, s := callTool(ctx, t, direct, c, dirDirect)
				want = append(want, envelopeless(t, s))
			}
			for i, era := range eras {
				t.Run(era.name, func(t *testing.T) {
					cs := connectGateway(ctx, t, g, era.version, nil, nil)
					if i == 0 {
						for _, c := range u.setup {
							callTool(ctx, t, cs, c, dirGateway)
						}
					}
					// An upstream may add to its lists after the
					// handshake (the everything server does, for the
					// client's capabilities): wait for the re-sync.
					got := lists(ctx, t, cs)
					for try := 0; try < 50 && !equal(got, wantLists); try++ {
						time.Sleep(100 * time.Millisecond)
						wantLists, got = lists(ctx, t, direct), lists(ctx, t, cs)
					}
					for name, w := range wantLists {
						if got[name] != w {
							t.Errorf("%s through the gateway:\n%s\nwant (direct):\n%s", name, got[name], w)
						}
					}
					if len(got) != len(wantLists) {
						t.Errorf("lists through the gateway: %v, want %v", keys(got), keys(wantLists))
					}
					for j, c := range u.calls {
						if _, s := callTool(ctx, t, cs, c, dirGateway); envelopeless(t, s) != want[j] {
							t.Errorf("%s through the gateway:\n%s\nwant (direct):\n%s", c.tool, s, want[j])
						}
					}
				})
			}
		})
	}
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// profiles are the declared profiles whose renderings the gateway must give.
var profiles = []struct {
	name     string
	features []string
}{
	{name: "human", features: []string{"human"}},
	{name: "text-compact", features: []string{"format=text", "verbosity=compact"}},
	{name: "toon", features: []string{"format=toon"}},
	{name: "agent-json", features: []string{"agent", "format=json"}},
}

// reference serves one result the way a Go server with the middleware
// does: tool (as the upstream lists it) returns res, on a server named as
// the upstream.
func reference(ctx context.Context, t *testing.T, info *mcp.Implementation, tool *mcp.Tool, res *mcp.CallToolResult, version string, features []string) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(info, nil)
	s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := *res
		return &c, nil
	})
	middleware.Install(s, nil)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(shaping.ExtensionID, map[string]any{"version": "1.0", "features": features})
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "downstream", Version: "1.0.0"}, &mcp.ClientOptions{Capabilities: caps}).Connect(ctx, ct, so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestRenderings: against each npm reference server and in both downstream
// eras, a client that declared a profile gets its rendering of the
// upstream's result through the gateway, byte for byte what a Go server
// with the middleware gives for the same result (the gateway renders
// nothing of its own), and not the upstream's result as it is.
func TestRenderings(t *testing.T) {
	for _, u := range upstreams {
		t.Run(u.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir()
			if u.prepare != nil {
				u.prepare(t, dir)
			}
			g := startGateway(ctx, t, u, dir)
			plain := connectGateway(ctx, t, g, "", nil, nil)
			for _, c := range u.setup {
				callTool(ctx, t, plain, c, dir)
			}
			c := u.calls[0]
			var tool *mcp.Tool
			for v, err := range plain.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if v.Name == c.tool {
					tool = v
				}
			}
			if tool == nil {
				t.Fatalf("%s does not list %s", u.name, c.tool)
			}
			_, undeclaredJSON := callTool(ctx, t, plain, c, dir)
			// A fresh result, as a handler would return it.
			undeclared := new(mcp.CallToolResult)
			if err := json.Unmarshal([]byte(envelopeless(t, undeclaredJSON)), undeclared); err != nil {
				t.Fatalf("%s: %s: %v", c.tool, undeclaredJSON, err)
			}
			for _, p := range profiles {
				for _, era := range eras {
					t.Run(p.name+"/"+era.name, func(t *testing.T) {
						cs := connectGateway(ctx, t, g, era.version, p.features, nil)
						_, got := callTool(ctx, t, cs, c, dir)
						_, want := callTool(ctx, t, reference(ctx, t, plain.InitializeResult().ServerInfo, tool, undeclared, era.version, p.features), c, dir)
						if got != want {
							t.Errorf("%s through the gateway:\n%s\nwant (a Go server with the middleware):\n%s", c.tool, got, want)
						}
						if envelopeless(t, got) == envelopeless(t, undeclaredJSON) {
							t.Errorf("%s through the gateway was not rendered: %s", c.tool, got)
						}
					})
				}
			}
		})
	}
}

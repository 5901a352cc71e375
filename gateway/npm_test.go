package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/gateway"
	"github.com/contentneg/contentneg/internal/rawrpc"
)

var npmServers = []npmServer{
	{
		name: "memory",
		bin:  "mcp-server-memory",
		env:  func(dir string) []string { return []string{"MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl")} },
	},
	{
		name: "filesystem",
		bin:  "mcp-server-filesystem",
		args: func(dir string) []string { return []string{filepath.Join(dir, "root")} },
	},
	{
		name: "everything",
		bin:  "mcp-server-everything",
		args: func(string) []string { return []string{"stdio"} },
	},
}

// prepare fills dir with what the servers read.
func prepare(t *testing.T, dir string) {
	t.Helper()
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
}

// clientCaps are what both the direct and the gateway's client declare.
const clientCaps = `{"sampling":{},"elicitation":{"form":{}},"roots":{"listChanged":true}}`

// bothWays starts u in a prepared directory and returns a raw client on it
// directly (declaring clientCaps) and one through a new gateway in front
// of it (declaring caps).
func bothWays(ctx context.Context, t *testing.T, u npmServer, caps string) (dir string, d *rawrpc.Client, g *gateway.Gateway, c *rawrpc.Client) {
	t.Helper()
	dir = t.TempDir()
	prepare(t, dir)
	cmd := u.command(t, dir)
	d = direct(t, cmd)
	d.Initialize(ctx, clientCaps)
	g = newGateway(t, cmd, nil)
	c = pipeClient(t, g)
	c.Initialize(ctx, caps)
	return dir, d, g, c
}

// TestUpstreamBytesUnchanged: against each pinned npm server, a client
// that declares nothing gets through the gateway exactly the bytes of a
// direct connection: every list, every prompt (with "arguments": {}), and
// a call of every tool with arguments made from its input schema.
func TestUpstreamBytesUnchanged(t *testing.T) {
	for _, u := range npmServers {
		t.Run(u.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dir, d, _, c := bothWays(ctx, t, u, clientCaps)

			same := func(method, params string) string {
				t.Helper()
				want := d.CallRaw(ctx, method, params)
				got := c.CallRaw(ctx, method, params)
				if got != want {
					t.Errorf("%s %s:\n got %s\nwant %s", method, params, clip(got), clip(want))
				}
				return want
			}
			tools := same("tools/list", "{}")
			same("resources/list", "{}")
			same("resources/templates/list", "{}")
			prompts := same("prompts/list", "{}")
			for _, p := range promptsOf(t, prompts) {
				same("prompts/get", p)
			}
			n := 0
			for _, call := range callsOf(t, tools, dir) {
				same("tools/call", call)
				n++
			}
			if n == 0 {
				t.Fatal("no tool was called")
			}
			t.Logf("%d tools compared", n)
		})
	}
}

// skipTools are tools whose results differ run to run (time, randomness)
// or that wait for a long time; their names say why.
var skipTools = map[string]bool{
	"trigger-long-running-operation":    true, // sleeps for its duration
	"get-env":                           true, // the process's environment
	"simulate-research-query":           true, // takes its time, asks
	"trigger-sampling-request-async":    true,
	"trigger-elicitation-request-async": true,
}

// callsOf returns a tools/call params for each listed tool, its required
// arguments made from their schema types.
func callsOf(t *testing.T, list, dir string) []string {
	t.Helper()
	var res struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(list), &res); err != nil {
		t.Fatalf("tools/list: %v: %s", err, list)
	}
	var out []string
	for _, tool := range res.Tools {
		if skipTools[tool.Name] {
			continue
		}
		args := map[string]any{}
		for _, name := range tool.InputSchema.Required {
			switch p := tool.InputSchema.Properties[name]; p.Type {
			case "number", "integer":
				args[name] = 2
			case "boolean":
				args[name] = false
			case "array":
				args[name] = []any{}
			case "object":
				args[name] = map[string]any{}
			default:
				args[name] = "x"
				if strings.Contains(strings.ToLower(name), "path") {
					args[name] = filepath.Join(dir, "root", "README.md")
				}
			}
		}
		if a, ok := toolArgs[tool.Name]; ok {
			args = a
		}
		b, _ := json.Marshal(map[string]any{"name": tool.Name, "arguments": args})
		out = append(out, string(b))
	}
	return out
}

// toolArgs are arguments for tools whose schema alone makes no valid call.
var toolArgs = map[string]map[string]any{
	"get-structured-content": {"location": "Chicago"},
	"get-annotated-message":  {"messageType": "success"},
	"get-resource-reference": {"resourceType": "Text", "resourceId": 1},
}

// promptsOf returns a prompts/get params for each listed prompt, with
// "arguments": {} and its required arguments set.
func promptsOf(t *testing.T, list string) []string {
	t.Helper()
	var res struct {
		Prompts []struct {
			Name      string `json:"name"`
			Arguments []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"arguments"`
		} `json:"prompts"`
	}
	if strings.HasPrefix(list, "error: ") {
		return nil
	}
	if err := json.Unmarshal([]byte(list), &res); err != nil {
		t.Fatalf("prompts/list: %v: %s", err, list)
	}
	var out []string
	if strings.HasPrefix(list, "error: ") {
		return nil
	}
	for _, p := range res.Prompts {
		args := map[string]string{}
		for _, a := range p.Arguments {
			if a.Required {
				args[a.Name] = "x"
			}
		}
		b, _ := json.Marshal(map[string]any{"name": p.Name, "arguments": args})
		out = append(out, string(b))
	}
	return out
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// TestDeclaredClientsKeepValues: a client that declares agent and
// format=json, over MCP and over REST, gets each tool's value with the
// upstream's exact number literals, for every tool of the npm servers
// whose result has a value (structuredContent, or one text block of
// JSON).
func TestDeclaredClientsKeepValues(t *testing.T) {
	for _, u := range npmServers {
		t.Run(u.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dir, d, g, c := bothWays(ctx, t, u, `{"extensions":{"io.modelcontextprotocol/content-negotiation":{"version":"1.0","features":["agent","format=json"]}}}`)
			backend := g.RESTBackend()
			n := 0
			for _, call := range callsOf(t, d.CallRaw(ctx, "tools/list", "{}"), dir) {
				want, ok := valueOf(d.CallRaw(ctx, "tools/call", call))
				if !ok {
					continue
				}
				got, _ := valueOf(c.CallRaw(ctx, "tools/call", call))
				sameValue(t, "MCP "+call, got, want)
				var p struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				}
				_ = json.Unmarshal([]byte(call), &p)
				res, err := backend.CallTool(ctx, p.Name, p.Arguments, []string{"format=json"})
				if err != nil {
					t.Errorf("REST %s: %v", call, err)
					continue
				}
				sameValue(t, "REST "+call, string(res.Structured), want)
				n++
			}
			if n == 0 {
				t.Fatal("no tool answered with a value")
			}
			t.Logf("%d values compared", n)
		})
	}
}

// valueOf returns a tools/call result's value: structuredContent, or its
// one text block when that holds a JSON object or array.
func valueOf(res string) (string, bool) {
	if strings.HasPrefix(res, "error: ") {
		return "", false
	}
	var r struct {
		IsError    bool            `json:"isError"`
		Structured json.RawMessage `json:"structuredContent"`
		Content    []struct {
			Type, Text string
		} `json:"content"`
	}
	if json.Unmarshal([]byte(res), &r) != nil || r.IsError {
		return "", false
	}
	if len(r.Structured) > 0 && string(r.Structured) != "null" {
		return string(r.Structured), true
	}
	if len(r.Content) == 1 && r.Content[0].Type == "text" {
		t := strings.TrimSpace(r.Content[0].Text)
		if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
			return t, true
		}
	}
	return "", false
}

// sameValue checks got is want's JSON value, every number literal as
// written.
func sameValue(t *testing.T, what, got, want string) {
	t.Helper()
	decode := func(s string) (any, []string) {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil
		}
		var nums []string
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case json.Number:
				nums = append(nums, string(x))
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(v)
		sort.Strings(nums)
		return v, nums
	}
	gv, gn := decode(got)
	wv, wn := decode(want)
	if gv == nil || !reflect.DeepEqual(gv, wv) || !reflect.DeepEqual(gn, wn) {
		t.Errorf("%s: the value differs:\n got %s\nwant %s", what, clip(got), clip(want))
	}
}

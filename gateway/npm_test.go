package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestUpstreamBytesUnchanged: against each pinned npm server, a client
// that declares nothing gets through the gateway exactly the bytes of a
// direct connection: every list, every prompt (with "arguments": {}), and
// a call of every tool with arguments made from its input schema.
func TestUpstreamBytesUnchanged(t *testing.T) {
	for _, u := range npmServers {
		t.Run(u.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir()
			prepare(t, dir)
			cmd := u.command(t, dir)
			d := direct(t, cmd)
			d.Initialize(ctx, clientCaps)
			g := newGateway(t, cmd, nil)
			c := pipeClient(t, g)
			c.Initialize(ctx, clientCaps)

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
		b, _ := json.Marshal(map[string]any{"name": tool.Name, "arguments": args})
		out = append(out, string(b))
	}
	return out
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

var _ = rawrpc.SendTimeout

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The recorder runs open-source MCP servers that no one on this project wrote (the npm packages
// pinned in interop/servers) over stdio, makes a fixed set of calls, and writes each result's
// canonical value into the corpus. It needs node and `npm ci` in the servers folder, so it runs only
// on -record; the recorded files are committed (testdata/corpus/SOURCES.md says what each holds).

// fixedRoot is the path the filesystem items show for the temporary project directory.
const fixedRoot = "/home/user/project"

// fixedTime is the modification time of every file of that project.
var fixedTime = time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)

// serverEnv is the whole environment each server runs with: fixed, so that everything's get-env
// records the same value on any machine, and TZ fixes how the servers print dates.
var serverEnv = []string{
	"HOME=/home/user",
	"LANG=en_US.UTF-8",
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"TZ=UTC",
	"NODE_ENV=production",
	"MCP_LOG_LEVEL=info",
}

// recording is one tool call whose result becomes the corpus item name (an empty name only
// prepares the later calls).
type recording struct {
	name string
	tool string
	args map[string]any
	// textJSON stores the JSON that the result's one text block holds instead of its
	// structuredContent (which wraps that text as {"content": text}).
	textJSON bool
}

// recordedServer is one server: how to start it, and the calls.
type recordedServer struct {
	name string
	// command returns the program and arguments that run the server over stdio; tmp is a new
	// directory of its own and root the project directory in it.
	command func(ctx context.Context, serversDir, tmp, root string) (string, []string, error)
	env     func(tmp string) []string
	prep    func(root string) error
	// fixture, when set, prepares what the server reads (a database, a git repository) in tmp or
	// root before the server starts; the function it returns is called once the calls are made.
	fixture func(ctx context.Context, serversDir, tmp, root string) (func(), error)
	calls   []recording
}

// nodeServer runs the npm package's program bin from serversDir/node_modules/.bin with node.
func nodeServer(bin string, args func(root string) []string) func(context.Context, string, string, string) (string, []string, error) {
	return func(_ context.Context, serversDir, _, root string) (string, []string, error) {
		node, err := exec.LookPath("node")
		if err != nil {
			return "", nil, err
		}
		path, err := filepath.Abs(filepath.Join(serversDir, "node_modules", ".bin", bin))
		if err != nil {
			return "", nil, err
		}
		if _, err := os.Stat(path); err != nil {
			return "", nil, fmt.Errorf("%w (run npm ci in %s)", err, serversDir)
		}
		return node, append([]string{path}, args(root)...), nil
	}
}

// goServer builds the Go package pkg (at the version this module requires) into tmp and runs it.
func goServer(pkg string, args func(tmp string) []string) func(context.Context, string, string, string) (string, []string, error) {
	return func(ctx context.Context, _, tmp, _ string) (string, []string, error) {
		bin := filepath.Join(tmp, "server")
		var out bytes.Buffer
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
		build.Stdout, build.Stderr = &out, &out
		if err := build.Run(); err != nil {
			return "", nil, fmt.Errorf("go build %s: %w: %s", pkg, err, out.String())
		}
		return bin, args(tmp), nil
	}
}

// noEnv is for servers that need nothing beyond serverEnv.
func noEnv(string) []string { return nil }

// recordedServers are the servers and calls the recorder makes, in order.
var recordedServers = []recordedServer{
	{
		name:    "server-memory",
		command: nodeServer("mcp-server-memory", func(string) []string { return nil }),
		env:     func(tmp string) []string { return []string{"MEMORY_FILE_PATH=" + filepath.Join(tmp, "memory.jsonl")} },
		calls: []recording{
			{name: "memory-create-entities", tool: "create_entities", args: map[string]any{"entities": memoryEntities}},
			{name: "memory-create-relations", tool: "create_relations", args: map[string]any{"relations": memoryRelations}},
			{name: "memory-add-observations", tool: "add_observations", args: map[string]any{"observations": []any{
				map[string]any{"entityName": "Zoë", "contents": []any{"reviewed PR #2291 on 2026-11-19", "prefers `gofmt -s`"}},
				map[string]any{"entityName": "contentneg", "contents": []any{"v0.9.0 tagged"}},
			}}},
			{name: "memory-read-graph", tool: "read_graph", args: map[string]any{}},
			{name: "memory-search-nodes", tool: "search_nodes", args: map[string]any{"query": "admin"}},
			{name: "memory-open-nodes", tool: "open_nodes", args: map[string]any{"names": []any{"Zoë", "contentneg"}}},
			{name: "memory-search-none", tool: "search_nodes", args: map[string]any{"query": "kubernetes"}},
		},
	},
	{
		name:    "server-filesystem",
		command: nodeServer("mcp-server-filesystem", func(root string) []string { return []string{root} }),
		env:     noEnv,
		prep:    writeProject,
		calls: []recording{
			{name: "filesystem-list-allowed-directories", tool: "list_allowed_directories", args: map[string]any{}},
			{name: "filesystem-list-directory-with-sizes", tool: "list_directory_with_sizes", args: map[string]any{"path": "$ROOT"}},
			{name: "filesystem-directory-tree", tool: "directory_tree", args: map[string]any{"path": "$ROOT"}, textJSON: true},
			{name: "filesystem-search-files", tool: "search_files", args: map[string]any{"path": "$ROOT", "pattern": "**/*.go"}},
			{name: "filesystem-get-file-info", tool: "get_file_info", args: map[string]any{"path": "$ROOT/README.md"}},
			{name: "filesystem-read-text-file", tool: "read_text_file", args: map[string]any{"path": "$ROOT/package.json"}},
		},
	},
	{
		name:    "server-everything",
		command: nodeServer("mcp-server-everything", func(string) []string { return []string{"stdio"} }),
		env:     noEnv,
		calls: []recording{
			{name: "everything-structured-content", tool: "get-structured-content", args: map[string]any{"location": "Chicago"}},
			{name: "everything-get-env", tool: "get-env", args: map[string]any{}},
		},
	},
	{
		// The go-sdk's own example server (typed tools: the values are Go structs).
		name:    "go-sdk examples/server/memory",
		command: goServer("github.com/modelcontextprotocol/go-sdk/examples/server/memory", func(tmp string) []string { return []string{"-memory", filepath.Join(tmp, "memory.json")} }),
		env:     noEnv,
		calls: []recording{
			{tool: "create_entities", args: map[string]any{"entities": memoryEntities}},
			{tool: "create_relations", args: map[string]any{"relations": memoryRelations}},
			{name: "gosdk-memory-read-graph", tool: "read_graph", args: map[string]any{}},
			{name: "gosdk-memory-search-nodes", tool: "search_nodes", args: map[string]any{"query": "admin"}},
			{name: "gosdk-memory-search-none", tool: "search_nodes", args: map[string]any{"query": "kubernetes"}},
		},
	},
	{
		// The reference PostgreSQL server (archived upstream, still the most used): one read-only
		// query tool whose text is JSON.stringify(rows, null, 2). Its database is PGlite.
		name: "server-postgres",
		command: nodeServer("mcp-server-postgres", func(root string) []string {
			return []string{"postgresql://postgres@localhost/postgres?host=" + postgresSocketDir(filepath.Dir(root))}
		}),
		env:     noEnv,
		fixture: startPostgres,
		calls: []recording{
			{name: "postgres-customers", tool: "query", args: map[string]any{"sql": "SELECT * FROM customers ORDER BY id"}},
			{name: "postgres-contact-gaps", tool: "query", args: map[string]any{"sql": "SELECT id, name, email, phone, city FROM customers WHERE email IS NULL OR phone IS NULL ORDER BY id"}},
			{name: "postgres-prefs-json", tool: "query", args: map[string]any{"sql": "SELECT id, name, prefs, tags FROM customers WHERE prefs IS NOT NULL OR tags IS NOT NULL ORDER BY id"}},
			{name: "postgres-balance-by-city", tool: "query", args: map[string]any{"sql": "SELECT city, count(*) AS customers, sum(balance) AS balance, max(last_order) AS last_order FROM customers GROUP BY city ORDER BY city NULLS LAST"}},
			{name: "postgres-columns", tool: "query", args: map[string]any{"sql": "SELECT column_name, data_type, is_nullable, column_default, character_maximum_length, numeric_precision, numeric_scale FROM information_schema.columns WHERE table_name = 'customers' ORDER BY ordinal_position"}},
		},
	},
	{
		// cyanheads' git server: typed tools (output schemas, structuredContent).
		name:    "git-mcp-server",
		command: nodeServer("git-mcp-server", func(string) []string { return nil }),
		env: func(string) []string {
			return []string{"MCP_TRANSPORT_TYPE=stdio", "GIT_SIGN_COMMITS=false", "MCP_RESPONSE_FORMAT=json", "MCP_RESPONSE_VERBOSITY=standard"}
		},
		fixture: makeGitRepo,
		calls: []recording{
			{name: "git-status", tool: "git_status", args: map[string]any{"path": "$ROOT", "includeUntracked": true}},
			{name: "git-log", tool: "git_log", args: map[string]any{"path": "$ROOT", "branch": "feature/unicode-names", "maxCount": 10}},
			{name: "git-diff", tool: "git_diff", args: map[string]any{"path": "$ROOT"}},
			{name: "git-branch-list", tool: "git_branch", args: map[string]any{"path": "$ROOT", "mode": "list", "all": true}},
		},
	},
	{
		// A calculator with 21 tools; each answers with one text block of JSON.
		name:    "calc-mcp",
		command: nodeServer("calc-mcp", func(string) []string { return nil }),
		env:     noEnv,
		calls: []recording{
			{name: "calc-char-info", tool: "char_info", args: map[string]any{"char": "é山🚲"}},
			{name: "calc-statistics", tool: "math", args: map[string]any{"action": "statistics", "values": []any{12.5, 7, 3.25, 19, 7, 0.5}}},
			{name: "calc-url-parse", tool: "url_parse", args: map[string]any{"url": "https://example.ch/süd/rechnung?kunde=山田&chf=12.50#total"}},
		},
	},
	{
		// The reference reasoning server: a thought, then a revision on a branch.
		name:    "server-sequential-thinking",
		command: nodeServer("mcp-server-sequential-thinking", func(string) []string { return nil }),
		env:     func(string) []string { return []string{"DISABLE_THOUGHT_LOGGING=true"} },
		calls: []recording{
			{tool: "sequentialthinking", args: map[string]any{"thought": "The invoice total is 10 CHF; the customer says 12.", "thoughtNumber": 1, "totalThoughts": 3, "nextThoughtNeeded": true}},
			{tool: "sequentialthinking", args: map[string]any{"thought": "Rounding to 5 centimes cannot add 2 CHF: a line is missing.", "thoughtNumber": 2, "totalThoughts": 3, "nextThoughtNeeded": true}},
			{name: "thinking-branch", tool: "sequentialthinking", args: map[string]any{
				"thought": "Alternatively the VAT (8.1%) was added twice: 10 × 1.081 × 1.081 ≈ 11.69, not 12.", "thoughtNumber": 3, "totalThoughts": 4,
				"nextThoughtNeeded": true, "branchFromThought": 2, "branchId": "vat-twice",
			}},
		},
	},
}

// memoryEntities are the knowledge graph's entities: observations of the kinds real notes hold
// (key=value pairs, markdown-looking lines, accents, several lines).
var memoryEntities = []any{
	map[string]any{"name": "Zoë", "entityType": "person", "observations": []any{
		"maintainer since 2024", "role=admin verified=true", "speaks German, French and English",
	}},
	map[string]any{"name": "Bob", "entityType": "person", "observations": []any{
		"# not a heading", "- not a list", "on call: Mon, Wed",
	}},
	map[string]any{"name": "contentneg", "entityType": "project", "observations": []any{
		"Go module github.com/contentneg/contentneg",
		"release checklist:\n1. tag\n2. changelog\n3. announce",
		"license: Apache-2.0",
	}},
	map[string]any{"name": "Bern office", "entityType": "place", "observations": []any{
		"Bundesplatz 3, 3011 Bern", "opens 08:00–17:30 (CET)",
	}},
}

var memoryRelations = []any{
	map[string]any{"from": "Zoë", "to": "contentneg", "relationType": "maintains"},
	map[string]any{"from": "Bob", "to": "contentneg", "relationType": "contributes_to"},
	map[string]any{"from": "Zoë", "to": "Bern office", "relationType": "works at"},
	map[string]any{"from": "Bob", "to": "Zoë", "relationType": "reports to"},
}

// projectFiles is the small project the filesystem server sees (an empty content makes a directory).
var projectFiles = []struct{ path, content string }{
	{".gitignore", "/bin/\n*.out\n"},
	{"README.md", "# demo\n\nA small Go service with a *draft* guide.\n"},
	{"package.json", `{
  "name": "demo-web",
  "version": "1.4.2",
  "private": true,
  "scripts": {
    "build": "tsc -p .",
    "test": "node --test"
  },
  "dependencies": {
    "zod": "^3.25.0"
  }
}
`},
	{"go.mod", "module example.com/demo\n\ngo 1.26\n"},
	{"cmd/demo/main.go", "package main\n\nfunc main() {}\n"},
	{"internal/store/store.go", "package store\n"},
	{"internal/store/store_test.go", "package store\n"},
	{"docs/README_*draft*.md", "# Draft\n"},
	{"docs/guide.md", "# Guide\n\nRun `go run ./cmd/demo`.\n"},
	{"data/cities.csv", "city,country\nBern,CH\nZürich,CH\n"},
	{"data/archive/", ""},
}

// writeProject writes projectFiles under root with fixed modes and modification times.
func writeProject(root string) error {
	for _, f := range projectFiles {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if strings.HasSuffix(f.path, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return fmt.Errorf("write project: %w", err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("write project: %w", err)
		}
		if err := os.WriteFile(p, []byte(f.content), 0o644); err != nil {
			return fmt.Errorf("write project: %w", err)
		}
		if err := os.Chmod(p, 0o644); err != nil { // whatever the umask
			return fmt.Errorf("write project: %w", err)
		}
		if err := os.Chtimes(p, fixedTime, fixedTime); err != nil {
			return fmt.Errorf("write project: %w", err)
		}
	}
	return nil
}

// recordItems runs every recorded server (the npm ones from serversDir, a folder with
// node_modules) and writes its items and output schemas into dir.
func recordItems(ctx context.Context, serversDir, dir string) error {
	for _, s := range recordedServers {
		if err := recordServer(ctx, serversDir, dir, s); err != nil {
			return fmt.Errorf("record %s: %w", s.name, err)
		}
	}
	return nil
}

func recordServer(ctx context.Context, serversDir, dir string, s recordedServer) error {
	tmp, err := os.MkdirTemp("", "corpus-record-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The servers print real paths: resolve symlinks (a macOS /tmp) so that scrubbing finds them.
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		return err
	}
	root := filepath.Join(tmp, "project")
	if err := os.Mkdir(root, 0o755); err != nil {
		return err
	}
	if s.prep != nil {
		if err := s.prep(root); err != nil {
			return err
		}
	}
	if s.fixture != nil {
		stop, err := s.fixture(ctx, serversDir, tmp, root)
		if err != nil {
			return err
		}
		defer stop()
	}
	name, args, err := s.command(ctx, serversDir, tmp, root)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = tmp
	cmd.Env = append(append([]string{}, serverEnv...), s.env(tmp)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	rec := &rawTransport{inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}}
	// No roots capability: the filesystem server then keeps the directory it was given.
	client := mcp.NewClient(&mcp.Implementation{Name: "contentneg-corpus-recorder", Version: "1.0.0"},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := client.Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return fmt.Errorf("connect: %w (stderr: %s)", err, stderr.String())
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	schemas, err := outputSchemas(rec.last())
	if err != nil {
		return err
	}
	scrub := scrubber(root)
	for _, c := range s.calls {
		args := map[string]any{}
		for k, v := range c.args {
			if p, ok := v.(string); ok {
				v = strings.ReplaceAll(p, "$ROOT", root)
			}
			args[k] = v
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: args})
		if err != nil {
			return fmt.Errorf("%s: %w", c.tool, err)
		}
		if res.IsError {
			return fmt.Errorf("%s: the tool failed: %s", c.tool, contentText(res))
		}
		if c.name == "" {
			continue
		}
		value, err := canonicalValue(rec.last(), c.textJSON)
		if err != nil {
			return fmt.Errorf("%s: %w", c.tool, err)
		}
		value = scrub(value)
		if err := writeIndented(filepath.Join(dir, c.name+".json"), value); err != nil {
			return err
		}
		schema := filepath.Join(dir, c.name+".schema.json")
		if sch, ok := schemas[c.tool]; ok && !c.textJSON {
			if err := writeIndented(schema, sch); err != nil {
				return err
			}
		} else if err := os.Remove(schema); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// outputSchemas returns each tool's outputSchema from a tools/list result, as the server wrote it.
func outputSchemas(result json.RawMessage) (map[string]json.RawMessage, error) {
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(result, &list); err != nil {
		return nil, fmt.Errorf("tools/list result: %w", err)
	}
	out := map[string]json.RawMessage{}
	for _, t := range list.Tools {
		if len(t.OutputSchema) > 0 && string(t.OutputSchema) != "null" {
			out[t.Name] = t.OutputSchema
		}
	}
	return out, nil
}

// canonicalValue returns a tools/call result's canonical value, in the order and with the digits
// the server wrote: its structuredContent, or the JSON object or array its one text block holds
// (textJSON prefers the text block).
func canonicalValue(result json.RawMessage, textJSON bool) (json.RawMessage, error) {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, fmt.Errorf("tools/call result: %w", err)
	}
	if len(r.StructuredContent) > 0 && !textJSON {
		return r.StructuredContent, nil
	}
	if len(r.Content) == 1 && r.Content[0].Type == "text" {
		t := strings.TrimSpace(r.Content[0].Text)
		if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
			return json.RawMessage(t), nil
		}
	}
	return nil, errors.New("the result has no canonical value (no structuredContent, no single JSON text block)")
}

// timeLine matches the times get_file_info prints that vary by machine and run, inside the raw
// JSON string (where its lines are separated by the escape \n).
var timeLine = regexp.MustCompile(`(created|accessed): [^\\"]*`)

// scrubber returns a function that replaces what varies by machine in a recorded value (raw JSON):
// the temporary project path becomes fixedRoot, creation and access times become fixedTime.
func scrubber(root string) func(json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(root)
	quoted := string(b[1 : len(b)-1])
	stamp := fixedTime.Format("Mon Jan 02 2006 15:04:05 GMT+0000 (Coordinated Universal Time)")
	return func(v json.RawMessage) json.RawMessage {
		s := strings.ReplaceAll(string(v), quoted, fixedRoot)
		return json.RawMessage(timeLine.ReplaceAllString(s, "$1: "+stamp))
	}
}

// writeIndented writes a JSON value indented by two spaces, keeping its order and digits.
func writeIndented(path string, v json.RawMessage) error {
	var b bytes.Buffer
	if err := json.Indent(&b, v, "", "  "); err != nil {
		return fmt.Errorf("indent %s: %w", path, err)
	}
	b.WriteByte('\n')
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write item: %w", err)
	}
	return nil
}

func contentText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// rawTransport keeps the raw result of the last response the client read, so that the recorder
// sees the server's own member order and number digits (the SDK decodes structuredContent into a
// map).
type rawTransport struct {
	inner mcp.Transport
	mu    sync.Mutex
	raw   json.RawMessage
}

func (t *rawTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawConn{Connection: c, t: t}, nil
}

func (t *rawTransport) last() json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.raw
}

type rawConn struct {
	mcp.Connection
	t *rawTransport
}

func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.t.mu.Lock()
		c.t.raw = append(json.RawMessage(nil), resp.Result...)
		c.t.mu.Unlock()
	}
	return msg, err
}

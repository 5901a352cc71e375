package middleware_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
)

const (
	formatArg = "response_format"
	toolSeen  = "seen"  // records the arguments its handler gets
	toolOwner = "owner" // has a property named as the format argument
)

// argumentServer is the test server with the per-call format argument and
// a format "csv" added, and two more tools: one that records the
// arguments its handler sees, one that owns a property named as the
// argument.
func argumentServer(t *testing.T, opts *middleware.Options, seen *argsSeen) *mcp.Server {
	t.Helper()
	s, m := newServer(opts)
	s.AddTool(&mcp.Tool{Name: toolSeen, InputSchema: json.RawMessage(`{"type":"object","properties":{"station":{"type":"string"}},"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			seen.add(string(req.Params.Arguments))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"station":"Bern"}`}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: toolOwner, InputSchema: json.RawMessage(`{"type":"object","properties":{"` + formatArg + `":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			seen.add(string(req.Params.Arguments))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"station":"Bern"}`}}}, nil
		})
	if m != nil {
		if err := m.Shaper().AddFormat("csv", "text/csv", nil); err != nil {
			t.Fatal(err)
		}
		if err := m.Shaper().Check(); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

type argsSeen struct {
	mu   sync.Mutex
	args []string
}

func (a *argsSeen) add(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.args = append(a.args, s)
}

func (a *argsSeen) last() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.args) == 0 {
		return ""
	}
	return a.args[len(a.args)-1]
}

func TestDefaultTags(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			s := argumentServer(t, &middleware.Options{Default: negotiation.Settings{Features: []string{"human", "format=markdown"}}}, &argsSeen{})
			undeclared := middlewaretest.Connect(t, s, clientOptions(e, nil))
			markdown(t, call(t, undeclared, toolTyped, map[string]any{"station": "Bern"}))
			agent := middlewaretest.Connect(t, s, clientOptions(e, []string{"agent"}))
			jsonMirror(t, call(t, agent, toolTyped, map[string]any{"station": "Bern"}))
		})
	}
}

func TestFormatArgument(t *testing.T) {
	for _, e := range eras {
		for _, tags := range [][]string{nil, {"format=text"}} {
			name := e.name + "/undeclared"
			if tags != nil {
				name = e.name + "/" + strings.Join(tags, ",")
			}
			t.Run(name, func(t *testing.T) {
				seen := &argsSeen{}
				s := argumentServer(t, &middleware.Options{FormatArgument: formatArg}, seen)
				cs := middlewaretest.Connect(t, s, clientOptions(e, tags))
				profile := func(t *testing.T, res *mcp.CallToolResult) {
					t.Helper()
					if tags == nil {
						jsonMirror(t, res) // pass-through: the SDK's own mirror
					} else {
						plainText(t, res)
					}
				}

				markdown(t, call(t, cs, toolTyped, map[string]any{"station": "Bern", formatArg: "markdown"}))
				profile(t, call(t, cs, toolTyped, map[string]any{"station": "Bern"}))

				// json keeps the minified JSON mirror, though Mirror is off ("").
				jsonMirror(t, call(t, cs, toolTyped, map[string]any{"station": "Bern", formatArg: "JSON"}))

				// The handler never sees the argument, and a tool with
				// additionalProperties false accepts it.
				res := call(t, cs, toolSeen, map[string]any{"station": "Bern", formatArg: "text"})
				plainText(t, res)
				if got := seen.last(); got != `{"station":"Bern"}` {
					t.Errorf("the handler saw %s", got)
				}

				// A tool that owns the name gets it unchanged.
				res = call(t, cs, toolOwner, map[string]any{formatArg: "markdown"})
				if got := seen.last(); got != `{"`+formatArg+`":"markdown"}` {
					t.Errorf("the owning tool's handler saw %s", got)
				}
				if tags == nil && onlyText(t, res) != `{"station":"Bern"}` {
					t.Errorf("the owning tool's result was rendered: %v", textBlocks(res))
				}

				// An unknown value is a tool error naming the choices.
				res = call(t, cs, toolTyped, map[string]any{"station": "Bern", formatArg: "xml"})
				text := onlyText(t, res)
				if !res.IsError || !strings.Contains(text, `"xml"`) || !strings.Contains(text, "json, markdown, text, toon, csv") {
					t.Errorf("unknown value: isError %v, %q", res.IsError, text)
				}
				res = call(t, cs, toolTyped, map[string]any{"station": "Bern", formatArg: 3})
				if text := onlyText(t, res); !res.IsError || !strings.Contains(text, "csv") {
					t.Errorf("a number: isError %v, %q", res.IsError, text)
				}

				// A registered format.
				res = call(t, cs, toolTyped, map[string]any{"station": "Bern", formatArg: "csv"})
				if res.IsError {
					t.Errorf("csv: %v", textBlocks(res))
				}
			})
		}
	}
}

// rawListTools returns the raw bytes of the tools/list result the server
// writes to a client described by opts.
func rawListTools(t *testing.T, server *mcp.Server, opts *client.Options) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	rec := &middlewaretest.Recorder{}
	ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: clientOut, Writer: pipeWriter{io.MultiWriter(rec, clientIn), clientIn}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := client.New(opts).Connect(ctx, &mcp.IOTransport{Reader: serverOut, Writer: serverIn}, client.SessionOptions(opts))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range rec.Results() {
		if strings.Contains(r, `"tools":[`) {
			return r
		}
	}
	t.Fatal("no tools/list result")
	return ""
}

type pipeWriter struct {
	io.Writer
	c io.Closer
}

func (w pipeWriter) Close() error { return w.c.Close() }

func TestToolsListWithFormatArgument(t *testing.T) {
	profiles := [][]string{nil, {"agent"}, {"human"}, {"format=json"}, {"format=text", "verbosity=compact"}}
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			plain := rawListTools(t, argumentServer(t, nil, &argsSeen{}), clientOptions(e, nil))
			off := argumentServer(t, &middleware.Options{}, &argsSeen{})
			on := argumentServer(t, &middleware.Options{FormatArgument: formatArg, Default: negotiation.Settings{Features: []string{"human"}}}, &argsSeen{})
			var first string
			for _, tags := range profiles {
				if got := rawListTools(t, off, clientOptions(e, tags)); got != plain {
					t.Errorf("option off, %v: tools/list differs from the SDK's own\n got %s\nwant %s", tags, got, plain)
				}
				got := rawListTools(t, on, clientOptions(e, tags))
				if first == "" {
					first = got
				} else if got != first {
					t.Errorf("option on, %v: tools/list differs from an undeclared client's\n got %s\nwant %s", tags, got, first)
				}
			}
			var list mcp.ListToolsResult
			if err := json.Unmarshal([]byte(first), &list); err != nil {
				t.Fatal(err)
			}
			for _, tool := range list.Tools {
				schema, _ := json.Marshal(tool.InputSchema)
				has := strings.Contains(string(schema), `"`+formatArg+`":{"description":`)
				if want := tool.Name != toolOwner; has != want {
					t.Errorf("tool %s: argument advertised %v, want %v: %s", tool.Name, has, want, schema)
				}
				if has && !strings.Contains(string(schema), `"enum":["json","markdown","text","toon","csv"]`) {
					t.Errorf("tool %s: enum missing: %s", tool.Name, schema)
				}
			}
		})
	}
}

func TestAToolErrorOfTheCoreIsCompleteInTheStatelessEra(t *testing.T) {
	// A 2026-07-28 client (the TypeScript SDK v2's) refuses a tools/call
	// result without resultType; the SDK sets it in the tool's own handler,
	// which a tool error of the core never reaches.
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			s := argumentServer(t, &middleware.Options{FormatArgument: formatArg}, &argsSeen{})
			results := middlewaretest.RawResults(t, s, clientOptions(e, nil), []mcp.CallToolParams{
				{Name: toolTyped, Arguments: map[string]any{"station": "Bern", formatArg: "xml"}},
			})
			found := false
			for _, r := range results {
				if !strings.Contains(r, `"isError":true`) {
					continue
				}
				found = true
				if has := strings.Contains(r, `"resultType":"complete"`); has == e.legacy {
					t.Errorf("resultType complete %v, want %v: %s", has, !e.legacy, r)
				}
			}
			if !found {
				t.Fatalf("no tool error in %v", results)
			}
		})
	}
}

func TestAListedToolThatOwnsTheNameKeepsItWithoutARegistration(t *testing.T) {
	// A server that lists and serves tools it never registers with the
	// SDK (a gateway's mirror): whether a tool owns the name is read from
	// the tools/list results seen.
	s := mcp.NewServer(&mcp.Implementation{Name: "mirror", Version: "1"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	seen := &argsSeen{}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/list":
				return &mcp.ListToolsResult{Tools: []*mcp.Tool{
					{Name: "mirrored", InputSchema: json.RawMessage(`{"type":"object","properties":{"` + formatArg + `":{"type":"string"}}}`)},
				}}, nil
			case "tools/call":
				seen.add(string(req.GetParams().(*mcp.CallToolParamsRaw).Arguments))
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"a":1}`}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	middleware.Install(s, &middleware.Options{FormatArgument: formatArg})
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			cs := middlewaretest.Connect(t, s, clientOptions(e, nil))
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			res := call(t, cs, "mirrored", map[string]any{formatArg: "markdown"})
			if got := seen.last(); got != `{"`+formatArg+`":"markdown"}` {
				t.Errorf("the tool got %s", got)
			}
			if got := onlyText(t, res); got != `{"a":1}` {
				t.Errorf("the tool's own argument set the format: %q", got)
			}
		})
	}
}

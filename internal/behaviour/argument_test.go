package behaviour_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/examples/weather/weathermcpgo"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/internal/cmdline"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// Options.Default and Options.FormatArgument (contract section 1) on both
// SDKs and in both eras, with the same server on each: "reading" is a
// typed tool whose input schema has additionalProperties false, validated
// by the SDK (the go-sdk validates typed tools; mcp-go with
// WithInputSchemaValidation); "seen" records the arguments its handler
// gets; "owner" has a property named as the argument.

const argName = "response_format"

type station struct {
	Station string `json:"station"`
}

type reading struct {
	Station  string `json:"station"`
	Humidity int    `json:"humidity"`
}

const ownerSchema = `{"type":"object","properties":{"` + argName + `":{"type":"string"}}}`

// recorded keeps the arguments handlers saw, as JSON.
type recorded struct {
	mu   sync.Mutex
	last string
}

func (r *recorded) set(v any) {
	b, _ := json.Marshal(v)
	r.mu.Lock()
	r.last = string(b)
	r.mu.Unlock()
}

func (r *recorded) get() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// connectArgs starts the server on sdk with opts (nil: without the
// library) and connects a client described by copts.
func connectArgs(t *testing.T, sdk behaviour.SDK, opts *middleware.Options, copts *client.Options, seen *recorded) *mcp.ClientSession {
	t.Helper()
	goSDK, mcpGo := argsServer(t, sdk, opts, seen)
	if mcpGo != nil {
		return behaviour.ConnectMCPGo(t, mcpGo, copts)
	}
	return middlewaretest.Connect(t, goSDK, copts)
}

// argsServer builds the server of these tests on sdk, with the library and
// opts when opts is not nil: a go-sdk server, or else an mcp-go one.
func argsServer(t *testing.T, sdk behaviour.SDK, opts *middleware.Options, seen *recorded) (*mcp.Server, *server.MCPServer) {
	t.Helper()
	if sdk == behaviour.SDKs[1] {
		s := server.NewMCPServer("args", "1", server.WithToolCapabilities(true), server.WithInputSchemaValidation())
		s.AddTool(mcpgomcp.NewToolWithRawSchema("reading", "a reading", json.RawMessage(`{"type":"object","properties":{"station":{"type":"string"}},"required":["station"],"additionalProperties":false}`)),
			func(_ context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
				seen.set(req.GetArguments())
				v := reading{Station: req.GetString("station", ""), Humidity: 81}
				b, _ := json.Marshal(v)
				return mcpgomcp.NewToolResultStructured(v, string(b)), nil
			})
		s.AddTool(mcpgomcp.NewToolWithRawSchema("owner", "owns the name", json.RawMessage(ownerSchema)),
			func(_ context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
				seen.set(req.GetArguments())
				return mcpgomcp.NewToolResultText(`{"station":"Bern"}`), nil
			})
		if opts != nil {
			a := mcpgo.Install(s, opts)
			check(t, a.Shaper())
		}
		return nil, s
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "args", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "reading", Description: "a reading"}, func(_ context.Context, req *mcp.CallToolRequest, in station) (*mcp.CallToolResult, reading, error) {
		var args map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &args)
		seen.set(args)
		return nil, reading{Station: in.Station, Humidity: 81}, nil
	})
	s.AddTool(&mcp.Tool{Name: "owner", Description: "owns the name", InputSchema: json.RawMessage(ownerSchema)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &args)
		seen.set(args)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"station":"Bern"}`}}}, nil
	})
	if opts != nil {
		m := middleware.Install(s, opts)
		check(t, m.Shaper())
	}
	return s, nil
}

func check(t *testing.T, s *shaping.Shaper) {
	t.Helper()
	if err := s.AddFormat("csv", "text/csv", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

func forEachSDKAndEra(t *testing.T, f func(t *testing.T, sdk behaviour.SDK, legacy bool)) {
	for _, sdk := range behaviour.SDKs {
		for _, legacy := range []bool{false, true} {
			era := "stateless"
			if legacy {
				era = "legacy"
			}
			t.Run(string(sdk)+"/"+era, func(t *testing.T) { f(t, sdk, legacy) })
		}
	}
}

// text returns the result's one text block.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d blocks, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("block %T, want text", res.Content[0])
	}
	return tc.Text
}

const (
	asJSON     = `{"station":"Bern","humidity":81}`
	asMarkdown = "- **Station:** Bern\n- **Humidity:** 81"
	asText     = "station: Bern\nhumidity: 81"
	asTOON     = "station: Bern\nhumidity: 81"
)

func TestDefaultTagsOnEveryFrontEnd(t *testing.T) {
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		opts := &middleware.Options{Default: negotiation.Settings{Features: []string{"human", "format=markdown"}}}
		bern := map[string]any{"station": "Bern"}
		undeclared := connectArgs(t, sdk, opts, options(nil, legacy), &recorded{})
		if got := text(t, call(t, undeclared, "reading", bern)); got != asMarkdown {
			t.Errorf("undeclared client: %q, want the default's markdown %q", got, asMarkdown)
		}
		agent := connectArgs(t, sdk, opts, options([]string{"format=toon"}, legacy), &recorded{})
		if got := text(t, call(t, agent, "reading", bern)); got != asTOON {
			t.Errorf("declared client: %q, want its own TOON %q", got, asTOON)
		}
	})
}

func TestFormatArgumentOnEveryFrontEnd(t *testing.T) {
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		for _, tags := range [][]string{nil, {"format=toon"}} {
			t.Run(strings.Join(append([]string{"declares"}, tags...), " "), func(t *testing.T) {
				seen := &recorded{}
				cs := connectArgs(t, sdk, &middleware.Options{FormatArgument: argName}, options(tags, legacy), seen)
				own := asJSON // pass-through: the SDK's own mirror
				if tags != nil {
					own = asTOON
				}
				with := func(format any) map[string]any { return map[string]any{"station": "Bern", argName: format} }
				for _, step := range []struct {
					args map[string]any
					want string
				}{
					{with("markdown"), asMarkdown},
					{map[string]any{"station": "Bern"}, own}, // the next call is back to the profile
					{with("Text"), asText},
					{with("json"), asJSON}, // json keeps the mirror
					{with(nil), own},       // null is not given
				} {
					res := call(t, cs, "reading", step.args)
					if got := text(t, res); !same(got, step.want) || res.IsError {
						t.Errorf("%v: %q (isError %v), want %q", step.args, got, res.IsError, step.want)
					}
					if got := seen.get(); got != `{"station":"Bern"}` {
						t.Errorf("%v: the handler saw %s", step.args, got)
					}
				}

				res := call(t, cs, "owner", map[string]any{argName: "markdown"})
				if got := seen.get(); got != `{"`+argName+`":"markdown"}` {
					t.Errorf("the owning tool's handler saw %s", got)
				}
				if tags == nil && text(t, res) != `{"station":"Bern"}` {
					t.Errorf("the owning tool's call took the argument: %q", text(t, res))
				}

				for _, bad := range []any{"xml", 3} {
					res := call(t, cs, "reading", with(bad))
					got := text(t, res)
					if !res.IsError || !strings.Contains(got, "json, markdown, text, toon, csv") || !strings.Contains(got, argName) {
						t.Errorf("%v: isError %v, %q; want a tool error naming the choices", bad, res.IsError, got)
					}
				}
			})
		}
	})
}

// same reports whether got is want, or, when want is JSON, the same value
// minified in any member order (structuredContent as the client decodes
// it; TestJSONMirrorIsInStructOrder holds the mirror to one order).
func same(got, want string) bool {
	if got == want {
		return true
	}
	var g, w any
	if json.Unmarshal([]byte(want), &w) != nil || json.Unmarshal([]byte(got), &g) != nil || strings.ContainsAny(got, " \n") {
		return false
	}
	a, _ := json.Marshal(g)
	b, _ := json.Marshal(w)
	return string(a) == string(b)
}

// listTools returns the tools/list result as the client decoded it, in
// JSON.
func listTools(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Tools)
	return string(b)
}

func TestFormatArgumentIsAdvertisedTheSameForEveryProfile(t *testing.T) {
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		plain := listTools(t, connectArgs(t, sdk, nil, options(nil, legacy), &recorded{}))
		var first string
		for _, tags := range [][]string{nil, {"agent"}, {"human"}, {"format=json"}} {
			if got := listTools(t, connectArgs(t, sdk, &middleware.Options{}, options(tags, legacy), &recorded{})); got != plain {
				t.Errorf("option off, %v: tools/list\n%s\nwant the SDK's own\n%s", tags, got, plain)
			}
			got := listTools(t, connectArgs(t, sdk, &middleware.Options{FormatArgument: argName}, options(tags, legacy), &recorded{}))
			if first == "" {
				first = got
			} else if got != first {
				t.Errorf("option on, %v: tools/list\n%s\nwant\n%s", tags, got, first)
			}
		}
		if !strings.Contains(first, `"`+argName+`":{"description":"Optional. The format of this call's result`) ||
			!strings.Contains(first, `"enum":["json","markdown","text","toon","csv"]`) {
			t.Errorf("the argument is not advertised: %s", first)
		}
		if strings.Count(first, `"`+argName+`":{`) != 2 {
			t.Errorf("want the argument once on reading and the owner's own: %s", first)
		}
	})
}

// structured returns the result's structuredContent as JSON.
func structuredOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestJSONMirrorIsInStructOrder: the minified JSON mirror of a typed tool
// keeps the struct's field order whoever asks for it (contract section 5,
// "Order and identity"): a client declaring agent, a client that declared
// nothing and asked by the format argument, one that declared agent and
// asked by it too. Before, the argument's mirror was the SDK's, keys
// sorted ({"humidity":81,"station":"Bern"}), on both SDKs and eras.
func TestJSONMirrorIsInStructOrder(t *testing.T) {
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		opts := &middleware.Options{FormatArgument: argName}
		for _, tt := range []struct {
			name string
			tags []string
			args map[string]any
		}{
			{"agent", []string{"agent"}, map[string]any{"station": "Bern"}},
			{"undeclared, json by the argument", nil, map[string]any{"station": "Bern", argName: "json"}},
			{"agent, json by the argument", []string{"agent"}, map[string]any{"station": "Bern", argName: "json"}},
			{"format=toon, json by the argument", []string{"format=toon"}, map[string]any{"station": "Bern", argName: "json"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				cs := connectArgs(t, sdk, opts, options(tt.tags, legacy), &recorded{})
				res := call(t, cs, "reading", tt.args)
				if got := text(t, res); got != asJSON {
					t.Errorf("mirror %s, want struct order %s", got, asJSON)
				}
				if got := structuredOf(t, res); !same(got, asJSON) {
					t.Errorf("structuredContent %s, want %s", got, asJSON)
				}
			})
		}
	})
}

// TestDefaultFormatJSONKeepsTheMirror: a format=json that comes from the
// operator's default tags keeps the minified JSON mirror (contract section
// 1): the client never said it reads structuredContent. Before, a client
// that declared nothing got content: []. A client that declares
// format=json itself still gets structuredContent alone.
func TestDefaultFormatJSONKeepsTheMirror(t *testing.T) {
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		for _, def := range []string{"format=json", "agent, format=json"} {
			t.Run(def, func(t *testing.T) {
				opts := &middleware.Options{Default: negotiation.Settings{Features: cmdline.SplitList(def)}}
				bern := map[string]any{"station": "Bern"}
				res := call(t, connectArgs(t, sdk, opts, options(nil, legacy), &recorded{}), "reading", bern)
				if len(res.Content) != 1 || text(t, res) != asJSON || !same(structuredOf(t, res), asJSON) {
					b, _ := json.Marshal(res)
					t.Errorf("undeclared client under the default %q: %s, want the mirror %s and structuredContent", def, b, asJSON)
				}
				res = call(t, connectArgs(t, sdk, opts, options([]string{"format=json"}, legacy), &recorded{}), "reading", bern)
				if len(res.Content) != 0 || !same(structuredOf(t, res), asJSON) {
					b, _ := json.Marshal(res)
					t.Errorf("a client declaring format=json: %s, want structuredContent alone", b)
				}
			})
		}
	})
}

// TestDemoJSONMirrorIsTheSameForEveryone: the demo's get_weather (issue
// 28, item 7): the mirror a client that declared nothing gets by
// response_format json is byte for byte the agent's, in the struct's
// order, on both SDKs and in both eras.
func TestDemoJSONMirrorIsTheSameForEveryone(t *testing.T) {
	var first string
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		connect := func(tags []string) *mcp.ClientSession {
			if sdk == behaviour.SDKs[1] {
				s := weathermcpgo.NewServer(weather.NewService(behaviour.Noon))
				mcpgo.Install(s, &mcpgo.Options{Tools: weathermcp.Tools(), FormatArgument: argName})
				return behaviour.ConnectMCPGo(t, s, options(tags, legacy))
			}
			s := weathermcp.NewServer(weather.NewService(behaviour.Noon))
			middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools(), FormatArgument: argName})
			return middlewaretest.Connect(t, s, options(tags, legacy))
		}
		agent := text(t, call(t, connect([]string{"agent"}), "get_weather", map[string]any{"city": "Bern"}))
		if !strings.HasPrefix(agent, `{"location":`) {
			t.Errorf("the agent's mirror is not in struct order: %s", agent)
		}
		asked := text(t, call(t, connect(nil), "get_weather", map[string]any{"city": "Bern", argName: "json"}))
		if asked != agent {
			t.Errorf("response_format json:\n%s\nwant the agent's\n%s", asked, agent)
		}
		if first == "" {
			first = agent
		} else if agent != first {
			t.Errorf("the mirror differs between front ends:\n%s\n%s", agent, first)
		}
	})
}

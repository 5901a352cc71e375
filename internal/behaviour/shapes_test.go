package behaviour_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/internal/tokens"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// The tools of the shapes servers: a plain tool answering with indented
// JSON text, as many servers do, and a file reader registered verbatim.
const (
	toolSearch   = "search"
	toolReadFile = "read_file"
)

// searchText is the search tool's answer; searchValue its minified JSON,
// numbers with their exact digits.
const (
	searchText  = "{\n  \"hits\": [\n    {\n      \"id\": 12345678901234567890,\n      \"path\": \"pkg/*_test.go\",\n      \"score\": 1e-7\n    }\n  ],\n  \"total\": -0\n}\n"
	searchValue = `{"hits":[{"id":12345678901234567890,"path":"pkg/*_test.go","score":1e-7}],"total":-0}`
)

// fileText is a .json file's contents as read_file gives them: indented,
// with a final newline, to be quoted back byte for byte.
const fileText = "{\n  \"name\": \"contentneg\",\n  \"private\": true,\n  \"scripts\": {\n    \"test\": \"go test ./...\"\n  }\n}\n"

// shapesTools registers read_file as verbatim.
func shapesTools() map[string]shaping.Tool {
	return map[string]shaping.Tool{toolReadFile: {Verbatim: true}}
}

// goSDKShapes returns the shapes server on the go-sdk, with the middleware.
func goSDKShapes() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "shapes", Version: "1.0.0"}, nil)
	texts := map[string]string{toolSearch: searchText, toolReadFile: fileText}
	for name, text := range texts {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			})
	}
	addGoSDKStation(s)
	middleware.Install(s, &middleware.Options{Tools: shapesTools()})
	return s
}

// mcpGoShapes returns the shapes server on mcp-go, with the adapter.
func mcpGoShapes() *server.MCPServer {
	s := server.NewMCPServer("shapes", "1.0.0", server.WithToolCapabilities(false))
	texts := map[string]string{toolSearch: searchText, toolReadFile: fileText}
	for name, text := range texts {
		s.AddTool(mcpgomcp.NewTool(name), func(context.Context, mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
			return mcpgomcp.NewToolResultText(text), nil
		})
	}
	addMCPGoStation(s)
	mcpgo.Install(s, &mcpgo.Options{Tools: shapesTools()})
	return s
}

// connectShapes connects a client to the shapes server on sdk.
func connectShapes(t *testing.T, sdk string, opts *client.Options) *mcp.ClientSession {
	if sdk == "mcp-go" {
		return behaviour.ConnectMCPGo(t, mcpGoShapes(), opts)
	}
	return middlewaretest.Connect(t, goSDKShapes(), opts)
}

// eachSDKAndEra runs f for both SDKs in both eras.
func eachSDKAndEra(t *testing.T, f func(t *testing.T, sdk string, legacy bool)) {
	for _, sdk := range []string{"go-sdk", "mcp-go"} {
		for _, legacy := range []bool{false, true} {
			t.Run(behaviour.Mode{Transport: behaviour.InProcess, Legacy: legacy}.String()+"/"+sdk, func(t *testing.T) {
				f(t, sdk, legacy)
			})
		}
	}
}

// textsOf returns the text of every block of res.
func textsOf(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// structuredJSON returns the structuredContent a client received, as JSON
// whose numbers keep their digits, or "" when there is none.
func structuredJSON(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res.StructuredContent == nil {
		return ""
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestJSONTextIsTheValue(t *testing.T) {
	tests := []struct {
		name           string
		tags           []string
		wantStructured bool
		wantTexts      []string // nil: checked by wantRendered
		wantRendered   func(string) error
	}{
		{"undeclared: as given", nil, false, []string{searchText}, nil},
		{"agent: structuredContent and the minified mirror", []string{"agent"}, true, []string{searchValue}, nil},
		{"format=json: structuredContent alone", []string{"agent", "format=json"}, true, []string{}, nil},
		{"human: markdown, no structuredContent", []string{"human"}, false, nil, behaviour.Markdown("12345678901234567890")},
		{"format=text: plain text, no structuredContent", []string{"format=text"}, false, nil, behaviour.Plain("pkg/*_test.go")},
	}
	eachSDKAndEra(t, func(t *testing.T, sdk string, legacy bool) {
		for _, tt := range tests {
			res := call(t, connectShapes(t, sdk, options(tt.tags, legacy)), toolSearch, map[string]any{})
			got := textsOf(res)
			if tt.wantTexts != nil && !equal(got, tt.wantTexts) {
				t.Errorf("%s: texts %q, want %q", tt.name, got, tt.wantTexts)
			}
			if tt.wantRendered != nil {
				if len(got) != 1 {
					t.Errorf("%s: %d text blocks, want 1", tt.name, len(got))
				} else if err := tt.wantRendered(got[0]); err != nil {
					t.Errorf("%s: %v", tt.name, err)
				}
			}
			structured := structuredJSON(t, res)
			if (structured != "") != tt.wantStructured {
				t.Errorf("%s: structuredContent %s, want present %v", tt.name, structured, tt.wantStructured)
			}
		}
	})
}

func TestVerbatimToolsKeepTheirText(t *testing.T) {
	profiles := [][]string{
		nil, {"agent"}, {"agent", "format=json"}, {"human"}, {"human", "verbosity=verbose"},
		{"format=text"}, {"format=text", "verbosity=compact"}, {"verbosity=compact"},
	}
	eachSDKAndEra(t, func(t *testing.T, sdk string, legacy bool) {
		for _, tags := range profiles {
			res := call(t, connectShapes(t, sdk, options(tags, legacy)), toolReadFile, map[string]any{})
			if got := textsOf(res); len(got) != 1 || got[0] != fileText || res.StructuredContent != nil {
				t.Errorf("%s: texts %q, structuredContent %v; want the file's text exactly, alone", tagNames(tags), got, res.StructuredContent)
			}
		}
	})
}

// toolStation is a typed tool whose struct's fields are not in
// alphabetical order, with nested records.
const toolStation = "station"

// Station is the typed tool's result.
type Station struct {
	Name      string     `json:"name"`
	Zone      string     `json:"zone"`
	Elevation int        `json:"elevation_m"`
	Location  Location   `json:"location"`
	Platforms []Platform `json:"platforms"`
	Active    bool       `json:"active"`
}

// Location is a nested record.
type Location struct {
	Lon float64 `json:"lon"`
	Lat float64 `json:"lat"`
}

// Platform is a record of a nested array.
type Platform struct {
	Track      string `json:"track"`
	Length     int    `json:"length_m"`
	Accessible bool   `json:"accessible"`
}

type stationArgs struct{}

func bern() Station {
	return Station{
		Name: "Bern", Zone: "Mittelland", Elevation: 540,
		Location:  Location{Lon: 7.4391, Lat: 46.9488},
		Platforms: []Platform{{"1", 320, true}, {"2", 420, false}, {"49", 180, true}},
		Active:    true,
	}
}

// addGoSDKStation adds the station tool with the go-sdk's typed tool API.
func addGoSDKStation(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: toolStation}, func(context.Context, *mcp.CallToolRequest, stationArgs) (*mcp.CallToolResult, Station, error) {
		return nil, bern(), nil
	})
}

// addMCPGoStation adds the station tool with mcp-go's typed tool API.
func addMCPGoStation(s *server.MCPServer) {
	s.AddTool(mcpgomcp.NewTool(toolStation, mcpgomcp.WithOutputSchema[Station]()),
		mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, stationArgs) (*mcpgomcp.CallToolResult, error) {
			return mcpgomcp.NewToolResultStructuredOnly(bern()), nil
		}))
}

// renderingProfiles are clients that get a rendering (pass-through is each
// SDK's own output, byte for byte, and so differs between them). A format
// the server does not know yet is left out by the test.
var renderingProfiles = [][]string{
	{"agent"}, {"agent", "sampling"}, {"agent", "format=json"}, {"format=json", "verbosity=compact"},
	{"human"}, {"human", "format=markdown", "verbosity=compact"}, {"human", "verbosity=verbose"},
	{"format=text"}, {"format=text", "verbosity=compact"}, {"format=text", "verbosity=verbose"},
	{"verbosity=compact"}, {"verbosity=verbose"}, {"human", "format!=markdown"},
	{"format=toon"}, {"format=toon", "verbosity=compact"},
}

// TestTypedStructsAreTheSameOnBothSDKs: a typed tool's struct, with nested
// records, gives byte-equal blocks on both SDKs in every rendering, the
// JSON mirror included, in the struct's field order, although the go-sdk
// gives the value with sorted keys and mcp-go's WithOutputSchema[T] sorts
// the schema.
func TestTypedStructsAreTheSameOnBothSDKs(t *testing.T) {
	mirror, err := json.Marshal(bern())
	if err != nil {
		t.Fatal(err)
	}
	for _, legacy := range []bool{false, true} {
		for _, tags := range renderingProfiles {
			if negotiation.FromTags(tags...).Rendering() == format.RenderingPassThrough {
				continue // a format this build does not have
			}
			t.Run(behaviour.Mode{Transport: behaviour.InProcess, Legacy: legacy}.String()+"/"+tagNames(tags), func(t *testing.T) {
				results := map[string]*mcp.CallToolResult{}
				for _, sdk := range []string{"go-sdk", "mcp-go"} {
					results[sdk] = call(t, connectShapes(t, sdk, options(tags, legacy)), toolStation, map[string]any{})
				}
				if diff := cmp.Diff(wireOf(t, results["go-sdk"]), wireOf(t, results["mcp-go"])); diff != "" {
					t.Fatalf("mcp-go differs from go-sdk (-go-sdk +mcp-go):\n%s", diff)
				}
				got := textsOf(results["go-sdk"])
				if negotiation.FromTags(tags...).Rendering() == format.RenderingStructured {
					if len(got) > 0 && got[0] != string(mirror) {
						t.Errorf("mirror %s, want the struct's order %s", got[0], mirror)
					}
					return
				}
				if len(got) == 0 {
					t.Fatal("no text block")
				}
				if !inOrder(got[0], "Bern", "Mittelland", "540", "7.4391", "46.9488") || !inOrder(got[0], "49", "180") {
					t.Errorf("not in the struct's field order:\n%s", got[0])
				}
			})
		}
	}
}

// inOrder reports whether each of words is in text after the one before.
func inOrder(text string, words ...string) bool {
	at := 0
	for _, w := range words {
		i := strings.Index(text[at:], w)
		if i < 0 {
			return false
		}
		at += i + len(w)
	}
	return true
}

// TestJSONTextAndVerbatimAreTheSameOnBothSDKs: the other tools of the
// shapes servers give the same results on both SDKs for every client.
func TestJSONTextAndVerbatimAreTheSameOnBothSDKs(t *testing.T) {
	checkSameResults(t, connectShapes, []mcp.CallToolParams{
		{Name: toolSearch, Arguments: map[string]any{}},
		{Name: toolReadFile, Arguments: map[string]any{}},
	})
}

// TestAnAgentGetsIndentedJSONTextMinified measures what the JSON-text rule
// saves an agent on servers that answer with indented JSON text (as
// JSON.stringify(v, null, 2) writes it): every item of testdata/corpus,
// served that way, costs the agent the minified JSON instead. With -v it
// prints the o200k tokens per item and in all (docs/decisions.md quotes
// the total).
func TestAnAgentGetsIndentedJSONTextMinified(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, p := range paths {
		if strings.HasSuffix(p, ".schema.json") {
			continue
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, bytes.TrimSpace(raw), "", "  "); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		texts[strings.TrimSuffix(filepath.Base(p), ".json")] = indented.String()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "indented", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "item", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Name string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: texts[args.Name]}}}, nil
		})
	middleware.Install(s, nil)
	undeclared := middlewaretest.Connect(t, s, nil)
	agent := middlewaretest.Connect(t, s, options([]string{"agent"}, false))
	names := slices.Sorted(maps.Keys(texts))
	var before, after int
	for _, name := range names {
		args := map[string]any{"name": name}
		was, got := textsOf(call(t, undeclared, "item", args)), textsOf(call(t, agent, "item", args))
		var minified bytes.Buffer
		_ = json.Compact(&minified, []byte(texts[name]))
		if len(got) != 1 || got[0] != minified.String() || len(was) != 1 || was[0] != texts[name] {
			t.Fatalf("%s: the agent got %d blocks, not the minified JSON", name, len(got))
		}
		b, a := tokens.Count(was[0]), tokens.Count(got[0])
		before, after = before+b, after+a
		t.Logf("%-40s %6d -> %6d tokens", name, b, a)
	}
	t.Logf("%-40s %6d -> %6d tokens (%d%%)", "all", before, after, after*100/before)
}

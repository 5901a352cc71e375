package weathermcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/middleware/resourcemeta"
	"github.com/contentneg/contentneg/renderers"
)

func read(t *testing.T, cs *mcp.ClientSession, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
}

// profiles are the four clients of the acceptance: undeclared, agent,
// human, text.
var profiles = []struct {
	name string
	tags []string
}{
	{"undeclared", nil},
	{"agent", []string{"agent", "format=json", "verbosity=compact"}},
	{"human", []string{"human", "format=markdown"}},
	{"text", []string{"format=text", "verbosity=compact"}},
}

func TestCurrentWeatherResource(t *testing.T) {
	want, err := weather.NewService(noon).Current("Bern")
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	checks := map[string]func(t *testing.T, c *mcp.ResourceContents){
		"undeclared": func(t *testing.T, c *mcp.ResourceContents) { isJSONContent(t, c, string(wantJSON)) },
		"agent":      func(t *testing.T, c *mcp.ResourceContents) { isJSONContent(t, c, string(wantJSON)) },
		"human": func(t *testing.T, c *mcp.ResourceContents) {
			if c.MIMEType != "text/markdown" || renderers.CheckMarkdown(c.Text) != nil || !strings.Contains(c.Text, "**Bern, Switzerland**") {
				t.Errorf("not a markdown rendering: %s %q", c.MIMEType, c.Text)
			}
		},
		"text": func(t *testing.T, c *mcp.ResourceContents) {
			if c.MIMEType != "text/plain" || renderers.CheckPlain(c.Text) != nil || !strings.HasPrefix(c.Text, "Bern, Switzerland: ") || strings.Contains(c.Text, "\n") {
				t.Errorf("not a compact text rendering: %s %q", c.MIMEType, c.Text)
			}
		},
	}
	for _, e := range eras {
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				res, err := read(t, connect(t, e.legacy, p.tags), "weather://bern")
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Contents) != 1 || res.Contents[0].URI != "weather://bern" {
					t.Fatalf("contents = %+v, want one for weather://bern", res.Contents)
				}
				checks[p.name](t, res.Contents[0])
			})
		}
	}
}

func isJSONContent(t *testing.T, c *mcp.ResourceContents, want string) {
	t.Helper()
	if c.MIMEType != "application/json" || c.Text != want {
		t.Errorf("content = %s %s, want application/json %s", c.MIMEType, c.Text, want)
	}
}

func TestReportAlternatives(t *testing.T) {
	wantTypes := map[string][]string{
		"undeclared": {"application/json", "text/markdown", "text/plain"},
		"agent":      {"application/json"},
		"human":      {"text/markdown"},
		"text":       {"text/plain"},
	}
	for _, e := range eras {
		var all *mcp.ReadResourceResult
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				res, err := read(t, connect(t, e.legacy, p.tags), "weather://bern/report")
				if err != nil {
					t.Fatal(err)
				}
				var types []string
				for _, c := range res.Contents {
					types = append(types, c.MIMEType)
					if c.URI != "weather://bern/report" {
						t.Errorf("an alternative has URI %q", c.URI)
					}
				}
				if strings.Join(types, ",") != strings.Join(wantTypes[p.name], ",") {
					t.Fatalf("MIME types %v, want %v", types, wantTypes[p.name])
				}
				if p.name == "undeclared" {
					all = res
					return
				}
				// The one alternative is the handler's own, unchanged.
				for _, c := range all.Contents {
					if c.MIMEType == types[0] && c.Text != res.Contents[0].Text {
						t.Errorf("the %s alternative was changed", c.MIMEType)
					}
				}
			})
		}
	}
}

func TestMissingCityIsInvalidParamsWithTheURI(t *testing.T) {
	for _, e := range eras {
		for _, p := range profiles {
			for _, uri := range []string{"weather://atlantis", "weather://atlantis/report", "weather://Bern"} {
				t.Run(e.name+"/"+p.name+"/"+uri, func(t *testing.T) {
					_, err := read(t, connect(t, e.legacy, p.tags), uri)
					var wire *jsonrpc.Error
					if !errors.As(err, &wire) {
						t.Fatalf("error = %v, want a JSON-RPC error", err)
					}
					var data struct {
						URI string `json:"uri"`
					}
					_ = json.Unmarshal(wire.Data, &data)
					if wire.Code != jsonrpc.CodeInvalidParams || data.URI != uri {
						t.Errorf("error %d %q data %s, want -32602 with the URI", wire.Code, wire.Message, wire.Data)
					}
				})
			}
		}
	}
}

func TestResourceAndPromptListsAreIdenticalForEveryProfile(t *testing.T) {
	for _, e := range eras {
		var wantResources, wantTemplates, wantPrompts string
		for i, p := range profiles {
			cs := connect(t, e.legacy, p.tags)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			resources, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			templates, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			prompts, err := cs.ListPrompts(ctx, nil)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			gotResources, _ := json.Marshal(resources.Resources)
			gotTemplates, _ := json.Marshal(templates.ResourceTemplates)
			gotPrompts, _ := json.Marshal(prompts.Prompts)
			if i == 0 {
				wantResources, wantTemplates, wantPrompts = string(gotResources), string(gotTemplates), string(gotPrompts)
				if !strings.Contains(wantTemplates, `"uriTemplate":"weather://{city}/report"`) || !strings.Contains(wantTemplates, `"mimeType":"application/json"`) {
					t.Errorf("templates = %s", wantTemplates)
				}
				continue
			}
			if string(gotResources) != wantResources || string(gotTemplates) != wantTemplates || string(gotPrompts) != wantPrompts {
				t.Errorf("%s/%s: the lists differ:\n%s\n%s\n%s", e.name, p.name, gotResources, gotTemplates, gotPrompts)
			}
		}
	}
}

func TestPlanOutfitSuitsTheProfile(t *testing.T) {
	for _, e := range eras {
		texts := map[string]string{}
		for _, p := range profiles {
			t.Run(e.name+"/"+p.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := connect(t, e.legacy, p.tags).GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan_outfit", Arguments: map[string]string{"city": "Bern"}})
				if err != nil {
					t.Fatal(err)
				}
				text := res.Messages[0].Content.(*mcp.TextContent).Text
				texts[p.name] = text
				if !strings.Contains(text, "Bern, Switzerland") {
					t.Errorf("the prompt does not name the city: %s", text)
				}
			})
		}
		t.Run(e.name+"/differs", func(t *testing.T) {
			if texts["agent"] == texts["human"] || texts["human"] == texts["text"] || texts["agent"] == texts["text"] {
				t.Errorf("the prompt does not differ by profile: %q", texts)
			}
			// Markdown converted to text keeps its list markers (SPEC 5, text rules), and nothing
			// else of its markup.
			unlisted := strings.ReplaceAll("\n"+texts["text"], "\n- ", "\n")
			if renderers.CheckPlain(unlisted) != nil || !strings.Contains(texts["text"], "\n- layers") {
				t.Errorf("the text profile's prompt has markup other than its list markers: %s", texts["text"])
			}
			if renderers.CheckPlain(texts["human"]) == nil {
				t.Errorf("the person's prompt is not markdown: %s", texts["human"])
			}
			if !strings.HasPrefix(texts["agent"], "Plan an outfit") {
				t.Errorf("the agent's prompt is not the terse one: %s", texts["agent"])
			}
		})
	}
}

func TestResourceMetadata(t *testing.T) {
	tests := []struct {
		give     string
		wantName string
		wantMIME string
	}{
		{"weather://cities", "cities", "application/json"},
		{"weather://bern", "current-weather", "application/json"},
		{"weather://new-york/report", "weather-report", "application/json"},
	}
	for _, e := range eras {
		cs := connect(t, e.legacy, []string{"human"})
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.give, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				r, err := resourcemeta.Get(ctx, cs, tt.give)
				if err != nil {
					t.Fatal(err)
				}
				if r.URI != tt.give || r.Name != tt.wantName || r.MIMEType != tt.wantMIME {
					t.Errorf("metadata = %+v", r)
				}
				if strings.Contains(tt.give, "{") || tt.give != "weather://cities" && r.Size <= 0 {
					t.Errorf("size = %d, want the primary representation's", r.Size)
				}
			})
		}
		t.Run(e.name+"/missing", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := resourcemeta.Get(ctx, cs, "weather://atlantis")
			var wire *jsonrpc.Error
			if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams || !strings.Contains(string(wire.Data), "weather://atlantis") {
				t.Errorf("error = %v, want -32602 with the URI", err)
			}
		})
	}
}

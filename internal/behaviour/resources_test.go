package behaviour_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/renderers"
)

// profiles are the four clients of the resource and prompt cases.
var profiles = []struct {
	name string
	tags []string
}{
	{"undeclared", nil},
	{"agent", []string{"agent", "format=json", "verbosity=compact"}},
	{"human", []string{"human", "format=markdown"}},
	{"text", []string{"format=text", "verbosity=compact"}},
}

func read(t *testing.T, cs *mcp.ClientSession, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
	defer cancel()
	return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
}

func TestResources(t *testing.T) {
	current, err := weather.NewService(behaviour.Noon).Current("Bern")
	if err != nil {
		t.Fatal(err)
	}
	currentJSON, _ := json.Marshal(current)
	// want is, for each profile, the media types of weather://bern and of
	// the report's contents, and a text the first content holds.
	want := map[string]struct {
		current, report []string
		holds           string
	}{
		"undeclared": {[]string{"application/json"}, []string{"application/json", "text/markdown", "text/plain"}, string(currentJSON)},
		"agent":      {[]string{"application/json"}, []string{"application/json"}, string(currentJSON)},
		"human":      {[]string{"text/markdown"}, []string{"text/markdown"}, "**Bern, Switzerland**"},
		"text":       {[]string{"text/plain"}, []string{"text/plain"}, "Bern, Switzerland: Light rain"},
	}
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		for _, p := range profiles {
			if p.tags != nil && !m.Negotiates() {
				continue
			}
			t.Run(p.name, func(t *testing.T) {
				cs := s.Connect(t, options(p.tags, m.Legacy))
				w := want[p.name]
				res, err := read(t, cs, "weather://bern")
				if err != nil {
					t.Fatal(err)
				}
				if got := mimeTypes(res); !equal(got, w.current) || !strings.Contains(res.Contents[0].Text, w.holds) {
					t.Errorf("weather://bern: %v %q, want %v holding %q", got, res.Contents[0].Text, w.current, w.holds)
				}
				checkText(t, res.Contents[0])
				res, err = read(t, cs, "weather://bern/report")
				if err != nil {
					t.Fatal(err)
				}
				if got := mimeTypes(res); !equal(got, w.report) {
					t.Errorf("weather://bern/report: %v, want %v", got, w.report)
				}
			})
		}
	})
}

// checkText checks that a content is what its media type says.
func checkText(t *testing.T, c *mcp.ResourceContents) {
	t.Helper()
	var err error
	switch c.MIMEType {
	case "text/markdown":
		err = renderers.CheckMarkdown(c.Text)
	case "text/plain":
		err = renderers.CheckPlain(c.Text)
	case "application/json":
		if !json.Valid([]byte(c.Text)) {
			err = errors.New("not JSON")
		}
	}
	if err != nil {
		t.Errorf("%s content: %v: %q", c.MIMEType, err, c.Text)
	}
}

func mimeTypes(res *mcp.ReadResourceResult) []string {
	var out []string
	for _, c := range res.Contents {
		out = append(out, c.MIMEType)
	}
	return out
}

func equal(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// weather://cities is a resource of its own beside the template
// weather://{city}, which matches its URI: the template's renderer (a
// city's conditions) is never run on it. Markdown and text clients get the
// city list rendered generically (contract section 7).
func TestAnExactResourceIsNotGivenTheTemplatesRenderer(t *testing.T) {
	want := map[string]struct {
		mimeType string
		holds    string
	}{
		"undeclared": {"application/json", `"slug":"bern"`},
		"agent":      {"application/json", `"slug":"bern"`},
		"human":      {"text/markdown", "weather://bern"},
		"text":       {"text/plain", "weather://bern"},
	}
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		for _, p := range profiles {
			if p.tags != nil && !m.Negotiates() {
				continue
			}
			t.Run(p.name, func(t *testing.T) {
				res, err := read(t, s.Connect(t, options(p.tags, m.Legacy)), "weather://cities")
				if err != nil {
					t.Fatal(err)
				}
				w := want[p.name]
				if got := mimeTypes(res); !equal(got, []string{w.mimeType}) || !strings.Contains(res.Contents[0].Text, w.holds) {
					t.Errorf("weather://cities: %v %q, want %s holding %q", got, res.Contents[0].Text, w.mimeType, w.holds)
				}
				checkText(t, res.Contents[0])
			})
		}
	})
}

func TestAMissingResourceIsAnError(t *testing.T) {
	// The contract's error is -32602 with the URI in its data. mcp-go v1.2.1
	// gives a resource handler no way to choose its error code: there the
	// error is the SDK's (docs/mcpgo.md).
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		for _, p := range profiles {
			for _, uri := range []string{"weather://atlantis", "weather://atlantis/report"} {
				t.Run(p.name+"/"+uri, func(t *testing.T) {
					_, err := read(t, s.Connect(t, options(p.tags, m.Legacy)), uri)
					var wire *jsonrpc.Error
					if !errors.As(err, &wire) {
						t.Fatalf("error = %v, want a JSON-RPC error", err)
					}
					if s.SDK != serve.SDKGo {
						if !strings.Contains(wire.Message, uri) {
							t.Errorf("error %d %q does not name the URI", wire.Code, wire.Message)
						}
						return
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
	})
}

// A prompt argument the server rejects (a city it does not know) is an
// error with the server's message for every client: invalid params
// (-32602) on the go-sdk; mcp-go v1.2.1 sends every prompt handler's error
// as -32603 (docs/rest.md, "Errors the server sends").
func TestARejectedPromptArgumentIsAnError(t *testing.T) {
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		for _, p := range profiles {
			t.Run(p.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
				defer cancel()
				_, err := s.Connect(t, options(p.tags, m.Legacy)).GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan_outfit", Arguments: map[string]string{"city": "Nowhere"}})
				var wire *jsonrpc.Error
				if !errors.As(err, &wire) || !strings.Contains(wire.Message, `unknown city "Nowhere"`) {
					t.Fatalf("error = %v, want a JSON-RPC error with the server's message", err)
				}
				if s.SDK == serve.SDKGo && wire.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("code %d, want -32602", wire.Code)
				}
			})
		}
	})
}

func TestPrompts(t *testing.T) {
	want := map[string]func(string) error{
		"undeclared": behaviour.Markdown("## What should I wear in Bern"),
		"agent":      behaviour.Holds("1. Choose layers for the feels-like temperature."),
		"human":      behaviour.Markdown("## What should I wear in Bern"),
		"text":       behaviour.PlainList("- layers that suit"), // markdown converted: its list keeps its markers
	}
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		for _, p := range profiles {
			if p.tags != nil && !m.Negotiates() {
				continue
			}
			t.Run(p.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
				defer cancel()
				res, err := s.Connect(t, options(p.tags, m.Legacy)).GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan_outfit", Arguments: map[string]string{"city": "Bern"}})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Messages) != 1 {
					t.Fatalf("%d messages, want 1", len(res.Messages))
				}
				tc, ok := res.Messages[0].Content.(*mcp.TextContent)
				if !ok {
					t.Fatalf("message content is %T", res.Messages[0].Content)
				}
				if err := want[p.name](tc.Text); err != nil {
					t.Error(err)
				}
			})
		}
	})
}

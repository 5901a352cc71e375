package middleware_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

func TestMirrorOptions(t *testing.T) {
	bern := map[string]any{"station": "Bern"}
	tests := []struct {
		name   string
		mirror string
		tags   []string
		want   []check
	}{
		{"structuredContent alone by default", "", []string{"format=json"}, []check{noText, withStructured}},
		{"json mirror when asked", "json", []string{"format=json"}, []check{jsonMirror}},
		{"compact text mirror for format=json", "text", []string{"format=json"}, []check{plainText, withStructured, contains("Bern")}},
		{"no mirror for format=json", "", []string{"format=json"}, []check{noText, withStructured}},
		{"an agent without an explicit format keeps the JSON mirror", "", []string{"agent"}, []check{jsonMirror}},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				s, _ := newServer(&middleware.Options{Mirror: tt.mirror})
				res := call(t, middlewaretest.Connect(t, s, clientOptions(e, tt.tags)), toolTyped, bern)
				for _, c := range tt.want {
					c(t, res)
				}
			})
		}
	}
}

func noText(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	if texts := textBlocks(res); len(texts) != 0 {
		t.Errorf("text blocks %q, want none", texts)
	}
}

// failing is a renderer that fails or panics.
type failing struct{ panics bool }

func (f failing) Render([]byte, renderers.Options) (string, error) { return f.fail() }
func (f failing) fail() (string, error) {
	if f.panics {
		panic("renderer bug")
	}
	return "", errors.New("template broke")
}

func TestRendererFailureFallsBackToStructured(t *testing.T) {
	for _, e := range eras {
		for _, r := range []failing{{panics: false}, {panics: true}} {
			t.Run(e.name, func(t *testing.T) {
				core, logs := observer.New(zap.WarnLevel)
				s, _ := newServer(&middleware.Options{
					Logger: zap.New(core),
					Tools:  map[string]shaping.Tool{toolTyped: {Renderer: r}},
				})
				res := call(t, middlewaretest.Connect(t, s, clientOptions(e, []string{"human"})), toolTyped, map[string]any{"station": "Bern"})
				jsonMirror(t, res)
				withStructured(t, res)
				if n := logs.FilterMessageSnippet("renderer failed").Len(); n != 1 {
					t.Errorf("%d renderer-failure log lines, want 1", n)
				}
			})
		}
	}
}

func TestRegisteredRendererIsUsed(t *testing.T) {
	r, err := renderers.NewTemplate(renderers.TemplateSpec{
		Markdown: map[format.Verbosity]string{format.Standard: "Station **{{.station}}**: {{.temperature_c}} °C"},
	})
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			s, m := newServer(&middleware.Options{})
			m.Register(toolTyped, shaping.Tool{Renderer: r})
			res := call(t, middlewaretest.Connect(t, s, clientOptions(e, []string{"human"})), toolTyped, map[string]any{"station": "Bern"})
			if got := onlyText(t, res); got != "Station **Bern**: 8.5 °C" {
				t.Errorf("markdown = %q", got)
			}
		})
	}
}

func TestExperimentalSettingsAreAFallback(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			s, _ := newServer(&middleware.Options{})
			caps := &mcp.ClientCapabilities{Experimental: map[string]any{negotiation.ExtensionID: client.Declare("format=text")}}
			cs := middlewaretest.Connect(t, s, &client.Options{Legacy: e.legacy, Client: &mcp.ClientOptions{Capabilities: caps}})
			plainText(t, call(t, cs, toolTyped, map[string]any{"station": "Bern"}))
		})
	}
}

func TestProfileReachesTheHandler(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					p, ok := negotiation.FromContext(ctx)
					v, _ := p.Tags().Value("x-team")
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%v %v %s", ok, p.Audience(), v)}}}, nil
				})
			middleware.Install(s, nil)
			tests := []struct {
				tags []string
				want string
			}{
				{nil, "false unknown "},
				{[]string{"agent", "x-team=Blue"}, "true agent Blue"},
			}
			for _, tt := range tests {
				res := call(t, middlewaretest.Connect(t, s, clientOptions(e, tt.tags)), "whoami", map[string]any{})
				if got := onlyText(t, res); got != tt.want {
					t.Errorf("handler saw %q, want %q", got, tt.want)
				}
			}
		})
	}
}

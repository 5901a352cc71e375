package gatewayconfig_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/internal/gatewayconfig"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// TestTemplateOutputIsBounded: a config template whose output has no
// bound of its own ({{range 3000000}}: 30 MB of text for a value of a few
// bytes; issue 28 item 9) fails once its output passes the bound of
// renderers.NewTemplate (1 MiB, or four times the value's JSON), so the core falls back to the structured
// rendering and logs why, and the call allocates a few MiB, not hundreds.
// A template within the bound renders as before.
func TestTemplateOutputIsBounded(t *testing.T) {
	cfg, err := gatewayconfig.Parse("g.yaml", []byte(`tools:
  flood:
    templates:
      markdown: "{{range 3000000}}0123456789{{end}}"
      text: "{{range 3000000}}0123456789{{end}}"
  fine:
    templates:
      markdown: "{{range 3}}{{$.station}} {{end}}"
`))
	if err != nil {
		t.Fatal(err)
	}
	const value = `{"station":"Bern"}`
	// The structured rendering the core falls back to is the value as the
	// one text block, structuredContent kept; the markdown rendering
	// replaces it (the tool declares no output schema).
	tests := []struct {
		tool, tags string
		want       rebuilt
		warned     bool
	}{
		{"flood", "format=markdown", rebuilt{text: value}, true},
		{"flood", "format=text", rebuilt{text: value}, true},
		{"fine", "format=markdown", rebuilt{text: "Bern Bern Bern ", drop: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.tags, func(t *testing.T) {
			core, logs := observer.New(zap.WarnLevel)
			opts := shaping.Options{Logger: zap.New(core)}
			cfg.Apply(&opts)
			s := shaping.New(&opts)
			var got rebuilt
			allocated := bytesAllocated(func() {
				got, _ = shaping.ServeTool(context.Background(), s, valuePort{}, valueCall{tool: tt.tool, tags: tt.tags, value: value})
			})
			if got != tt.want {
				t.Errorf("result %.80q, structuredContent dropped %v; want %q, %v", got.text, got.drop, tt.want.text, tt.want.drop)
			}
			if allocated > 8<<20 {
				t.Errorf("serving allocated %d bytes, want at most 8 MiB", allocated)
			}
			warned := logs.FilterMessage("renderer failed; structured rendering used instead").All()
			if (len(warned) == 1) != tt.warned {
				t.Fatalf("%d warnings, want %v: %v", len(warned), tt.warned, logs.All())
			}
			if tt.warned && !strings.Contains(warned[0].ContextMap()["error"].(string), "larger than") {
				t.Errorf("the warning does not say why: %v", warned[0].ContextMap())
			}
		})
	}
}

// valueCall is a tools/call of tool by a client that declared tags, whose
// handler returns value as structuredContent and no content.
type valueCall struct{ tool, tags, value string }

// rebuilt is a result as the core made it: the text of its one text block
// and whether structuredContent went; value is the handler's
// structuredContent.
type rebuilt struct {
	text  string
	drop  bool
	value string
}

// valuePort is the shaping.ToolPort of valueCall.
type valuePort struct{}

func (valuePort) Facts(c valueCall) (shaping.Request, string) {
	caps := shaping.Capabilities{Extensions: map[string]any{
		shaping.ExtensionID: negotiation.Settings{Version: "1.0", Features: []string{c.tags}}.Map(),
	}}
	return shaping.Request{Meta: caps, HasMeta: true, Stateless: true}, c.tool
}
func (valuePort) SessionKey(valueCall) any { return nil }
func (valuePort) Run(_ context.Context, c valueCall, _ shaping.Refused) (rebuilt, error) {
	return rebuilt{value: c.value}, nil
}
func (valuePort) Answered(valueCall) ([]string, string)               { return nil, "" }
func (valuePort) Asked(rebuilt) ([]string, string)                    { return nil, "" }
func (valuePort) Internal(text string) error                          { return errors.New(text) }
func (valuePort) Status(rebuilt) (isError, needsInput, ok bool)       { return false, false, true }
func (valuePort) Value(r rebuilt) ([]byte, bool)                      { return []byte(r.value), true }
func (valuePort) Struct(rebuilt) bool                                 { return false }
func (valuePort) TextIsValue(rebuilt, []byte) bool                    { return false }
func (valuePort) Blocks(rebuilt) ([]bool, []string)                   { return nil, nil }
func (valuePort) Schema(valueCall, string) (any, func() []byte, bool) { return nil, nil, false }
func (valuePort) Rebuild(_ rebuilt, blocks []shaping.Block, drop bool, _ []byte) rebuilt {
	r := rebuilt{drop: drop}
	for _, b := range blocks {
		r.text += b.Text
	}
	return r
}
func (valuePort) Failed(text string) rebuilt { return rebuilt{text: "failed: " + text} }

package gatewayconfig_test

import (
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/gatewayconfig"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// TestTemplateOutputIsBounded: a config template whose output has no
// bound of its own ({{range 3000000}}: 30 MB of text for a value of a few
// bytes; issue 28 item 9) fails once its output passes the bound of
// renderers.MaxTemplateOutput, so the core falls back to the structured
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
	tests := []struct {
		tool, tags string
		want       shaping.Plan
		warned     bool
	}{
		{"flood", "format=markdown", shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: value}, true},
		{"flood", "format=text", shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: value}, true},
		{"fine", "format=markdown", shaping.Plan{Rendering: format.RenderingMarkdown, ReplaceText: true, Text: "Bern Bern Bern ", DropStructured: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.tags, func(t *testing.T) {
			core, logs := observer.New(zap.WarnLevel)
			opts := shaping.Options{Logger: zap.New(core)}
			cfg.Apply(&opts)
			s := shaping.New(&opts)
			var plan shaping.Plan
			allocated := bytesAllocated(func() {
				plan = s.Tool(negotiation.FromTags(tt.tags), shaping.Result{Tool: tt.tool, Value: []byte(value)})
			})
			if plan.Rendering != tt.want.Rendering || plan.Text != tt.want.Text || plan.DropStructured != tt.want.DropStructured {
				t.Errorf("plan %v %.80q, want %v %q", plan.Rendering, plan.Text, tt.want.Rendering, tt.want.Text)
			}
			if allocated > 8<<20 {
				t.Errorf("planning allocated %d bytes, want at most 8 MiB", allocated)
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

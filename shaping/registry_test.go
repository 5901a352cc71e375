package shaping

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

func constant(s string) renderers.Renderer {
	return renderers.Func(func([]byte, renderers.Options) (string, error) { return s, nil })
}

func TestRegistryLookupOrder(t *testing.T) {
	g := newRegistry()
	g.HandleName("report", "text/csv", constant("report csv"))
	g.HandleName("weather://{city}", format.MediaMarkdown, constant("city md"))
	g.Handle("application/yaml", constant("any yaml"))
	tests := []struct {
		name, tool, mediaType string
		resource              bool
		want                  string // "" when there is no renderer
		own                   bool
	}{
		{"tool's own", "report", "text/csv", false, "report csv", true},
		{"parameters and case ignored", "report", "Text/CSV; charset=utf-8", false, "report csv", true},
		{"other tool, no generic", "other", "text/csv", false, "", false},
		{"generic for a further type", "other", "application/yaml", false, "any yaml", false},
		{"generic markdown", "report", format.MediaMarkdown, false, "generic", false},
		{"resource template", "weather://bern", format.MediaMarkdown, true, "city md", true},
		{"template does not match", "weather://bern/x", format.MediaMarkdown, true, "generic", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := g.Lookup
			if tt.resource {
				lookup = g.LookupResource
			}
			r, own, ok := lookup(tt.tool, tt.mediaType)
			if ok != (tt.want != "") || own != tt.own {
				t.Fatalf("ok %v own %v, want %v %v", ok, own, tt.want != "", tt.own)
			}
			if !ok {
				return
			}
			got, _ := r.Render([]byte(`{"a":1}`), renderers.Options{MediaType: tt.mediaType})
			if tt.want == "generic" {
				if _, isGeneric := r.(renderers.Generic); !isGeneric {
					t.Errorf("renderer %T, want Generic", r)
				}
				return
			}
			if got != tt.want {
				t.Errorf("rendered %q, want %q", got, tt.want)
			}
		})
	}
	if !g.Has("text/csv") || !g.Has("text/html") || g.Has("image/png") {
		t.Error("Has does not report the registered media types")
	}
	g.HandleName("report", "text/csv", nil)
	if g.Has("text/csv") {
		t.Error("a nil renderer did not remove the registration")
	}
}

func TestRegistryHasTOON(t *testing.T) {
	r, own, ok := newRegistry().Lookup("any_tool", "text/toon; charset=utf-8")
	if !ok || own {
		t.Fatalf("Lookup(text/toon) = %v, own %v, ok %v; want the generic renderer", r, own, ok)
	}
	got, err := r.Render([]byte(`{"a":[1,2]}`), renderers.Options{MediaType: format.MediaTOON})
	if err != nil || got != "a[2]: 1,2" {
		t.Errorf("generic text/toon = %q, %v", got, err)
	}
}

func TestRegistryHTMLFollowsAToolsMarkdown(t *testing.T) {
	g := newRegistry()
	g.HandleName("report", format.MediaMarkdown, renderers.Func(func([]byte, renderers.Options) (string, error) {
		return "# Report\n\n<b>raw</b>", nil
	}))
	r, own, ok := g.Lookup("report", format.MediaHTML)
	if !ok || !own {
		t.Fatalf("ok %v own %v", ok, own)
	}
	got, err := r.Render([]byte(`{}`), renderers.Options{MediaType: format.MediaHTML})
	if err != nil || !strings.HasPrefix(got, "<h1>Report</h1>") || strings.Contains(got, "<b>") {
		t.Errorf("got %q, %v", got, err)
	}
}

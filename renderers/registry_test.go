package renderers_test

import (
	"errors"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

func constant(s string) renderers.Renderer {
	return renderers.Func(func([]byte, renderers.Options) (string, error) { return s, nil })
}

func TestRegistryLookupOrder(t *testing.T) {
	g := renderers.NewRegistry()
	g.HandleName("report", "text/csv", constant("report csv"))
	g.HandleName("weather://{city}", negotiation.MediaMarkdown, constant("city md"))
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
		{"generic markdown", "report", negotiation.MediaMarkdown, false, "generic", false},
		{"resource template", "weather://bern", negotiation.MediaMarkdown, true, "city md", true},
		{"template does not match", "weather://bern/x", negotiation.MediaMarkdown, true, "generic", false},
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

func TestGenericRefusesOtherMediaTypes(t *testing.T) {
	_, err := renderers.Generic{}.Render([]byte(`{}`), renderers.Options{MediaType: "text/csv"})
	if !errors.Is(err, renderers.ErrMediaType) {
		t.Errorf("err = %v, want ErrMediaType", err)
	}
}

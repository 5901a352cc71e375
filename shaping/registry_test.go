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
	g := newRegistry(nil)
	g.update(func(t *table) {
		t.handleName("report", "text/csv", constant("report csv"))
		t.handleName("weather://{city}", format.Markdown.MediaType, constant("city md"))
		t.handleGeneric("application/yaml", constant("any yaml"))
	})
	tests := []struct {
		name, tool, mediaType string
		resource              bool
		want                  string // "" when there is no renderer
	}{
		{"tool's own", "report", "text/csv", false, "report csv"},
		{"parameters and case ignored", "report", "Text/CSV; charset=utf-8", false, "report csv"},
		{"other tool, no generic", "other", "text/csv", false, ""},
		{"generic for a further type", "other", "application/yaml", false, "any yaml"},
		{"generic markdown", "report", format.Markdown.MediaType, false, "generic"},
		{"resource template", "weather://bern", format.Markdown.MediaType, true, "city md"},
		{"template does not match", "weather://bern/x", format.Markdown.MediaType, true, "generic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := g.load()
			r, ok := tab.renderer(tt.tool, tt.mediaType)
			if tt.resource {
				_, r, ok = tab.resource(tt.tool, false, tt.mediaType)
			}
			if ok != (tt.want != "") {
				t.Fatalf("ok %v, want %v", ok, tt.want != "")
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
	g.update(func(t *table) { t.handleName("report", "text/csv", nil) })
	if _, ok := g.load().renderer("report", "text/csv"); ok {
		t.Error("a nil renderer did not remove the registration")
	}
}

func TestRegistryHasTOON(t *testing.T) {
	r, ok := newRegistry(nil).load().renderer("any_tool", "text/toon; charset=utf-8")
	if !ok {
		t.Fatalf("renderer(text/toon) = %v, ok %v; want the generic renderer", r, ok)
	}
	if _, isGeneric := r.(renderers.Generic); !isGeneric {
		t.Fatalf("renderer(text/toon) = %T, want the generic renderer", r)
	}
	got, err := r.Render([]byte(`{"a":[1,2]}`), renderers.Options{MediaType: format.TOON.MediaType})
	if err != nil || got != "a[2]: 1,2" {
		t.Errorf("generic text/toon = %q, %v", got, err)
	}
}

func TestRegistryHTMLFollowsAToolsMarkdown(t *testing.T) {
	g := newRegistry(nil)
	g.update(func(t *table) {
		t.handleName("report", format.Markdown.MediaType, renderers.Func(func([]byte, renderers.Options) (string, error) {
			return "# Report\n\n<b>raw</b>", nil
		}))
	})
	r, ok := g.load().renderer("report", format.HTML.MediaType)
	if !ok {
		t.Fatalf("ok %v", ok)
	}
	got, err := r.Render([]byte(`{}`), renderers.Options{MediaType: format.HTML.MediaType})
	if err != nil || !strings.HasPrefix(got, "<h1>Report</h1>") || strings.Contains(got, "<b>") {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestRegistryPublishedTableNeverChanges: a registration publishes a new
// table and leaves the one readers hold as it was, settings, renderers and
// templates alike (copy on write).
func TestRegistryPublishedTableNeverChanges(t *testing.T) {
	g := newRegistry(map[string]Tool{"report": {Title: "Report", Renderer: constant("report md")}})
	before := g.load()
	g.update(func(t *table) {
		t.register("report", Tool{Title: "Changed"})
		t.handleName("report", "text/csv", constant("report csv"))
		t.handleName("weather://{city}", format.Markdown.MediaType, constant("city md"))
		t.handleGeneric(format.Markdown.MediaType, nil)
	})
	after := g.load()
	if before == after {
		t.Fatal("the registration changed the published table in place")
	}
	tests := []struct {
		name               string
		tab                *table
		title, md, csv, wt string // wt: the markdown of weather://bern
	}{
		{"before", before, "Report", "report md", "", "generic"},
		{"after", after, "Changed", "", "report csv", "city md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tab.settings("report").Title; got != tt.title {
				t.Errorf("title %q, want %q", got, tt.title)
			}
			for _, c := range []struct{ name, mt, want string }{
				{"report", format.Markdown.MediaType, tt.md},
				{"report", "text/csv", tt.csv},
			} {
				if got := renderedBy(tt.tab.renderer(c.name, c.mt)); got != c.want {
					t.Errorf("%s %s rendered by %q, want %q", c.name, c.mt, got, c.want)
				}
			}
			_, r, ok := tt.tab.resource("weather://bern", false, format.Markdown.MediaType)
			if got := renderedBy(r, ok); got != tt.wt {
				t.Errorf("weather://bern rendered by %q, want %q", got, tt.wt)
			}
		})
	}
}

// renderedBy names a looked-up renderer: "" for none, "generic", or what
// it renders.
func renderedBy(r renderers.Renderer, ok bool) string {
	if !ok {
		return ""
	}
	if _, isGeneric := r.(renderers.Generic); isGeneric {
		return "generic"
	}
	out, _ := r.Render([]byte(`{}`), renderers.Options{})
	return out
}

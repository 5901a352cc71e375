package format_test

import (
	"testing"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
)

func TestStrings(t *testing.T) {
	tests := []struct {
		give interface{ String() string }
		want string
	}{
		{format.JSON, "json"}, {format.Text, "text"}, {format.Markdown, "markdown"}, {format.TOON, "toon"}, {format.HTML, "html"},
		{format.Format{Name: "csv", MediaType: "text/csv", Rendering: format.RenderingCustom}, "csv"}, {format.Format{}, "unset"},
		{format.Compact, "compact"}, {format.Standard, "standard"}, {format.Verbose, "verbose"}, {format.VerbosityUnset, "unset"},
		{format.RenderingStructured, "structured"}, {format.RenderingMarkdown, "markdown"}, {format.RenderingText, "text"},
		{format.RenderingTOON, "toon"}, {format.RenderingHTML, "html"}, {format.RenderingCustom, "custom"}, {format.RenderingPassThrough, "pass-through"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.give.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
	if got := format.VerbosityUnset.OrStandard(); got != format.Standard {
		t.Errorf("unset.OrStandard() = %v", got)
	}
	if got := format.Compact.OrStandard(); got != format.Compact {
		t.Errorf("compact.OrStandard() = %v", got)
	}
}

// TestBuiltin holds the table to the contract (section 4) and to the tag
// registry: each built-in format's name is a value "format" takes, and
// name, media type and rendering find one another.
func TestBuiltin(t *testing.T) {
	want := map[string]struct {
		mediaType string
		rendering format.Rendering
	}{
		"json":     {"application/json", format.RenderingStructured},
		"markdown": {"text/markdown", format.RenderingMarkdown},
		"text":     {"text/plain", format.RenderingText},
		"toon":     {"text/toon", format.RenderingTOON},
		"html":     {"text/html", format.RenderingHTML},
	}
	builtin := format.Builtin()
	if len(builtin) != len(want) {
		t.Fatalf("%d built-in formats, want %d", len(builtin), len(want))
	}
	for _, f := range builtin {
		w, ok := want[f.Name]
		if !ok || f.MediaType != w.mediaType || f.Rendering != w.rendering {
			t.Errorf("built-in %+v, want %+v", f, w)
		}
		if _, diags := featuretags.Parse([]string{"format=" + f.Name}); len(diags) != 0 {
			t.Errorf("format=%s: the registry does not take it: %v", f.Name, diags)
		}
		for _, by := range []func() (format.Format, bool){
			func() (format.Format, bool) { return format.ByName(f.Name) },
			func() (format.Format, bool) { return format.ByMediaType(f.MediaType) },
			func() (format.Format, bool) { return format.ByRendering(f.Rendering) },
		} {
			if got, ok := by(); !ok || got != f {
				t.Errorf("lookup of %v = %+v, %v", f, got, ok)
			}
		}
	}
}

func TestLookupMisses(t *testing.T) {
	tests := []struct {
		name string
		got  func() (format.Format, bool)
	}{
		{"unknown name", func() (format.Format, bool) { return format.ByName("csv") }},
		{"name in upper case", func() (format.Format, bool) { return format.ByName("JSON") }},
		{"empty name", func() (format.Format, bool) { return format.ByName("") }},
		{"unknown media type", func() (format.Format, bool) { return format.ByMediaType("text/csv") }},
		{"media type with parameters", func() (format.Format, bool) { return format.ByMediaType("text/plain; charset=utf-8") }},
		{"pass-through", func() (format.Format, bool) { return format.ByRendering(format.RenderingPassThrough) }},
		{"custom", func() (format.Format, bool) { return format.ByRendering(format.RenderingCustom) }},
		{"out of range", func() (format.Format, bool) { return format.ByRendering(200) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := tt.got(); ok || got != (format.Format{}) {
				t.Errorf("= %+v, %v; want none", got, ok)
			}
		})
	}
}

func TestParseVerbosity(t *testing.T) {
	tests := []struct {
		give   string
		want   format.Verbosity
		wantOK bool
	}{
		{"compact", format.Compact, true},
		{"standard", format.Standard, true},
		{"verbose", format.Verbose, true},
		{"Compact", format.VerbosityUnset, false},
		{"unset", format.VerbosityUnset, false},
		{"", format.VerbosityUnset, false},
		{"compact ", format.VerbosityUnset, false},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, ok := format.ParseVerbosity(tt.give)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ParseVerbosity(%q) = %v, %v; want %v, %v", tt.give, got, ok, tt.want, tt.wantOK)
			}
			if ok && got.String() != tt.give {
				t.Errorf("String() = %q: not the name it was parsed from", got.String())
			}
		})
	}
}

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
		{format.Compact, "compact"}, {format.Standard, "standard"}, {format.Verbose, "verbose"}, {format.Verbosity(0), "unset"},
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
}

// TestBuiltin holds the table to the contract (section 4) and to the tag
// registry: each built-in format's name is a value "format" takes
// (negotiation's tests hold its lookups of them).
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
	builtin := []format.Format{format.JSON, format.Markdown, format.Text, format.TOON, format.HTML}
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
		{"Compact", format.Verbosity(0), false},
		{"unset", format.Verbosity(0), false},
		{"", format.Verbosity(0), false},
		{"compact ", format.Verbosity(0), false},
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

package negotiation

import (
	"testing"

	"github.com/contentneg/contentneg/format"
)

// TestBuiltinLookups: name, media type and rendering of each built-in
// format find one another.
func TestBuiltinLookups(t *testing.T) {
	if len(builtin) != 5 {
		t.Fatalf("%d built-in formats, want 5", len(builtin))
	}
	for _, f := range builtin {
		for _, by := range []func() (format.Format, bool){
			func() (format.Format, bool) { return builtinByName(f.Name) },
			func() (format.Format, bool) { return builtinByMediaType(f.MediaType) },
			func() (format.Format, bool) { return builtinByRendering(f.Rendering) },
		} {
			if got, ok := by(); !ok || got != f {
				t.Errorf("lookup of %v = %+v, %v", f, got, ok)
			}
		}
	}
}

func TestBuiltinLookupMisses(t *testing.T) {
	tests := []struct {
		name string
		got  func() (format.Format, bool)
	}{
		{"unknown name", func() (format.Format, bool) { return builtinByName("csv") }},
		{"name in upper case", func() (format.Format, bool) { return builtinByName("JSON") }},
		{"empty name", func() (format.Format, bool) { return builtinByName("") }},
		{"unknown media type", func() (format.Format, bool) { return builtinByMediaType("text/csv") }},
		{"media type with parameters", func() (format.Format, bool) { return builtinByMediaType("text/plain; charset=utf-8") }},
		{"pass-through", func() (format.Format, bool) { return builtinByRendering(format.RenderingPassThrough) }},
		{"custom", func() (format.Format, bool) { return builtinByRendering(format.RenderingCustom) }},
		{"out of range", func() (format.Format, bool) { return builtinByRendering(200) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := tt.got(); ok || got != (format.Format{}) {
				t.Errorf("= %+v, %v; want none", got, ok)
			}
		})
	}
}

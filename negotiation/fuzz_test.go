package negotiation_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
)

func FuzzFromSettings(f *testing.F) {
	for _, c := range loadVectors(f) {
		if c.Settings != nil {
			f.Add([]byte(c.Settings))
		}
	}
	f.Add([]byte(`{"version":1,"features":"agent"}`))
	f.Add([]byte(`{"version":"1.0","features":[{"a":[1,2]},true,null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var settings any
		if json.Unmarshal(data, &settings) != nil {
			settings = json.RawMessage(data) // the decoder reports it
		}
		p := negotiation.FromSettings(settings)

		if !p.Declared() && (p.Rendering() != format.RenderingPassThrough || p.WantsHints() || p.Tags().Len() != 0) {
			t.Errorf("an undeclared profile acts on tags: %v", p)
		}
		if p.Format() != (format.Format{}) && p.Excludes(p.Format()) {
			t.Errorf("format %v is also excluded", p.Format())
		}
		if f := p.Format(); f != (format.Format{}) {
			want := map[string]format.Rendering{
				"json": format.RenderingStructured, "text": format.RenderingText, "markdown": format.RenderingMarkdown,
				"toon": format.RenderingTOON,
			}[f.Name]
			if p.Rendering() != want {
				t.Errorf("format %v gives rendering %v", f, p.Rendering())
			}
		}
		if p.MayElicit(false) {
			t.Error("MayElicit without the capability")
		}
		if p.Interactive() == negotiation.No && p.MayElicit(true) {
			t.Error("MayElicit for a client that said !interactive")
		}
		if p.Tags().Len() > 64 || len(p.Diagnostics()) > 2*64+2 {
			t.Errorf("unbounded result: %d tags, %d diagnostics", p.Tags().Len(), len(p.Diagnostics()))
		}
		_ = p.String()
	})
}

// FuzzFromAccept: any Accept header gives a profile for one of the media
// types the negotiator offers, or ErrNotAcceptable; never a panic.
func FuzzFromAccept(f *testing.F) {
	for _, s := range []string{"", "*/*", "text/plain, text/markdown", "*/*;q=0.5, text/*", "text/*;q=0, application/json;q=0.001",
		`text/plain;charset="utf-8";q=0.9;ext="a,b"`, "text/markdown;q=1.000, text/plain;q=1", "a/b,,c/d", "text/plain;q=0.5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		p, err := negotiation.FromAccept(accept)
		if err != nil {
			if !errors.Is(err, negotiation.ErrNotAcceptable) || p != nil {
				t.Fatalf("FromAccept(%q) = %v, %v", accept, p, err)
			}
			return
		}
		if !slices.Contains(negotiation.New(nil).MediaTypes(), p.MediaType()) {
			t.Fatalf("FromAccept(%q) chose %q", accept, p.MediaType())
		}
	})
}

package negotiation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
)

func TestFromAcceptMatchesTheFormatTag(t *testing.T) {
	tests := []struct {
		name   string
		accept string
		want   string // the format tag whose profile Accept must equal
	}{
		{"no header", "", "format=json"},
		{"any", "*/*", "format=json"},
		{"json", "application/json", "format=json"},
		{"markdown", "text/markdown", "format=markdown"},
		{"plain", "text/plain", "format=text"},
		{"charset parameter", "text/markdown; charset=utf-8", "format=markdown"},
		{"q-values choose text over markdown", "text/markdown;q=0.5, text/plain;q=0.9", "format=text"},
		{"q=0 excludes markdown from text/*", "text/*, text/markdown;q=0", "format=text"},
		{"q=0 excludes json from the wildcard", "application/json;q=0, */*;q=0.1", "format=markdown"},
		{"text wildcard ties go to the server's order", "text/*", "format=markdown"},
		{"the most specific range wins", "text/*;q=0.2, text/plain;q=0.8, */*;q=0.1", "format=text"},
		{"unknown types beside a known one", "application/xml, image/png;q=0.9, text/plain;q=0.1", "format=text"},
		{"browser-like", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "format=html"},
		{"browser without html", "application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "format=json"},
		{"html and markdown tie: markdown first", "text/html, text/markdown", "format=markdown"},
		{"case of the type", "Text/Markdown", "format=markdown"},
		{"toon", "text/toon", "format=toon"},
		{"toon with charset", "text/toon; charset=utf-8", "format=toon"},
		{"toon preferred by q", "text/plain;q=0.5, text/toon", "format=toon"},
		{"text wildcard without markdown and plain goes to toon", "text/*, text/markdown;q=0, text/plain;q=0", "format=toon"},
		// Equal quality and specificity: the server's order (json,
		// markdown, text), never the order the client listed them in.
		{"equal q: markdown before text, whatever the listing", "text/plain, text/markdown", "format=markdown"},
		{"equal q: json before markdown, whatever the listing", "text/markdown, application/json", "format=json"},
		{"equal q: text before toon, whatever the listing", "text/toon, text/plain", "format=text"},
		{"toon alone", "text/toon", "format=toon"},
		{"equal explicit q", "text/plain;q=0.5, text/markdown;q=0.5, application/json;q=0.4", "format=markdown"},
		{"equal q of one thousandth", "text/plain;q=0.001, application/json;q=0.001", "format=json"},
		{"q=1.000 spelled out", "text/plain;q=1.000, text/markdown;q=1", "format=markdown"},
		{"a wildcard below a type range", "*/*;q=0.5, text/*", "format=markdown"},
		{"specificity wins over the order", "text/markdown;q=0.5, text/*", "format=text"},
		{"specificity wins over the order, reversed", "text/*, text/markdown;q=0.5", "format=text"},
		{"q=0 excludes the server's first choice", "text/plain, text/markdown;q=0", "format=text"},
		{"q=0 on a wildcard leaves the named type", "*/*;q=0, text/plain;q=0.1", "format=text"},
		{"the charset the server serves", "text/plain;charset=utf-8, text/markdown;charset=utf-8", "format=markdown"},
		{"a charset the server does not serve", "text/markdown;charset=latin1, text/plain", "format=text"},
		{"an accept extension after q", "text/plain;q=0.9;ext=1, text/markdown;q=0.9", "format=markdown"},
		{"white space", "  text/plain ,\ttext/markdown  ", "format=markdown"},
		{"equal q: text before toon, whatever the listing", "text/toon, text/plain", "format=text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := negotiation.FromAccept(tt.accept)
			if err != nil {
				t.Fatalf("FromAccept(%q): %v", tt.accept, err)
			}
			want := negotiation.FromTags(tt.want)
			if got.String() != want.String() || got.MediaType() != want.MediaType() {
				t.Errorf("FromAccept(%q) = %s (%s), want %s (%s)", tt.accept, got, got.MediaType(), want, want.MediaType())
			}
		})
	}
}

func TestFromAcceptRefusesWhatItCannotRender(t *testing.T) {
	for _, accept := range []string{
		"application/xml",
		"image/png, application/xhtml+xml",
		"application/json;q=0, text/*;q=0",
		"*/*;q=0",
		"text/csv",
		"not a media type",
		"text/plain;q=2",
		"text/plain;q=0.5.",
		"text/plain;q=0.0001",
		"text/plain,",
		"text/plain;charset=\"utf-8",
		// Longer than any client sends: refused unread.
		strings.Repeat("text/plain, ", 1<<20) + "text/plain",
	} {
		p, err := negotiation.FromAccept(accept)
		if !errors.Is(err, negotiation.ErrNotAcceptable) || p != nil {
			t.Errorf("FromAccept(%.80q) = %v, %v; want nil and ErrNotAcceptable", accept, p, err)
		}
	}
}

func TestRegisteredFormatIsNegotiable(t *testing.T) {
	n := negotiation.New(nil)
	before := n.FromSettings(negotiation.Settings{Features: []string{"format=csv", "human"}}.Map())
	if before.Rendering() != format.RenderingMarkdown || len(before.Diagnostics()) != 1 {
		t.Fatalf("before registration: %s %v; want markdown with one diagnostic", before, before.Diagnostics())
	}
	if err := n.AddFormat("CSV", "text/csv"); err != nil {
		t.Fatal(err)
	}
	after := n.FromSettings(negotiation.Settings{Features: []string{"format=csv", "human"}}.Map())
	if after.Rendering() != format.RenderingCustom || after.MediaType() != "text/csv" || len(after.Diagnostics()) != 0 {
		t.Errorf("after registration: %s %q %v; want custom text/csv without diagnostics", after, after.MediaType(), after.Diagnostics())
	}
	viaAccept, err := n.FromAccept("text/csv, application/json;q=0.5")
	if err != nil || viaAccept.MediaType() != "text/csv" {
		t.Errorf("Accept: text/csv = %v, %v", viaAccept, err)
	}
	// Registered types come after the built-in ones at equal quality.
	if tie, err := n.FromAccept("text/csv, text/plain"); err != nil || tie.MediaType() != format.Text.MediaType {
		t.Errorf("Accept: text/csv, text/plain = %v, %v; want text/plain", tie, err)
	}
	if got := negotiation.FromTags("format=csv").Rendering(); got != format.RenderingPassThrough {
		t.Errorf("another negotiator sees format=csv as %s, want pass-through", got)
	}
}

func TestAddFormatRejectsBadRegistrations(t *testing.T) {
	tests := []struct{ name, format, mediaType string }{
		{"empty name", "", "text/csv"},
		{"built-in name", "markdown", "text/x-markdown"},
		{"toon is built in", "toon", "text/x-toon"},
		{"TOON in capitals is built in", "TOON", "application/toon"},
		{"text/toon is built in", "tn", "text/toon"},
		{"not a tag value", "c s v", "text/csv"},
		{"built-in media type", "md", "text/markdown"},
		{"not a media type", "csv", "csv"},
		{"wildcard", "any", "text/*"},
		{"parameters", "csv", "text/csv; header=present"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := negotiation.New(nil).AddFormat(tt.format, tt.mediaType); !errors.Is(err, negotiation.ErrFormat) {
				t.Errorf("AddFormat(%q, %q) = %v, want ErrFormat", tt.format, tt.mediaType, err)
			}
		})
	}
}

func TestMediaTypesInServerOrder(t *testing.T) {
	n := negotiation.New(nil)
	if err := n.AddFormat("csv", "text/csv"); err != nil {
		t.Fatal(err)
	}
	want := []string{"application/json", "text/markdown", "text/plain", "text/toon", "text/html", "text/csv"}
	got := n.MediaTypes()
	if len(got) != len(want) {
		t.Fatalf("MediaTypes() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("MediaTypes() = %v, want %v", got, want)
		}
		if name := n.FormatName(got[i]); n.FromSettings(negotiation.Settings{Features: []string{"format=" + name}}.Map()).MediaType() != got[i] {
			t.Errorf("FormatName(%q) = %q, whose profile does not get that media type", got[i], name)
		}
	}
}

// A long header within the limit is read whole: its last range counts.
func TestFromAcceptReadsALongHeader(t *testing.T) {
	accept := strings.Repeat("application/xml;q=0.9, ", 300) + "text/plain;q=0.1" // 7,216 bytes
	p, err := negotiation.FromAccept(accept)
	if err != nil || p.MediaType() != format.Text.MediaType {
		t.Errorf("FromAccept(%d bytes) = %v, %v; want text/plain", len(accept), p, err)
	}
}

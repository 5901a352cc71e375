package negotiation_test

import (
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
)

// scenario1 is the proposal's first scenario as the SDKs decode it.
func scenario1() map[string]any {
	return map[string]any{negotiation.ExtensionID: map[string]any{
		"version":  "1.0",
		"features": []any{"agent", "mcp-capable", "sampling", "elicitation", "roots", "tasks", "verbosity=compact", "format=json"},
	}}
}

// BenchmarkNegotiate measures a client's capability maps -> profile ->
// rendering, with logging off: the per-request cost in the stateless era.
func BenchmarkNegotiate(b *testing.B) {
	n := negotiation.New(nil)
	extensions := scenario1()
	b.ReportAllocs()
	for b.Loop() {
		if n.Negotiate(extensions, nil).Rendering() != format.RenderingStructured {
			b.Fatal("wrong rendering")
		}
	}
}

// BenchmarkNegotiateUndeclared is the cost for a client that did not declare
// the extension.
func BenchmarkNegotiateUndeclared(b *testing.B) {
	n := negotiation.New(nil)
	extensions := map[string]any{}
	b.ReportAllocs()
	for b.Loop() {
		if n.Negotiate(extensions, nil).Rendering() != format.RenderingPassThrough {
			b.Fatal("wrong rendering")
		}
	}
}

// BenchmarkProfileFromContext is the per-call lookup once a profile is known.
func BenchmarkProfileFromContext(b *testing.B) {
	ctx := negotiation.WithProfile(b.Context(), negotiation.FromTags("agent"))
	b.ReportAllocs()
	for b.Loop() {
		p, _ := negotiation.FromContext(ctx)
		if p.Rendering() != format.RenderingStructured {
			b.Fatal("wrong rendering")
		}
	}
}

// FromAccept with a browser's header and with a tie the server breaks.
func BenchmarkFromAccept(b *testing.B) {
	for _, accept := range []string{
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
		"text/plain, text/markdown",
	} {
		b.Run(accept, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := negotiation.FromAccept(accept); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

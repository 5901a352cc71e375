package clientcaps_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/internal/clientcaps"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

func TestRead(t *testing.T) {
	ext := map[string]any{negotiation.ExtensionID: map[string]any{"features": []any{"agent"}}}
	tests := []struct {
		name string
		give map[string]any
		want shaping.Capabilities
	}{
		{"nil", nil, shaping.Capabilities{}},
		{"empty", map[string]any{}, shaping.Capabilities{}},
		{"extensions and elicitation", map[string]any{"extensions": ext, "elicitation": map[string]any{}},
			shaping.Capabilities{Extensions: ext, Elicitation: true}},
		{"experimental", map[string]any{"experimental": ext}, shaping.Capabilities{Experimental: ext}},
		{"not objects count as absent", map[string]any{"extensions": []any{ext}, "experimental": "x"}, shaping.Capabilities{}},
		{"elicitation null is absent", map[string]any{"elicitation": nil}, shaping.Capabilities{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, clientcaps.Read(tt.give)); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

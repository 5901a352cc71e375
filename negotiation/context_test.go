package negotiation_test

import (
	"context"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
)

func TestContext(t *testing.T) {
	p := negotiation.FromTags("agent")
	tests := []struct {
		name   string
		give   context.Context
		want   *negotiation.Profile
		wantOK bool
	}{
		{"empty context", context.Background(), nil, false},
		{"with a profile", negotiation.WithProfile(context.Background(), p), p, true},
		{"with a nil profile", negotiation.WithProfile(context.Background(), nil), nil, false},
		{"inner profile wins", negotiation.WithProfile(negotiation.WithProfile(context.Background(), negotiation.FromTags("human")), p), p, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := negotiation.FromContext(tt.give)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("FromContext = %v, %v; want %v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	settings := map[string]any{"version": "1.0"}
	other := map[string]any{"version": "1.1"}
	tests := []struct {
		name         string
		extensions   map[string]any
		experimental map[string]any
		want         any
		wantOrigin   negotiation.Origin
	}{
		{"nothing", nil, nil, nil, negotiation.NotFound},
		{"extensions", map[string]any{negotiation.ExtensionID: settings}, nil, settings, negotiation.InExtensions},
		{"experimental", nil, map[string]any{negotiation.ExtensionID: settings}, settings, negotiation.InExperimental},
		{"extensions win over experimental", map[string]any{negotiation.ExtensionID: settings}, map[string]any{negotiation.ExtensionID: other}, settings, negotiation.InExtensions},
		{"a present null still counts as extensions", map[string]any{negotiation.ExtensionID: nil}, map[string]any{negotiation.ExtensionID: other}, nil, negotiation.InExtensions},
		{"other extensions only", map[string]any{"io.example/other": settings}, nil, nil, negotiation.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, origin := negotiation.Lookup(tt.extensions, tt.experimental)
			if origin != tt.wantOrigin {
				t.Errorf("origin = %v, want %v", origin, tt.wantOrigin)
			}
			gotMap, _ := got.(map[string]any)
			wantMap, _ := tt.want.(map[string]any)
			if gotMap["version"] != wantMap["version"] {
				t.Errorf("settings = %v, want %v", got, tt.want)
			}
		})
	}
}

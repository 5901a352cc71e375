package negotiation_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
)

// vector is one case of testdata/profiles.json, the profile vectors of the
// contract (SPEC sections 2 to 4).
type vector struct {
	Name     string          `json:"name"`
	Settings json.RawMessage `json:"settings"` // absent: the client did not declare the extension
	Want     struct {
		Declared    bool   `json:"declared"`
		Audience    string `json:"audience"`
		Format      string `json:"format"`
		Verbosity   string `json:"verbosity"`
		Interactive string `json:"interactive"`
		MCPCapable  string `json:"mcpCapable"`
		WantsHints  bool   `json:"wantsHints"`
		Rendering   string `json:"rendering"`
		Diagnostics bool   `json:"diagnostics"`
	} `json:"want"`
}

func loadVectors(tb testing.TB) []vector {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "profiles.json"))
	if err != nil {
		tb.Fatalf("read vectors: %v", err)
	}
	var doc struct {
		Cases []vector `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		tb.Fatalf("decode vectors: %v", err)
	}
	return doc.Cases
}

// decodeSettings decodes the settings the way the SDKs do (map[string]any,
// []any), and reports false when the case has no settings.
func decodeSettings(tb testing.TB, raw json.RawMessage) (any, bool) {
	tb.Helper()
	if raw == nil {
		return nil, false
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatalf("decode settings %s: %v", raw, err)
	}
	return v, true
}

func TestConformanceVectors(t *testing.T) {
	cases := loadVectors(t)
	if len(cases) != 47 {
		t.Fatalf("testdata/profiles.json has %d cases, want 47", len(cases))
	}
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			settings, present := decodeSettings(t, tt.Settings)
			extensions := map[string]any{}
			if present {
				extensions[negotiation.ExtensionID] = settings
			}
			p := negotiation.New(nil).Negotiate(extensions, nil)

			got := map[string]any{
				"declared":    p.Declared(),
				"audience":    p.Audience().String(),
				"format":      p.Format().String(),
				"verbosity":   p.Verbosity().String(),
				"interactive": p.Interactive().String(),
				"mcpCapable":  p.MCPCapable().String(),
				"wantsHints":  p.WantsHints(),
				"rendering":   p.Rendering().String(),
				"diagnostics": len(p.Diagnostics()) > 0,
			}
			want := map[string]any{
				"declared":    tt.Want.Declared,
				"audience":    tt.Want.Audience,
				"format":      tt.Want.Format,
				"verbosity":   tt.Want.Verbosity,
				"interactive": tt.Want.Interactive,
				"mcpCapable":  tt.Want.MCPCapable,
				"wantsHints":  tt.Want.WantsHints,
				"rendering":   tt.Want.Rendering,
				"diagnostics": tt.Want.Diagnostics,
			}
			for field, w := range want {
				if got[field] != w {
					t.Errorf("%s = %v, want %v (profile: %v; diagnostics: %v)", field, got[field], w, p, p.Diagnostics())
				}
			}
		})
	}
}

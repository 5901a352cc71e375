package negotiation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
)

func TestWithFormat(t *testing.T) {
	n := negotiation.New(nil)
	if err := n.AddFormat("csv", "text/csv"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		profile *negotiation.Profile
		give    string
		want    string
		wantErr string
	}{
		{"undeclared", nil, "markdown", "v1.0 audience=unknown format=markdown verbosity=unset interactive=unknown mcp-capable=unknown rendering=markdown", ""},
		{"keeps the other tags", negotiation.FromTags("agent", "verbosity=compact", "!interactive", "format=json", "format!=text"), "TEXT",
			"v1.0 audience=agent format=text verbosity=compact interactive=no mcp-capable=unknown rendering=text", ""},
		{"registered", nil, "csv", "v1.0 audience=unknown format=custom verbosity=unset interactive=unknown mcp-capable=unknown rendering=custom", ""},
		{"unknown", nil, "xml", "", `unknown format "xml"; choose one of json, markdown, text, toon, csv`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := n.WithFormat(tt.profile, tt.give)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, negotiation.ErrFormatName) {
					t.Fatalf("WithFormat(%q) error = %v, want %q", tt.give, err, tt.wantErr)
				}
				return
			}
			if err != nil || p.String() != tt.want {
				t.Errorf("WithFormat(%q) = %v, %v; want %s", tt.give, p, err, tt.want)
			}
		})
	}
}

func TestWithFormatKeepsTheLimitsGate(t *testing.T) {
	tags := make([]string, 70)
	for i := range tags {
		tags[i] = "x-t" + strings.Repeat("a", i%5) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	p, err := negotiation.New(nil).WithFormat(negotiation.FromTags(tags...), "text")
	if err != nil {
		t.Fatal(err)
	}
	if p.MayElicit(true) {
		t.Error("a client past the tag limit may elicit after the format argument")
	}
}

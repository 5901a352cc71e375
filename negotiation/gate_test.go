package negotiation_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
)

func TestElicitationGate(t *testing.T) {
	tests := []struct {
		name          string
		give          *negotiation.Profile
		hasCapability bool
		wantClosed    bool
		wantReason    string
	}{
		{"not declared, capability: the SDK decides", nil, true, false, ""},
		{"not declared, no capability: the SDK decides", nil, false, false, ""},
		{"unsupported version: the SDK decides", negotiation.FromSettings(map[string]any{"version": "2.0", "features": []any{"!interactive"}}), true, false, ""},
		{"declared, capability", negotiation.FromTags("agent"), true, false, ""},
		{"interactive, capability", negotiation.FromTags("interactive"), true, false, ""},
		{"not interactive", negotiation.FromTags("!interactive"), true, true, negotiation.ReasonNotInteractive},
		{"interactive and not: the negation wins", negotiation.FromTags("interactive", "!interactive"), true, true, negotiation.ReasonNotInteractive},
		{"the tag alone never opens it", negotiation.FromTags("interactive", "elicitation"), false, true, negotiation.ReasonNoCapability},
		{"declared, no capability", negotiation.FromTags("human"), false, true, negotiation.ReasonNoCapability},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			closed, reason := tt.give.ElicitationGate(tt.hasCapability)
			if closed != tt.wantClosed || reason != tt.wantReason {
				t.Errorf("ElicitationGate(%v) = %v, %q; want %v, %q", tt.hasCapability, closed, reason, tt.wantClosed, tt.wantReason)
			}
			if closed && tt.give.MayElicit(tt.hasCapability) {
				t.Error("the gate is closed, but MayElicit says yes")
			}
		})
	}
}

// declared is the settings of a client that declares version 1.0 with
// features as given (any JSON value, as an SDK decodes it).
func declared(features any) *negotiation.Profile {
	return negotiation.FromSettings(map[string]any{"version": "1.0", "features": features})
}

func TestMalformedDeclarationsCloseTheGate(t *testing.T) {
	// Every case has the real elicitation capability and, spelled right,
	// would declare "interactive" or nothing about it: each closes the gate
	// (contract section 2), in the hostile audit's spellings.
	withFormat := func(p *negotiation.Profile) *negotiation.Profile {
		out, err := negotiation.New(nil).WithFormat(p, "markdown")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	tests := []struct {
		name       string
		give       *negotiation.Profile
		wantReason string
	}{
		{"Cyrillic i", declared([]any{"human", "!\u0456nteractive"}), negotiation.ReasonMalformed},
		{"trailing no-break space", declared([]any{"human", "!interactive\u00a0"}), negotiation.ReasonMalformed},
		{"trailing zero-width space", declared([]any{"human", "!interactive\u200b"}), negotiation.ReasonMalformed},
		{"fullwidth exclamation mark", declared([]any{"human", "\uff01interactive"}), negotiation.ReasonMalformed},
		{"padded past 128 bytes", declared([]any{"human", "!interactive" + strings.Repeat("\u200b", 40)}), negotiation.ReasonMalformed},
		{"padded past 128 bytes with ASCII spaces", declared([]any{"human", "!interactive" + strings.Repeat(" ", 130)}), negotiation.ReasonMalformed},
		{"an element that is not a string", declared([]any{"human", map[string]any{"!interactive": true}}), negotiation.ReasonMalformed},
		{"a registry name in the wrong form", declared([]any{"interactive=no"}), negotiation.ReasonMalformed},
		{"past the tag limit", declared(append(make([]any, 64), "!interactive")), negotiation.ReasonTooManyTags},
		{"features an object", declared(map[string]any{"interactive": false}), negotiation.ReasonMalformed},
		{"features a number", declared(0.0), negotiation.ReasonMalformed},
		{"features a string with the negation", declared("human, !interactive"), negotiation.ReasonMalformed},
		{"features a string without it", declared("human, interactive"), negotiation.ReasonMalformed},
		{"settings a list", negotiation.FromSettings([]any{"human", "!interactive"}), negotiation.ReasonMalformed},
		{"settings a string", negotiation.FromSettings("human, !interactive"), negotiation.ReasonMalformed},
		{"settings a raw JSON list", negotiation.FromSettings(json.RawMessage(`["!interactive"]`)), negotiation.ReasonMalformed},
		{"version a number", negotiation.FromSettings(map[string]any{"version": 1.0, "features": []any{"!interactive"}}), negotiation.ReasonMalformed},
		{"malformed, then a per-call format", withFormat(declared([]any{"human", "!\u0456nteractive"})), negotiation.ReasonMalformed},
		{"past the limit, then a per-call format", withFormat(declared(append(make([]any, 64), "!interactive"))), negotiation.ReasonTooManyTags},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.give.Declared() {
				t.Fatalf("not declared: %v", tt.give.Diagnostics())
			}
			closed, reason := tt.give.ElicitationGate(true)
			if !closed || reason != tt.wantReason {
				t.Errorf("ElicitationGate(true) = %v, %q; want closed, %q", closed, reason, tt.wantReason)
			}
			if tt.give.MayElicit(true) {
				t.Error("MayElicit(true) says yes")
			}
			if !tt.give.Malformed() {
				t.Error("Malformed() says no")
			}
		})
	}
}

func TestWellFormedDeclarationsKeepTheGateOpen(t *testing.T) {
	tests := []struct {
		name string
		give *negotiation.Profile
	}{
		{"interactive", declared([]any{"human", "interactive"})},
		{"trimmed ASCII white space", declared([]any{" human ", "\tinteractive"})},
		{"an unknown registry value", declared([]any{"format=xml", "interactive"})},
		{"an unknown name", declared([]any{"x-acme", "frobnicate"})},
		{"both audiences", declared([]any{"agent", "human"})},
		{"no version", negotiation.FromSettings(map[string]any{"features": []any{"human"}})},
		{"no features", negotiation.FromSettings(map[string]any{"version": "1.0"})},
		{"null features", declared(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if closed, reason := tt.give.ElicitationGate(true); closed || tt.give.Malformed() {
				t.Errorf("closed with %q; diagnostics %v", reason, tt.give.Diagnostics())
			}
		})
	}
}

func TestRefusalStrings(t *testing.T) {
	if got := negotiation.Decline.String(); got != "decline" {
		t.Errorf("Decline = %q", got)
	}
	if got := negotiation.Cancel.String(); got != "cancel" {
		t.Errorf("Cancel = %q", got)
	}
}

func TestFromDefault(t *testing.T) {
	n := negotiation.New(nil)
	def, err := n.Default(negotiation.Settings{Features: []string{"format=json"}})
	if err != nil {
		t.Fatal(err)
	}
	withFormat, err := n.WithFormat(def, "markdown")
	if err != nil {
		t.Fatal(err)
	}
	own, err := n.WithFormat(negotiation.FromTags("format=json"), "json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		give *negotiation.Profile
		want bool
	}{
		{"the default tags", def, true},
		{"the default tags, a per-call format", withFormat, true},
		{"a client's own tags", negotiation.FromTags("format=json"), false},
		{"a client's own tags, a per-call format", own, false},
		{"not declared", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.give.FromDefault(); got != tt.want {
				t.Errorf("FromDefault() = %v, want %v", got, tt.want)
			}
		})
	}
}

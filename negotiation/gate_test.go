package negotiation_test

import (
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

func TestRefusalStrings(t *testing.T) {
	if got := negotiation.Decline.String(); got != "decline" {
		t.Errorf("Decline = %q", got)
	}
	if got := negotiation.Cancel.String(); got != "cancel" {
		t.Errorf("Cancel = %q", got)
	}
}

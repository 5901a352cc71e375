package negotiation_test

import (
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/negotiation"
)

func observed(level zapcore.Level) (*negotiation.Negotiator, *observer.ObservedLogs) {
	core, logs := observer.New(level)
	return negotiation.New(zap.New(core)), logs
}

func TestNegotiatorLogsOneLinePerNegotiation(t *testing.T) {
	tests := []struct {
		name      string
		give      map[string]any
		wantLevel zapcore.Level
		wantMsg   string
	}{
		{"not declared", nil, zap.DebugLevel, "extension not declared"},
		{"clean", map[string]any{"version": "1.0", "features": []any{"agent"}}, zap.DebugLevel, "profile negotiated"},
		{"with diagnostics", map[string]any{"version": "1.0", "features": []any{"@", "format==json", "agent"}}, zap.WarnLevel, "profile negotiated with diagnostics"},
		{"unsupported version", map[string]any{"version": "2.0"}, zap.WarnLevel, "profile negotiated with diagnostics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, logs := observed(zap.DebugLevel)
			extensions := map[string]any{}
			if tt.give != nil {
				extensions[negotiation.ExtensionID] = tt.give
			}
			n.Negotiate(extensions, nil)
			entries := logs.All()
			if len(entries) != 1 {
				t.Fatalf("%d log lines, want 1: %v", len(entries), entries)
			}
			if e := entries[0]; e.Level != tt.wantLevel || e.Message != tt.wantMsg || e.LoggerName != "negotiation" {
				t.Errorf("logged %v %q from %q, want %v %q from negotiation", e.Level, e.Message, e.LoggerName, tt.wantLevel, tt.wantMsg)
			}
		})
	}
}

func TestNegotiatorLogsQuotedDiagnosticsAndTheProfile(t *testing.T) {
	n, logs := observed(zap.DebugLevel)
	n.Negotiate(map[string]any{negotiation.ExtensionID: map[string]any{
		"version": "1.0", "features": []any{"agent", "evil\n{\"level\":\"error\"}"},
	}}, nil)
	entry := logs.All()[0]
	fields := entry.ContextMap()
	diags, _ := fields["diagnostics"].([]any)
	if len(diags) != 1 {
		t.Fatalf("diagnostics field = %#v, want one entry", fields["diagnostics"])
	}
	line, _ := diags[0].(string)
	if strings.Contains(line, "\n") || !strings.Contains(line, `evil\n`) {
		t.Errorf("diagnostic not quoted: %q", line)
	}
	profile, _ := fields["profile"].(map[string]any)
	if profile["audience"] != "agent" || profile["rendering"] != "structured" || profile["declared"] != true {
		t.Errorf("profile field = %v", profile)
	}
}

func TestNegotiatorReadsExperimentalOnlyAsAFallback(t *testing.T) {
	n, logs := observed(zap.DebugLevel)
	settings := map[string]any{"version": "1.0", "features": []any{"human"}}
	p := n.Negotiate(nil, map[string]any{negotiation.ExtensionID: settings})
	if p.Audience() != negotiation.Human {
		t.Errorf("experimental settings not read: %v", p)
	}
	if origin := logs.All()[0].ContextMap()["origin"]; origin != "experimental" {
		t.Errorf("origin = %v, want experimental", origin)
	}
	p = n.Negotiate(map[string]any{negotiation.ExtensionID: map[string]any{"version": "1.0", "features": []any{"agent"}}},
		map[string]any{negotiation.ExtensionID: settings})
	if p.Audience() != negotiation.Agent {
		t.Errorf("experimental settings won over extensions: %v", p)
	}
}

func TestNegotiatorDefaultsToNop(t *testing.T) {
	for _, log := range []*zap.Logger{nil, zap.NewNop()} {
		p := negotiation.New(log).Negotiate(map[string]any{negotiation.ExtensionID: map[string]any{"features": []any{"@"}}}, nil)
		if !p.Declared() {
			t.Errorf("New(%v): profile not declared", log)
		}
	}
}

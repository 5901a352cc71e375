package main

import "testing"

func TestUnseal(t *testing.T) {
	good := seal("round2:\"Ada\"")
	tests := []struct {
		name    string
		state   string
		payload string
		ok      bool
	}{
		{"a state this server made", good, "round2:\"Ada\"", true},
		{"the suite's tampering: a suffix", good + "-TAMPERED", "", false},
		{"a changed payload", "round2:\"Eve\"" + good[len("round2:\"Ada\""):], "", false},
		{"no MAC at all", "round1", "", false},
		{"empty", "", "", false},
		{"a MAC of another key", "round1.AAAA", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			payload, ok := unseal(tt.state)
			if ok != tt.ok || (ok && payload != tt.payload) {
				t.Errorf("unseal(%q) = %q, %v; want %q, %v", tt.state, payload, ok, tt.payload, tt.ok)
			}
		})
	}
}

package weather

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		giveA string
		giveB string
		want  int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"bern", "bern", 0},
		{"bern", "bernn", 1},
		{"bern", "brn", 1},
		{"bern", "bren", 1}, // one swap
		{"bern", "bergen", 2},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // no substring is edited twice
		{"são", "sao", 1},
		{"tokio", "tokyo", 1},
	}
	for _, tt := range tests {
		a, b := []rune(tt.giveA), []rune(tt.giveB)
		if got := distance(a, b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.giveA, tt.giveB, got, tt.want)
		}
		if got := distance(b, a); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.giveB, tt.giveA, got, tt.want)
		}
	}
}

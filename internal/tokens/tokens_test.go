package tokens

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		give string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{`{"location":"Bern"}`, 5},
	}
	for _, tt := range tests {
		if got := Count(tt.give); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.give, got, tt.want)
		}
	}
}

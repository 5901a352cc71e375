package matrix_test

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/matrix"
)

// TestCountTokens runs offline: TestMain points every proxy at a closed port
// and the download cache at an empty directory, and fails if anything is
// written there.
func TestCountTokens(t *testing.T) {
	tests := []struct {
		give string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"Bern, Switzerland", 3},
		{`{"city":"Bern"}`, 5},
		{"<|endoftext|>", 7}, // a special token counts as ordinary text
		{"\xff\xfe", 1},      // invalid UTF-8 is counted (as U+FFFD), not refused
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, approx, err := matrix.CountTokens(tt.give)
			if err != nil || approx || got != tt.want {
				t.Errorf("CountTokens(%q) = %d, %v, %v; want %d, exact", tt.give, got, approx, err, tt.want)
			}
		})
	}
}

func TestCountTokensOfALongText(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes more than a MiB")
	}
	line := "Bern: light rain, 5.3 °C, wind 10.7 km/h from SW.\n"
	text := strings.Repeat(line, matrix.MaxTokenizeBytes/len(line)+100)
	got, approx, err := matrix.CountTokens(text)
	if err != nil || !approx {
		t.Fatalf("CountTokens = %d, %v, %v; want an approximate count", got, approx, err)
	}
	one, _, _ := matrix.CountTokens(line)
	want := one * (matrix.MaxTokenizeBytes/len(line) + 100)
	if got < want*95/100 || got > want*105/100 {
		t.Errorf("CountTokens = %d, want about %d", got, want)
	}
}

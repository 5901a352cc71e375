package journey

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{"Zürich HB", "zurichhb"},
		{"zurich-hb", "zurichhb"},
		{"ZÜRICH  hb", "zurichhb"},
		{"Genève-Aéroport", "geneveaeroport"},
		{"St. Gallen", "stgallen"},
		{"Biel/Bienne", "bielbienne"},
		{"Neuchâtel", "neuchatel"},
		{"Bâle", "bale"},
		{"Straße", "strasse"},
		{"Łódź", "łodź"}, // only the accents of Swiss names are folded
		{"...", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := normalize(tt.give); got != tt.want {
				t.Errorf("normalize(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"bern", "", 4},
		{"", "bern", 4},
		{"bern", "bern", 0},
		{"bern", "berne", 1},
		{"zurch", "zurich", 1},
		{"lucern", "luzern", 1},
		{"kitten", "sitting", 3},
		{"łodz", "lodz", 1},
	}
	for _, tt := range tests {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			if got := editDistance(tt.a, tt.b); got != tt.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := editDistance(tt.b, tt.a); got != tt.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string // part of the error; "" for none
	}{
		{"plain", "Bern", ""},
		{"longest", strings.Repeat("a", MaxNameLen), ""},
		{"empty", "", "empty"},
		{"too long", strings.Repeat("a", MaxNameLen+1), "101 bytes long"},
		{"invalid UTF-8", "Bern\xff", "not valid UTF-8"},
		{"NUL", "Be\x00rn", "control characters"},
		{"newline", "Be\nrn", "control characters"},
		{"DEL", "Bern\x7f", "control characters"},
		{"C1 control", "Bern\u0085", "control characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkName(tt.give)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("checkName: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("checkName = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

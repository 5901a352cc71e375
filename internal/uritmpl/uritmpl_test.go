package uritmpl_test

import (
	"testing"

	"github.com/contentneg/contentneg/internal/uritmpl"
)

func TestMatches(t *testing.T) {
	tests := []struct {
		template, uri string
		want          bool
	}{
		{"weather://{city}", "weather://bern", true},
		{"weather://{city}", "weather://bern/report", false},
		{"weather://{city}", "other://bern", false},
		{"weather://cities", "weather://cities", true},
		{"weather://{city", "weather://bern", false}, // does not parse
		{"", "", true},
	}
	for _, tt := range tests {
		if got := uritmpl.Matches(tt.template, tt.uri); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.template, tt.uri, got, tt.want)
		}
	}
}

func TestSet(t *testing.T) {
	var s uritmpl.Set
	for _, name := range []string{"weather://{city}", "plain://name", "weather://{city}", "bad://{x", "{any}://{x}"} {
		s.Add(name)
	}
	var got []string
	s.Match("weather://bern", func(name string) bool { got = append(got, name); return true })
	if len(got) != 2 || got[0] != "weather://{city}" || got[1] != "{any}://{x}" {
		t.Errorf("matches %q, want the two templates in the order added", got)
	}
	got = got[:0]
	s.Match("weather://bern", func(name string) bool { got = append(got, name); return false })
	if len(got) != 1 {
		t.Errorf("matches %q after yield returned false, want 1", got)
	}
}

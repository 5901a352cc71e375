package behaviour

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestREADMEStatesWhatAgentsGet: the README's table of what a client gets
// says what the cases (run on both SDKs and both eras by TestBehaviour)
// check: "agent" alone gets structuredContent with one JSON text block, a
// "format=json" client structuredContent and no text block. When a case's
// expectation changes, this fails until the README says the same.
func TestREADMEStatesWhatAgentsGet(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tags   []string
		blocks int // text blocks beside structuredContent
		row    string
	}{
		{[]string{"agent"}, 1, "| `agent` | structuredContent, with its JSON mirrored in one text block |"},
		{[]string{"agent", "format=json", "verbosity=compact"}, 0, "| `format=json` (`agent`, `format=json`, `verbosity=compact` in the demo) | structuredContent alone, no text block |"},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(Cases, func(c Case) bool { return c.Tool == "get_weather" && slices.Equal(c.Tags, tt.tags) })
		if i < 0 {
			t.Fatalf("no get_weather case declares %v", tt.tags)
		}
		if w := Cases[i].Want; !w.Structured || w.Blocks != tt.blocks {
			t.Errorf("%v: the case wants structured %v with %d block(s); the README says %d", tt.tags, w.Structured, w.Blocks, tt.blocks)
		}
		if !strings.Contains(string(readme), tt.row+"\n") {
			t.Errorf("README.md lacks the row %s", tt.row)
		}
	}
}

package featuretags_test

import (
	"testing"

	"github.com/contentneg/contentneg/featuretags"
)

// scenario1 is the tag list of the proposal's first scenario: an agent with
// full capabilities.
var scenario1 = []string{"agent", "mcp-capable", "sampling", "elicitation", "roots", "tasks", "verbosity=compact", "format=json"}

// BenchmarkParse is the budget's benchmark: at most 300 ns (CPU time) and
// one allocation for the 8 tags of scenario 1.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		set, _ := featuretags.Parse(scenario1)
		if set.Len() != len(scenario1) {
			b.Fatal("tags lost")
		}
	}
	reportCPU(b, start)
}

func BenchmarkParseValue(b *testing.B) {
	features := make([]any, len(scenario1))
	for i, s := range scenario1 {
		features[i] = s
	}
	b.ReportAllocs()
	for b.Loop() {
		featuretags.ParseValue(features)
	}
}

func BenchmarkQuery(b *testing.B) {
	set, _ := featuretags.Parse(scenario1)
	b.ReportAllocs()
	for b.Loop() {
		v, _ := set.Value("format")
		if !set.Has("agent") || set.Negated("interactive") || v != "json" || set.Excludes("format", "markdown") {
			b.Fatal("wrong answer")
		}
	}
}

func TestParseAllocations(t *testing.T) {
	set, _ := featuretags.Parse(scenario1)
	tests := []struct {
		name string
		give func()
		want float64
	}{
		{"parse scenario 1", func() { featuretags.Parse(scenario1) }, 1},
		{"query a parsed set", func() {
			set.Has("agent")
			set.Negated("interactive")
			set.Value("format")
			set.Excludes("format", "markdown")
			for range set.All() {
			}
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testing.AllocsPerRun(100, tt.give); got > tt.want {
				t.Errorf("allocations per run = %v, want at most %v", got, tt.want)
			}
		})
	}
}

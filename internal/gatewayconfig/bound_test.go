package gatewayconfig_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/gatewayconfig"
	"github.com/contentneg/contentneg/internal/yamlrefuse"
)

// MaxParseBytes is the most a config file's parse allocates, whatever the
// file (at most gatewayconfig.MaxSize bytes): the figure docs/decisions.md
// states. The worst files measured (worstCases) allocate about 65 MB;
// the figure leaves room for what the runtime and the fuzzer add.
const MaxParseBytes = 128 << 20

// bytesAllocated returns the bytes f allocates on the heap.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestParseRefusesDeepFilesBeforeTheParser: the files of issue 28, which
// the YAML parser took 129 MB, 1.6 GB and 7.4 GB for, are refused with the
// file, line and column where they nest too deep, and allocate next to
// nothing.
func TestParseRefusesDeepFilesBeforeTheParser(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{"8,000 [", strings.Repeat("[", 8000), "c.yaml:1:64: YAML: nested deeper than 64 levels"},
		{"32,000 [", strings.Repeat("[", 32000), "c.yaml:1:64: YAML: nested deeper than 64 levels"},
		{"240 KB of {a: ", strings.Repeat("{a: ", 60000), "c.yaml:1:253: YAML: nested deeper than 64 levels"},
		{"deep under a key", "tools:\n  echo:\n    title: " + strings.Repeat("[", 100), "c.yaml:3:73: YAML: nested deeper than 64 levels"},
		{"17 documents", strings.Repeat("--- {}\n", 17), "c.yaml:17:1: YAML: more than 16 YAML document markers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.give)
			var err error
			allocated := bytesAllocated(func() { _, err = gatewayconfig.Parse("c.yaml", data) })
			var ce *gatewayconfig.Error
			if !errors.As(err, &ce) || ce.Line == 0 || ce.Column == 0 {
				t.Fatalf("error %v, want a *gatewayconfig.Error with a line and a column", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q, want %q", err, tt.want)
			}
			if allocated > 64<<10 {
				t.Errorf("Parse allocated %d bytes, want at most 64 KiB", allocated)
			}
		})
	}
}

// worstCases are files within every bound of yamlrefuse.Bound that cost
// the parser the most per byte, each as large as the bounds allow.
func worstCases() map[string]string {
	distinct := func(n int, format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	group := strings.Repeat("[", yamlrefuse.MaxDepth-2) + strings.Repeat("]", yamlrefuse.MaxDepth-2)
	return map[string]string{
		"a block sequence of 49,000 entries":      strings.Repeat("- a\n", 49000),
		"flow sequences 62 deep, 100,000 tokens":  "[" + strings.Repeat(group+",", 790) + "]",
		"a flow sequence of 24,000 mappings":      "[" + distinct(24000, "k%d: b,") + "]",
		"a block mapping of 1,990 keys":           distinct(1990, "k%d: b\n"),
		"20 block mappings of 440 keys":           strings.Repeat("- "+strings.TrimSuffix(distinct(440, "k%d: b\n  "), "  "), 20),
		"a block scalar of 256 KiB of [":          "a: |\n" + strings.Repeat("  "+strings.Repeat("[", 100)+"\n", 2540),
		"mappings 63 deep":                        nestedMappings(yamlrefuse.MaxDepth-1, 100),
		"block sequences 63 deep, 47,000 entries": strings.Repeat(strings.Repeat("- ", yamlrefuse.MaxDepth-1)+"a\n", 750),
	}
}

func nestedMappings(depth, times int) string {
	var b strings.Builder
	for t := range times {
		for i := range depth {
			fmt.Fprintf(&b, "%sa%d:\n", strings.Repeat(" ", i), t)
		}
		b.WriteString(strings.Repeat(" ", depth) + "b\n")
	}
	return b.String()
}

// TestConfigBoundFigure: every worst case parses (to a config or an
// error) within MaxParseBytes. go test -v prints what each allocates: the
// figures of docs/decisions.md.
func TestConfigBoundFigure(t *testing.T) {
	for name, data := range worstCases() {
		t.Run(name, func(t *testing.T) {
			if len(data) > gatewayconfig.MaxSize {
				t.Fatalf("%d bytes, more than a config file holds", len(data))
			}
			allocated := checkParseBound(t, []byte(data))
			t.Logf("%d bytes: %.1f MB allocated", len(data), float64(allocated)/1e6)
		})
	}
}

// checkParseBound fails t when parsing data allocates more than
// MaxParseBytes, and returns what it allocated.
func checkParseBound(t *testing.T, data []byte) uint64 {
	t.Helper()
	var err error
	allocated := bytesAllocated(func() { _, err = gatewayconfig.Parse("c.yaml", data) })
	if allocated > MaxParseBytes {
		t.Errorf("Parse allocated %d bytes (%v), want at most %d: %.200q", allocated, err, MaxParseBytes, data)
	}
	return allocated
}

// FuzzConfigBound: no config file of at most MaxSize bytes makes the parse
// allocate more than MaxParseBytes.
func FuzzConfigBound(f *testing.F) {
	example, err := os.ReadFile(exampleConfig)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(strings.Repeat("[", 100)))
	f.Add([]byte(strings.Repeat("{a: ", 100)))
	f.Add([]byte("tools:\n  echo:\n    templates:\n      markdown: |\n        [[[ don't\n    markdown: true\n"))
	f.Add([]byte(strings.Repeat("- ", 70) + "a\n"))
	f.Add([]byte("a: &x [*x, !t b]\n---\nb: 1\n...\n"))
	for _, name := range []string{"a block mapping of 1,990 keys", "20 block mappings of 440 keys"} {
		f.Add([]byte(worstCases()[name]))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > gatewayconfig.MaxSize {
			return
		}
		checkParseBound(t, data)
	})
}

package journeymcp_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/renderers"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with the file testdata/name byte for byte, or
// rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("update %s: %v", path, err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (rewrite it with -update): %v", path, err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got; rewrite it with -update):\n%s", path, diff)
	}
}

// TestGoldenItineraries renders find_connections Zürich HB → Brig at
// 08:00 (a direct train, a connection changing at Bern, and a direct train
// again) for each kind of client, in both eras: the same bytes each time.
func TestGoldenItineraries(t *testing.T) {
	tests := []struct {
		name  string
		tags  []string
		check func(string) error
	}{
		{"zurich-brig.golden.md", []string{"human"}, renderers.CheckMarkdown},
		{"zurich-brig.verbose.golden.md", []string{"human", "verbosity=verbose"}, renderers.CheckMarkdown},
		{"zurich-brig.compact.golden.md", []string{"format=markdown", "verbosity=compact"}, renderers.CheckMarkdown},
		{"zurich-brig.compact.golden.txt", []string{"format=text", "verbosity=compact"}, renderers.CheckPlain},
		{"zurich-brig.golden.txt", []string{"format=text"}, renderers.CheckPlain},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				got := text(t, call(t, connect(t, e.legacy, tt.tags), withChange))
				if err := tt.check(got); err != nil {
					t.Errorf("check: %v\n%s", err, got)
				}
				golden(t, tt.name, got)
			})
		}
	}
}

package cmdline_test

import (
	"slices"
	"testing"

	"github.com/contentneg/contentneg/internal/cmdline"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		give string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{"human", []string{"human"}},
		{" human, format=markdown ", []string{"human", "format=markdown"}},
	}
	for _, tt := range tests {
		if got := cmdline.SplitList(tt.give); !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("SplitList(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

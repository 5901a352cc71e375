package hints_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/contentneg/contentneg/internal/hints"
)

func TestCollector(t *testing.T) {
	var h hints.Collector
	h.Add("a", "", "b")
	if got := h.All(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("All() = %q, want the non-empty hints in order", got)
	}
	for i := range 40 {
		h.Add(fmt.Sprint(i))
	}
	if n := len(h.All()); n != 32 {
		t.Errorf("%d hints kept, want 32", n)
	}
	var none *hints.Collector
	if got := none.All(); got != nil {
		t.Errorf("nil collector: All() = %q", got)
	}
}

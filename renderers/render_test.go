package renderers

import (
	"testing"

	"github.com/contentneg/contentneg/format"
)

func TestOrStandard(t *testing.T) {
	if got := orStandard(format.Verbosity(0)); got != format.Standard {
		t.Errorf("orStandard(unset) = %v", got)
	}
	if got := orStandard(format.Compact); got != format.Compact {
		t.Errorf("orStandard(compact) = %v", got)
	}
}

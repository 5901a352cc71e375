package renderers

import (
	"flag"
	"testing"

	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/interopskip"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(interopskip.Main(m))
}

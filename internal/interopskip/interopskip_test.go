package interopskip_test

import (
	"testing"

	"github.com/contentneg/contentneg/internal/interopskip"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name              string
		binaries, reasons []string
		want              string
	}{
		{name: "none", want: "interop: no test skipped"},
		{
			name:     "one test",
			binaries: []string{"renderers.test"},
			reasons:  []string{"node is not installed"},
			want:     "interop: 1 test skipped (renderers.test): node is not installed (CONTENTNEG_REQUIRE_INTEROP=1 fails them instead)",
		},
		{
			name:     "one reason",
			binaries: []string{"gateway.test", "gateway.test"},
			reasons:  []string{"node is not installed", "node is not installed"},
			want:     "interop: 2 tests skipped (gateway.test): node is not installed (CONTENTNEG_REQUIRE_INTEROP=1 fails them instead)",
		},
		{
			name:     "the most frequent reason first",
			binaries: []string{"typescript.test", "gateway.test", "gateway.test"},
			reasons:  []string{"npm ci in interop/typescript", "npm ci\n in interop/servers", "npm ci in interop/servers"},
			want:     "interop: 3 tests skipped (gateway.test, typescript.test): npm ci in interop/servers; and 1 other reason (CONTENTNEG_REQUIRE_INTEROP=1 fails them instead)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := interopskip.Line(len(tt.reasons), tt.binaries, tt.reasons); got != tt.want {
				t.Errorf("Line:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

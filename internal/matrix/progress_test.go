package matrix_test

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/matrix"
)

func TestProgress(t *testing.T) {
	steps := []matrix.Step{
		{Index: 1, Total: 2, Profile: matrix.Profile{Name: "undeclared"}},
		{Index: 2, Total: 2, Profile: matrix.Profile{Name: "agent"}},
	}
	tests := []struct {
		name         string
		giveTerminal bool
		want         string
	}{
		{"plain lines", false, "[1/2] undeclared ...\n[2/2] agent ...\n"},
		{"terminal", true, "\r[1/2] undeclared ...\r[2/2] agent ...     " + "\r" + strings.Repeat(" ", len("[2/2] agent ...")) + "\r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			p := matrix.NewProgress(&out, tt.giveTerminal)
			for _, s := range steps {
				p.Step(s)
			}
			p.Finish()
			if out.String() != tt.want {
				t.Errorf("progress %q, want %q", out.String(), tt.want)
			}
		})
	}
}

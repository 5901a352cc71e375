package cmdline

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		give    string
		want    []string
		wantErr error
	}{
		{"go run ./cmd/demo-weather -stdio", []string{"go", "run", "./cmd/demo-weather", "-stdio"}, nil},
		{"  spaced \t out\n", []string{"spaced", "out"}, nil},
		{`server --name 'two words' "and \"quoted\""`, []string{"server", "--name", "two words", `and "quoted"`}, nil},
		{`a\ b 'it''s' ""`, []string{"a b", "its", ""}, nil},
		{`"keep \n and \\ and \$HOME" '$HOME'`, []string{`keep \n and \ and $HOME`, "$HOME"}, nil},
		{"", nil, nil},
		{`'open`, nil, ErrUnterminated},
		{`"open`, nil, ErrUnterminated},
		{`trailing\`, nil, ErrUnterminated},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, err := Split(tt.give)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Split(%q) error %v, want %v", tt.give, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

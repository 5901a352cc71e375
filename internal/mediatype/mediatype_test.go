package mediatype_test

import (
	"testing"

	"github.com/contentneg/contentneg/internal/mediatype"
)

func TestBase(t *testing.T) {
	tests := []struct{ give, want string }{
		{"text/markdown", "text/markdown"},
		{"Text/Markdown", "text/markdown"},
		{"text/markdown; charset=utf-8", "text/markdown"},
		{" application/json ", "application/json"},
		{"\ttext/plain", "text/plain"},
		{"application/vnd.x+json;v=1", "application/vnd.x+json"},
		{"not a type;;", "not a type;;"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := mediatype.Base(tt.give); got != tt.want {
			t.Errorf("Base(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

func TestBaseAllocatesNothingForAPlainType(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = mediatype.Base("text/markdown") }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

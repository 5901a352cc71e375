package gostruct_test

import (
	"testing"

	"github.com/contentneg/contentneg/internal/gostruct"
)

func TestIs(t *testing.T) {
	type s struct{ A int }
	var nilPtr *s
	tests := []struct {
		give any
		want bool
	}{
		{s{}, true},
		{&s{}, true},
		{nilPtr, true},
		{map[string]any{"a": 1}, false},
		{[]byte(`{}`), false},
		{nil, false},
		{3, false},
	}
	for _, tt := range tests {
		if got := gostruct.Is(tt.give); got != tt.want {
			t.Errorf("Is(%#v) = %v, want %v", tt.give, got, tt.want)
		}
	}
}

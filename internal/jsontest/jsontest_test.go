package jsontest_test

import (
	"testing"

	"github.com/contentneg/contentneg/internal/jsontest"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b    string
		ordered bool
		same    bool
	}{
		{`{"price":1.50}`, `{"price":1.5}`, false, true},
		{`12345678901234567890`, `12345678901234567000`, false, false},
		{`1e-7`, `0.0000001`, false, true},
		{`-0`, `0`, false, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true, false},
		{`{"a":1,"a":2}`, `{"a":2}`, true, true},
		{`[1,2]`, `[2,1]`, false, false},
		{`"1"`, `1`, false, false},
		{`null`, `{}`, false, false},
		{`{"a":1}`, `{"a":1}x`, false, false},
	}
	for _, tt := range tests {
		diff := (jsontest.Compare{Ordered: tt.ordered}).Texts([]byte(tt.a), []byte(tt.b))
		if (diff == "") != tt.same {
			t.Errorf("%s vs %s (ordered %v): diff %q, want same %v", tt.a, tt.b, tt.ordered, diff, tt.same)
		}
	}
}

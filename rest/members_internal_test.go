package rest

import (
	"errors"
	"strings"
	"testing"
)

func TestMembers(t *testing.T) {
	many := "{" + strings.Repeat(`"k":1,`, maxMembers) + `"k":1}`
	tests := []struct {
		name, give string
		want       map[string]string
		err        error
	}{
		{"null", " null ", nil, nil},
		{"empty", "", nil, nil},
		{"an object", ` {"a": [1, {"b":2}] , "c":"d"} `, map[string]string{"a": `[1, {"b":2}]`, "c": `"d"`}, nil},
		{"a later duplicate wins", `{"a":1,"a":2}`, map[string]string{"a": "2"}, nil},
		{"escaped keys", `{"\u00e9\n":true}`, map[string]string{"é\n": "true"}, nil},
		{"invalid UTF-8 in a key, one U+FFFD per byte", "{\"a\xff\xfe\":1}", map[string]string{"a\uFFFD\uFFFD": "1"}, nil},
		{"an array", `[1]`, nil, errNotObject},
		{"a string", `"{}"`, nil, errNotObject},
		{"not JSON", `{"a":}`, nil, errNotObject},
		{"trailing data", `{"a":1} {}`, nil, errNotObject},
		{"past the member limit", many, nil, errTooManyMembers},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := members([]byte(tt.give))
			if !errors.Is(err, tt.err) {
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if len(got) != len(tt.want) || (got == nil) != (tt.want == nil) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if string(got[k]) != v {
					t.Errorf("%q: %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

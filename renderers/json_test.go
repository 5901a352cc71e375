package renderers

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSON(t *testing.T) {
	tests := []struct {
		name string
		give any
		want string
	}{
		{name: "raw message kept as is", give: json.RawMessage(`{"b": 1, "a": 2.50}`), want: `{"b": 1, "a": 2.50}`},
		{name: "bytes kept as is", give: []byte(` [1, 2] `), want: ` [1, 2] `},
		{name: "struct encoded", give: struct {
			City string `json:"city"`
			T    float64
		}{City: "Bern", T: 8.1}, want: `{"city":"Bern","T":8.1}`},
		{name: "map encoded", give: map[string]int{"b": 1, "a": 2}, want: `{"a":2,"b":1}`},
		{name: "nil", give: nil, want: `null`},
		{name: "string", give: "<b>", want: `"\u003cb\u003e"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeJSON(tt.give)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("encodeJSON(%v) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

func TestJSONInvalid(t *testing.T) {
	tests := []struct {
		name string
		give any
	}{
		{name: "raw message", give: json.RawMessage(`{"a":`)},
		{name: "bytes", give: []byte(`not json`)},
		{name: "empty raw message", give: json.RawMessage(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := encodeJSON(tt.give)
			if !errors.Is(err, errInvalidJSON) || !strings.HasPrefix(err.Error(), "renderers: raw value: invalid JSON: ") {
				t.Errorf("JSON error = %v, want a wrapped errInvalidJSON", err)
			}
		})
	}
}

func TestJSONUnencodable(t *testing.T) {
	_, err := encodeJSON(make(chan int))
	if err == nil || errors.Is(err, errInvalidJSON) ||
		err.Error() != "renderers: encode chan int: json: unsupported type: chan int" {
		t.Errorf("encodeJSON(chan) error = %v", err)
	}
}

// TestValidateMatchesEncodingJSON checks that validate (gjson after a nesting scan) accepts exactly
// what json.Valid accepts, on inputs near the edges of the grammar.
func TestValidateMatchesEncodingJSON(t *testing.T) {
	tests := []string{
		`0`, `-0`, `01`, `1.`, `.5`, `1e`, `1e+5`, `-`, `+1`, `1E-0`, `"\u00e9"`, `"\u00g0"`, `"\x"`,
		"\"a\tb\"", `"\/"`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1 2]`, ` [ ] `, `{}x`, `nul`,
		`true false`, "\ufeff{}", `"` + "\xff" + `"`, `[[[]]]`, `]`, `{"a":[}`, `"unterminated`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		`["` + strings.Repeat("[", 20000) + `"]`,
	}
	for _, give := range tests {
		t.Run(give[:min(len(give), 20)], func(t *testing.T) {
			want := json.Valid([]byte(give))
			if got := validate([]byte(give)) == nil; got != want {
				t.Errorf("validate(%q) ok = %v, json.Valid = %v", give, got, want)
			}
		})
	}
}

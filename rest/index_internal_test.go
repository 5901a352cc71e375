package rest

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestFormArguments(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},
		"e":{"enum":["a","b",3]},"tags":{"type":"array","items":{"type":"string"}},
		"nums":{"type":"array","items":{"type":"integer"}},"o":{"type":"object"},
		"opt":{"type":["string","null"]}},"required":["s"]}`)
	tests := []struct {
		name string
		give url.Values
		want string // the arguments, or the 400's details
	}{
		{"every kind", url.Values{"arg.s": {"<x> \"q\""}, "arg.n": {"1.50"}, "arg.i": {"-3"}, "arg.b": {"false"}, "arg.e": {"3"},
			"arg.tags": {"a\r\n\r\n b \n"}, "arg.nums": {"1\n2"}, "arg.o": {`{"k":[1]}`}, "arg.opt": {"x"}},
			`{"s":"<x> \"q\"","n":1.50,"i":-3,"b":false,"e":3,"tags":["a","b"],"nums":[1,2],"o":{"k":[1]},"opt":"x"}`},
		{"empty fields are left out", url.Values{"arg.s": {"x"}, "arg.n": {" "}, "arg.tags": {""}}, `{"s":"x"}`},
		{"unknown fields are ignored", url.Values{"arg.zzz": {"1"}, "zzz": {"1"}}, `{}`},
		{"bad values", url.Values{"arg.n": {"NaN"}, "arg.i": {"1.5"}, "arg.b": {"yes"}, "arg.e": {`"c"`}, "arg.nums": {"1\nx"}, "arg.o": {"{"}},
			`n: must be a number; i: must be an integer; b: must be true or false; e: must be one of the listed values; nums: item 2: must be an integer; o: must be JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, e := formArguments(schema, tt.give)
			if e != nil {
				var parts []string
				for _, d := range e.Details {
					parts = append(parts, d.Field+": "+d.Error)
				}
				got = json.RawMessage(strings.Join(parts, "; "))
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestSameOrigin(t *testing.T) {
	tests := []struct {
		origin, site string
		want         bool
	}{
		{"", "", true},
		{"http://api.example:8081", "same-origin", true},
		{"http://API.example:8081", "", true},
		{"", "none", true},
		{"https://evil.example", "", false},
		{"http://api.example:9999", "", false},
		{"null", "", false},
		{"", "cross-site", false},
		{"", "same-site", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "http://api.example:8081/tools/x/execute", nil)
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		if tt.site != "" {
			r.Header.Set("Sec-Fetch-Site", tt.site)
		}
		if got := sameOrigin(r); got != tt.want {
			t.Errorf("Origin %q, Sec-Fetch-Site %q: %v, want %v", tt.origin, tt.site, got, tt.want)
		}
	}
}

package gosdkbackend

import (
	"encoding/json"
	"testing"
)

func TestWithout(t *testing.T) {
	tests := []struct {
		name, give, want string
	}{
		{"first", `{"structuredContent":{"a":1.50},"content":[]}`, `{"content":[]}`},
		{"last", `{"content":[],"isError":false,"structuredContent":{"a":1}}`, `{"content":[],"isError":false}`},
		{"only", `{"structuredContent":1}`, `{}`},
		{"spaces kept in the others", `{ "content" : [ 1 ] , "structuredContent" : null }`, `{"content":[ 1 ]}`},
		{"an escaped key", `{"structured\u0043ontent":{"a":1},"b":2}`, `{"b":2}`},
		{"absent", `{"content":[]}`, `{"content":[]}`},
		{"not an object", `[1,2]`, `[1,2]`},
		{"not JSON", `{"structuredContent":`, `{"structuredContent":`},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(without(json.RawMessage(tt.give), "structuredContent")); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestMember(t *testing.T) {
	tests := []struct {
		name, give, want string
	}{
		{"exact digits and order", `{"structuredContent":{"id":12345678901234567890,"price":1.50,"a":1E+400}}`, `{"id":12345678901234567890,"price":1.50,"a":1E+400}`},
		{"an escaped key", `{"structured\u0043ontent":[1]}`, `[1]`},
		{"null", `{"structuredContent":null}`, ``},
		{"absent", `{"content":[]}`, ``},
		{"not an object", `"structuredContent"`, ``},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(member(json.RawMessage(tt.give), "structuredContent")); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

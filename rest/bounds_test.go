package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/rest"
)

// argumentsWith returns an execute body whose arguments hold city and n
// members the echo tool does not take.
func argumentsWith(n int, body bool) string {
	var b strings.Builder
	b.WriteString(`{"city":"Bern"`)
	for i := range n {
		fmt.Fprintf(&b, `,"k%05d":1`, i)
	}
	b.WriteString("}")
	if body {
		return `{"arguments":` + b.String() + `}`
	}
	return b.String()
}

// Error bodies are bounded: at most 20 details, then one counting the
// others; and what bad input costs is bounded too (the members of an object
// are read up to a limit, a 400 beyond it).
func TestErrorBodiesAreBounded(t *testing.T) {
	tests := []struct {
		name        string
		path        string
		body        string
		wantDetails int    // entries in details
		wantLast    string // the last entry's error
	}{
		{"a few unknown arguments: each named", echo, `{"arguments":` + argumentsWith(3, false) + `}`, 3, "unexpected additional properties"},
		{"30 unknown arguments: 20, then a count", echo, `{"arguments":` + argumentsWith(30, false) + `}`, 21, "10 more not listed"},
		{"80,000 unknown arguments: refused unread", echo, `{"arguments":` + argumentsWith(80000, false) + `}`, 1, "more than 1000 members"},
		{"80,000 unknown body members", echo, argumentsWith(80000, false), 1, "more than 1000 members"},
		{"30 unknown body members: 20, then a count", echo, argumentsWith(29, false), 21, "10 more not listed"},
		{"80,000 unknown prompt arguments", "/mcp/v1/prompts/greet/render", `{"arguments":` + argumentsWith(80000, false) + `}`, 1, "more than 1000 members"},
	}
	h, _ := newTestHandler(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := viaRecorder(t, h, httptest.NewRequest("POST", tt.path, strings.NewReader(tt.body)))
			var e rest.Error
			if err := json.Unmarshal([]byte(got.body), &e); err != nil || got.status != 400 {
				t.Fatalf("status %d, body %.300s (%v); want a 400 error body", got.status, got.body, err)
			}
			if len(e.Details) != tt.wantDetails {
				t.Errorf("%d details, want %d: %.300s", len(e.Details), tt.wantDetails, got.body)
			}
			if len(e.Details) > 0 && !strings.Contains(e.Details[len(e.Details)-1].Error, tt.wantLast) {
				t.Errorf("last detail %+v, want %q", e.Details[len(e.Details)-1], tt.wantLast)
			}
			if len(got.body) > 4096 {
				t.Errorf("the error body is %d bytes", len(got.body))
			}
		})
	}
}

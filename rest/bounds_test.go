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
			got := viaRecorder(t, h, postJSON(tt.path, strings.NewReader(tt.body)))
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

// byteRanges returns "bytes=" and n ranges of one byte each, step bytes
// apart.
func byteRanges(n, step int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%d-%d", i*step, i*step)
	}
	return "bytes=" + strings.Join(parts, ",")
}

// At most 8 ranges are served, overlapping and adjacent ones coalesced;
// more is answered with the whole body (RFC 9110 §14.2 lets a server ignore
// Range), never with a multipart body larger than the content.
func TestRangesAreBounded(t *testing.T) {
	const big = "/mcp/v1/resources/data:%2F%2Fbig/content" // 1,000 bytes
	tests := []struct {
		name         string
		path         string
		rangeHeader  string
		status       int
		contentRange string // for a single part
		parts        int    // for multipart: the number of parts
		maxBody      int
	}{
		{"one range", big, "bytes=10-19", 206, "bytes 10-19/1000", 0, 10},
		{"overlapping ranges: one part", big, "bytes=0-9,5-14", 206, "bytes 0-14/1000", 0, 15},
		{"adjacent one-byte ranges: one part", big, byteRanges(500, 1), 206, "bytes 0-499/1000", 0, 500},
		{"the same range repeated: one part", big, "bytes=" + strings.Repeat("0-0,", 4000) + "0-0", 206, "bytes 0-0/1000", 0, 1},
		{"unordered: sorted and coalesced", big, "bytes=20-29,0-9,10-19", 206, "bytes 0-29/1000", 0, 30},
		{"a suffix and its overlap", big, "bytes=-10,985-994", 206, "bytes 985-999/1000", 0, 15},
		{"8 ranges: served", big, byteRanges(8, 10), 206, "", 8, 2000},
		{"9 ranges: the whole body", big, byteRanges(9, 10), 200, "", 0, 1000},
		{"48 KB of ranges: the whole body", big, "bytes=" + strings.Repeat(byteRanges(500, 2)[len("bytes="):]+",", 12) + "0-0", 200, "", 0, 1000},
		{"48 KB of ranges on the OpenAPI document: the whole document", "/mcp/v1/openapi.json", "bytes=" + strings.Repeat(byteRanges(500, 2)[len("bytes="):]+",", 12) + "0-0", 200, "", 0, 64 << 10},
		{"unsatisfiable", big, "bytes=5000-", 416, "", 0, 300},
		{"unreadable: left to net/http", big, "bytes=x-y", 416, "", 0, 300},
		{"not bytes: ignored", big, "lines=1-2", 200, "", 0, 1000},
	}
	h, _ := newTestHandler(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			req.Header.Set("Range", tt.rangeHeader)
			got := viaListener(t, h, req)
			if got.status != tt.status {
				t.Fatalf("status %d, want %d; body %.200q", got.status, tt.status, got.body)
			}
			if cr := got.header.Get("Content-Range"); tt.contentRange != "" && cr != tt.contentRange {
				t.Errorf("Content-Range %q, want %q", cr, tt.contentRange)
			}
			if tt.parts > 0 {
				if n := strings.Count(got.body, "Content-Range: bytes "); n != tt.parts {
					t.Errorf("%d parts, want %d", n, tt.parts)
				}
			}
			if len(got.body) > tt.maxBody {
				t.Errorf("body of %d bytes, want at most %d", len(got.body), tt.maxBody)
			}
		})
	}
}

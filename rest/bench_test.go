package rest_test

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkHandlerExecute is the REST layer alone, over a backend that
// answers at once: routing, negotiation, the body, argument validation
// against the input schema, and the response.
//
//	go test -run '^$' -bench BenchmarkHandler -benchmem ./rest/
func BenchmarkHandlerExecute(b *testing.B) {
	h, _ := newTestHandler(&testing.T{})
	for _, accept := range []string{"application/json", "text/markdown", "text/plain"} {
		b.Run(accept, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := postJSON(echo, strings.NewReader(`{"arguments":{"city":"Bern","days":3}}`))
				req.Header.Set("Accept", accept)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkHandlerList is a GET of the tool list, with its ETag.
func BenchmarkHandlerList(b *testing.B) {
	h, _ := newTestHandler(&testing.T{})
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/mcp/v1/tools", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

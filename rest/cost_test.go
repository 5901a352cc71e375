package rest_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/shaping"
)

// A format registered after the first request is offered from then on:
// what an Accept header selected before is not reused once the negotiator
// offers more.
func TestAcceptFollowsFormatsRegisteredLater(t *testing.T) {
	neg := shaping.New(nil).Negotiator()
	h := rest.New(newFake(), &rest.Options{BasePath: "/mcp/v1", Negotiator: neg, CallTimeout: 5 * time.Second})
	const accept = "text/csv, application/json;q=0.5"
	call := func() (int, string) {
		req := postJSON(echo, strings.NewReader(`{"arguments":{"city":"Bern"}}`))
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Header().Get("Content-Type")
	}
	for range 2 { // the second answer comes from what the first one learned
		if code, ct := call(); code != 200 || !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("before csv is registered: %d %q, want 200 application/json", code, ct)
		}
	}
	if err := neg.AddFormat("csv", "text/csv"); err != nil {
		t.Fatal(err)
	}
	if code, ct := call(); code != 200 || !strings.HasPrefix(ct, "text/csv") {
		t.Fatalf("after csv is registered: %d %q, want 200 text/csv", code, ct)
	}
}

// An Accept header that selects nothing is refused every time it comes,
// and does not change what another header selects.
func TestAcceptRefusedEveryTime(t *testing.T) {
	h, _ := newTestHandler(t)
	tests := []struct {
		accept string
		status int
	}{
		{"image/png", 406},
		{"image/png", 406},
		{"text/markdown", 200},
		{"image/png", 406},
		{"text/markdown", 200},
	}
	for _, tt := range tests {
		req := postJSON(echo, strings.NewReader(`{"arguments":{"city":"Bern"}}`))
		req.Header.Set("Accept", tt.accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Fatalf("Accept %q: %d, want %d: %s", tt.accept, rec.Code, tt.status, rec.Body)
		}
	}
}

// The request body is read whatever its Content-Length says, and a body
// that is not one JSON value surrounded by JSON whitespace is refused as
// before.
func TestBodyReading(t *testing.T) {
	h, f := newTestHandler(t)
	tests := []struct {
		name          string
		body          string
		contentLength int64 // -1: unknown
		status        int
		message       string
	}{
		{name: "exact length", body: `{"arguments":{"city":"Bern"}}`, contentLength: 29, status: 200},
		{name: "unknown length", body: `{"arguments":{"city":"Bern"}}`, contentLength: -1, status: 200},
		{name: "JSON whitespace around", body: " \t\r\n{\"arguments\":{\"city\":\"Bern\"}}\n ", contentLength: -1, status: 200},
		{name: "no-break space is not JSON whitespace", body: "\u00a0{\"arguments\":{\"city\":\"Bern\"}}", contentLength: -1, status: 400, message: `the body must be a JSON object {"arguments": {...}}`},
		{name: "trailing value", body: `{"arguments":{"city":"Bern"}} {}`, contentLength: -1, status: 400, message: "the body holds more than one JSON value"},
		{name: "truncated", body: `{"arguments":{"city":"Bern"}`, contentLength: -1, status: 400, message: `the body must be a JSON object {"arguments": {...}}`},
		{name: "not an object", body: `[1]`, contentLength: -1, status: 400, message: `the body must be a JSON object {"arguments": {...}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := postJSON(echo, strings.NewReader(tt.body))
			req.ContentLength = tt.contentLength
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("%d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status != 200 {
				var e struct{ Message string }
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Message != tt.message {
					t.Fatalf("message %q (%v), want %q", e.Message, err, tt.message)
				}
			}
		})
	}
	_ = f
}

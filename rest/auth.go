package rest

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// requireAPIKey returns a handler that serves h only to requests carrying
// key, as "Authorization: Bearer KEY" or "X-API-Key: KEY" (compared in
// constant time), and answers the others 401 with "WWW-Authenticate:
// Bearer" and the error body. GET /capabilities, GET /openapi.json and GET
// /healthz stay public, so clients can discover the API and probes need no
// key, and so do CORS preflights (browsers send them without credentials).
// An empty key returns h itself (see [Options].APIKey).
func (h *handler) requireAPIKey(key string) http.Handler {
	if key == "" {
		return h
	}
	want := sha256.Sum256([]byte(key))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.public(r) || validKey(r, want) {
			h.ServeHTTP(w, r)
			return
		}
		hdr := w.Header()
		hdr.Add("Vary", "Accept")
		h.cors(w, r) // a page of an allowed origin may read the 401
		hdr.Set("X-Request-ID", requestID(r.Header.Get("X-Request-ID")))
		hdr.Set("WWW-Authenticate", `Bearer realm="mcp"`)
		writeError(w, newError(http.StatusUnauthorized, codeUnauthorized,
			"this API needs a key: send Authorization: Bearer KEY or X-API-Key: KEY"))
	})
}

// public reports whether r is routed, as ServeHTTP routes it, to the
// capabilities or the OpenAPI description.
func (h *handler) public(r *http.Request) bool {
	if isPreflight(r) || r.URL.Path == "/" && h.base != "" {
		return true // a preflight, or the redirect to the base path
	}
	segs, ok := h.segments(r)
	return ok && len(segs) == 1 && (segs[0] == "capabilities" || segs[0] == "openapi.json" || segs[0] == "healthz")
}

func validKey(r *http.Request, want [32]byte) bool {
	given := r.Header.Get("X-API-Key")
	if auth := r.Header.Get("Authorization"); given == "" && len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		given = strings.TrimSpace(auth[7:])
	}
	if given == "" {
		return false
	}
	got := sha256.Sum256([]byte(given))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

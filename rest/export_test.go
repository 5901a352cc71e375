package rest

import "net/http"

// IsBinding reports whether h is the binding itself, not a wrapper around
// it (what New returns without an API key).
func IsBinding(h http.Handler) bool {
	_, ok := h.(*handler)
	return ok
}

package rest

import (
	"net/http"
	"strings"
)

// CORS (contract section 8, Operations): off unless [Options].CORS lists the
// origins a browser may call the API from.
const (
	corsMethods = "GET, HEAD, POST"
	corsHeaders = "Accept, Authorization, Content-Type, If-Modified-Since, If-None-Match, Range, X-API-Key, X-Request-ID"
	corsExpose  = "Content-Range, ETag, Last-Modified, X-Request-ID"
	corsMaxAge  = "600"
)

// corsOrigins is the set of allowed origins: exact, lower-case
// "scheme://host[:port]" values, or "*" for any.
type corsOrigins struct {
	any     bool
	origins map[string]bool
}

func newCORS(origins []string) corsOrigins {
	c := corsOrigins{}
	for _, o := range origins {
		o = strings.ToLower(strings.TrimRight(strings.TrimSpace(o), "/"))
		switch o {
		case "":
		case "*":
			c.any = true
		default:
			if c.origins == nil {
				c.origins = make(map[string]bool, len(origins))
			}
			c.origins[o] = true
		}
	}
	return c
}

func (c corsOrigins) enabled() bool { return c.any || len(c.origins) > 0 }

// allows reports whether a request from origin may read responses.
func (c corsOrigins) allows(origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	return c.any || c.origins[strings.ToLower(origin)]
}

// isPreflight reports whether r is a CORS preflight request.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != ""
}

// cors sets the CORS headers of a response to r and reports whether the
// request was a preflight, answered here. With CORS off it does nothing:
// a preflight then falls through to 405, which a browser reads as refused.
func (h *handler) cors(w http.ResponseWriter, r *http.Request) bool {
	if !h.corsOrigins.enabled() {
		return false
	}
	hdr := w.Header()
	hdr.Add("Vary", "Origin")
	origin := r.Header.Get("Origin")
	allowed := h.corsOrigins.allows(origin)
	if !isPreflight(r) {
		if allowed {
			hdr.Set("Access-Control-Allow-Origin", origin)
			hdr.Set("Access-Control-Expose-Headers", corsExpose)
		}
		return false
	}
	hdr.Add("Vary", "Access-Control-Request-Method")
	hdr.Add("Vary", "Access-Control-Request-Headers")
	if !allowed {
		writeError(w, newError(http.StatusForbidden, codeForbidden, "cross-origin requests from this origin are not allowed"))
		return true
	}
	hdr.Set("Access-Control-Allow-Origin", origin)
	hdr.Set("Access-Control-Allow-Methods", corsMethods)
	hdr.Set("Access-Control-Allow-Headers", corsHeaders)
	hdr.Set("Access-Control-Max-Age", corsMaxAge)
	w.WriteHeader(http.StatusNoContent)
	return true
}

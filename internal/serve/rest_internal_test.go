package serve

import "testing"

// TestHTTPServerTimeouts: no client can hold a connection for ever by
// sending slowly, or by not reading.
func TestHTTPServerTimeouts(t *testing.T) {
	s := newHTTPServer(nil, newLifetime())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Errorf("a limit is missing: %+v", s)
	}
}

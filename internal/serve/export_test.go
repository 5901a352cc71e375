package serve

import (
	"testing"
	"time"
)

// ShortenReadTimeouts makes the HTTP servers started during the test give
// a request's headers and body at most d, so that a test of the read
// timeout does not wait 30 s.
func ShortenReadTimeouts(t *testing.T, d time.Duration) {
	saved := limits
	limits.ReadHeader, limits.Read = d, d
	t.Cleanup(func() { limits = saved })
}

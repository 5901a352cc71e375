package gateway_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/internal/rawrpc"
)

// TestHostileRequests: every method the gateway serves or forwards, in
// both eras, with hostile params (rawrpc.Hostile): each gets an answer,
// and none ends the process or the session: the gateway serves a
// well-formed call after them all. A list request without params crashed
// the gateway once (TestListsWithoutParams).
func TestHostileRequests(t *testing.T) {
	for _, era := range []string{"legacy", "stateless"} {
		t.Run(era, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			g := newSubscribedUpstream(t, true).start(ctx, t)
			c := rawDownstream(ctx, t, g, era, "{}")
			rawrpc.Hostile(ctx, t, c)
			got := c.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "still here"}})
			if !strings.Contains(got, "still here") {
				t.Fatalf("a well-formed call after the hostile ones: %s", got)
			}
		})
	}
}

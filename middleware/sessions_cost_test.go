package middleware_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
)

// goroutinesPerSession opens n legacy sessions of clients declaring tags
// (nil: not declaring) on a server, with the middleware or not, and returns
// the goroutines they added, and the middleware's kept sessions.
func goroutinesPerSession(t *testing.T, n int, withMiddleware bool, tags []string) (goroutines, kept int) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "cost", Version: "1.0.0"}, nil)
	var m *middleware.Middleware
	if withMiddleware {
		m = middleware.Install(s, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	before := runtime.NumGoroutine()
	for range n {
		opts := &client.Options{Settings: settingsOf(tags), Legacy: true}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := client.New(opts).Connect(ctx, ct, client.SessionOptions(opts))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	}
	goroutines = runtime.NumGoroutine() - before
	if m != nil {
		kept = m.Shaper().Sessions()
	}
	return goroutines, kept
}

func TestALegacySessionCostsNoGoroutine(t *testing.T) {
	const n = 20
	sdkAlone, _ := goroutinesPerSession(t, n, false, nil)
	tests := []struct {
		name     string
		tags     []string
		wantKept int
	}{
		{"undeclared", nil, 0}, // nothing kept at all
		{"declared", []string{"agent"}, n},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, kept := goroutinesPerSession(t, n, true, tt.tags)
			// A goroutine or two of the SDK may still be starting or ending:
			// one per session would be n more.
			if got-sdkAlone >= n/2 {
				t.Errorf("%d sessions with the middleware started %d goroutines, the SDK alone %d: want no extra goroutine per session", n, got, sdkAlone)
			}
			if kept != tt.wantKept {
				t.Errorf("%d sessions kept, want %d", kept, tt.wantKept)
			}
		})
	}
}

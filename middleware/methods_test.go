package middleware_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// methodRecorder is a user's receiving middleware that records the
// methods it sees.
type methodRecorder struct {
	mu      sync.Mutex
	methods []string
}

func (r *methodRecorder) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r.mu.Lock()
		r.methods = append(r.methods, method)
		r.mu.Unlock()
		return next(ctx, method, req)
	}
}

func (r *methodRecorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.methods)
}

// TestUserMiddlewareSeesOnlyWhatClientsSent: a user's middleware installed
// before the library sees exactly the methods the client sent, as it does
// on a server without the library; in particular no tools/list behind a
// markdown or text call (the output schema is known without a request of
// the library's own).
func TestUserMiddlewareSeesOnlyWhatClientsSent(t *testing.T) {
	type out struct {
		Station string  `json:"station"`
		Temp    float64 `json:"temperature_c"`
	}
	serve := func(negotiated bool) (*mcp.Server, *methodRecorder) {
		s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "get_weather"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, out, error) {
			return nil, out{Station: "Bern", Temp: 8.5}, nil
		})
		rec := &methodRecorder{}
		s.AddReceivingMiddleware(rec.middleware)
		if negotiated {
			middleware.Install(s, nil)
		}
		return s, rec
	}
	for _, legacy := range []bool{false, true} {
		for _, tags := range [][]string{nil, {"human"}, {"format=text", "verbosity=compact"}, {"agent"}} {
			t.Run(map[bool]string{false: "stateless", true: "legacy"}[legacy]+"/"+strings.Join(tags, ","), func(t *testing.T) {
				var settings map[string]any
				if tags != nil {
					settings = middlewaretest.Declare(tags...)
				}
				seen := func(negotiated bool) []string {
					s, rec := serve(negotiated)
					cs := middlewaretest.Connect(t, s, &middlewaretest.Options{Settings: settings, Legacy: legacy})
					for range 2 {
						if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{}}); err != nil {
							t.Fatal(err)
						}
					}
					return rec.seen()
				}
				want, got := seen(false), seen(true)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("methods seen by the user's middleware (-without the library +with it):\n%s", diff)
				}
			})
		}
	}
}

package middleware_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/middleware/resourcemeta"
	"github.com/contentneg/contentneg/shaping"
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
					settings = client.Declare(tags...)
				}
				seen := func(negotiated bool) []string {
					s, rec := serve(negotiated)
					cs := middlewaretest.Connect(t, s, &client.Options{Settings: settings, Legacy: legacy})
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

// TestResourceMetadataMakesNoRequestOfItsOwn: resources/metadata is
// answered from the SDK's registrations; a user's middleware installed
// before the library sees the client's request alone, no listing or read.
func TestResourceMetadataMakesNoRequestOfItsOwn(t *testing.T) {
	rec := &methodRecorder{}
	checkResourceMetadata(t, rec)
	for _, m := range rec.seen() {
		if m == "resources/list" || m == "resources/templates/list" || m == "resources/read" {
			t.Errorf("the user's middleware saw %s, which no client sent (all: %q)", m, rec.seen())
		}
	}
}

// checkResourceMetadata serves one listed resource and one template, whose
// handler reports "not found" for test://city/nowhere, with rec installed
// before the library, and checks what resources/metadata answers for each
// kind of URI.
func checkResourceMetadata(t *testing.T, rec *methodRecorder) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	s.AddResource(&mcp.Resource{URI: "test://listed", Name: "listed", MIMEType: "text/plain"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "x"}}}, nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://city/{name}", Name: "city", MIMEType: "application/json"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if req.Params.URI == "test://city/nowhere" {
			return nil, fmt.Errorf("no such city: %w", shaping.ErrNotFound)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: `{"n":12345}`}}}, nil
	})
	s.AddReceivingMiddleware(rec.middleware)
	middleware.Install(s, nil)
	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("human")})
	ctx := context.Background()
	tests := []struct {
		uri      string
		wantSize int64
		wantErr  bool
	}{
		{"test://listed", 0, false},
		{"test://city/bern", int64(len(`{"n":12345}`)), false},
		{"test://city/nowhere", 0, true},
		{"test://other", 0, true},
	}
	for _, tt := range tests {
		r, err := resourcemeta.Get(ctx, cs, tt.uri)
		if (err != nil) != tt.wantErr || err == nil && r.Size != tt.wantSize {
			t.Errorf("%s: %+v, %v; want size %d, error %v", tt.uri, r, err, tt.wantSize, tt.wantErr)
		}
	}
}

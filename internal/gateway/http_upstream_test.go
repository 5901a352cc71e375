package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/internal/gateway"
)

// TestStreamableHTTPUpstream: an upstream served over streamable HTTP (a
// go-sdk server without the middleware, -upstream URL), mirrored: a client
// that declares nothing gets its result as it is, a human gets markdown.
func TestStreamableHTTPUpstream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type weather struct {
		City        string  `json:"city"`
		Temperature float64 `json:"temperature"`
	}
	upstream := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	mcp.AddTool(upstream, &mcp.Tool{Name: "get_weather", Description: "the weather"},
		func(context.Context, *mcp.CallToolRequest, struct {
			City string `json:"city"`
		}) (*mcp.CallToolResult, weather, error) {
			return nil, weather{City: "Bern", Temperature: 21.5}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return upstream }, nil))
	t.Cleanup(srv.Close)
	g, err := gateway.New(ctx, func() mcp.Transport { return &mcp.StreamableClientTransport{Endpoint: srv.URL} },
		&gateway.Options{Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	tests := []struct {
		name     string
		features []string
		want     string
	}{
		{name: "undeclared", features: nil, want: `{"city":"Bern","temperature":21.5}`},
		{name: "human", features: []string{"human"}, want: "- **Temperature:** 21.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connectGateway(ctx, t, g, "", tt.features, nil)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := text(res); !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

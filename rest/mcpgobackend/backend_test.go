package mcpgobackend_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/examples/weather/weathermcpgo"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
	"github.com/contentneg/contentneg/rest/mcpgobackend"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// handlers returns the REST binding over the go-sdk demo and over the
// mcp-go demo, on the same fixed clock.
func handlers(t *testing.T) (goSDK, mcpGo http.Handler) {
	t.Helper()
	now := weatherNoon
	ctx := context.Background()

	gs := weathermcp.NewServer(weather.NewService(now))
	m := middleware.Install(gs, &middleware.Options{Tools: weathermcp.Tools()})
	gb, err := gosdkbackend.New(ctx, gs, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = gb.Close() })

	ms := weathermcpgo.NewServer(weather.NewService(now))
	a := mcpgo.Install(ms, &mcpgo.Options{Tools: weathermcp.Tools()})
	mb, err := mcpgobackend.New(ctx, ms)
	if err != nil {
		t.Fatal(err)
	}
	return rest.New(gb, &rest.Options{BasePath: "/mcp/v1", Negotiator: m.Shaper().Negotiator()}),
		rest.New(mb, &rest.Options{BasePath: "/mcp/v1", Negotiator: a.Shaper().Negotiator()})
}

func serve(h http.Handler, method, path, accept, body string) (int, string) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	req.Header.Set("X-Request-ID", "test")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}

func TestTheRESTBindingIsTheSameOverBothSDKs(t *testing.T) {
	goSDK, mcpGo := handlers(t)
	tests := []struct {
		name, method, path, accept, body string
		sameBody                         bool
	}{
		{"weather as JSON", "POST", "/mcp/v1/tools/get_weather/execute", "", `{"arguments":{"city":"Bern"}}`, true},
		{"weather as markdown", "POST", "/mcp/v1/tools/get_weather/execute", "text/markdown", `{"arguments":{"city":"Bern"}}`, true},
		{"forecast as text", "POST", "/mcp/v1/tools/get_forecast/execute", "text/plain", `{"arguments":{"city":"Bern","days":3}}`, true},
		{"format= overrides Accept", "POST", "/mcp/v1/tools/get_forecast/execute?format=markdown", "text/plain", `{"arguments":{"city":"Bern","days":2}}`, true},
		{"forecast as TOON", "POST", "/mcp/v1/tools/get_forecast/execute", "text/toon", `{"arguments":{"city":"Bern","days":3}}`, true},
		{"format=toon overrides Accept", "POST", "/mcp/v1/tools/get_weather/execute?format=toon", "text/markdown", `{"arguments":{"city":"Bern"}}`, true},
		{"a resource as TOON", "GET", "/mcp/v1/resources/weather:%2F%2Fbern/content", "text/toon", "", true},
		{"a tool error", "POST", "/mcp/v1/tools/get_weather/execute", "", `{"arguments":{"city":"Bernn"}}`, true},
		{"a confirmation no REST client can give", "POST", "/mcp/v1/tools/set_alert/execute", "", `{"arguments":{"city":"Bern","threshold_c":0}}`, true},
		{"arguments that fail the schema", "POST", "/mcp/v1/tools/get_forecast/execute", "", `{"arguments":{"city":"Bern","days":9}}`, false},
		{"an unknown tool", "POST", "/mcp/v1/tools/nope/execute", "", `{"arguments":{}}`, false},
		{"a resource as markdown", "GET", "/mcp/v1/resources/weather:%2F%2Fbern/content", "text/markdown", "", true},
		{"a report as text", "GET", "/mcp/v1/resources/weather:%2F%2Fbern%2Freport/content", "text/plain", "", true},
		{"a missing resource", "GET", "/mcp/v1/resources/weather:%2F%2Fatlantis/content", "", "", false},
		{"a prompt as text", "POST", "/mcp/v1/prompts/plan_outfit/render", "text/plain", `{"arguments":{"city":"Bern"}}`, true},
		{"the tool list", "GET", "/mcp/v1/tools", "", "", false},
		{"the resource list", "GET", "/mcp/v1/resources", "", "", true},
		{"the prompt list", "GET", "/mcp/v1/prompts", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantCode, want := serve(goSDK, tt.method, tt.path, tt.accept, tt.body)
			gotCode, got := serve(mcpGo, tt.method, tt.path, tt.accept, tt.body)
			if gotCode != wantCode {
				t.Errorf("status %d, want the go-sdk's %d\n got %s\nwant %s", gotCode, wantCode, got, want)
			}
			if tt.sameBody && got != want {
				t.Errorf("body differs\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestAServerWithoutTheAdapterIsRefused(t *testing.T) {
	_, err := mcpgobackend.New(context.Background(), server.NewMCPServer("plain", "1"))
	if !errors.Is(err, mcpgobackend.ErrNotNegotiating) {
		t.Errorf("error %v, want ErrNotNegotiating", err)
	}
}

func weatherNoon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

package middleware_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/negotiation"
)

// serveHTTP serves a fresh test server with the middleware over streamable
// HTTP and returns its URL.
func serveHTTP(t *testing.T, stateless bool, opts *middleware.Options) string {
	t.Helper()
	s, _ := newServer(opts)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv.URL
}

func connectHTTP(t *testing.T, url string, opts *client.Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cs, err := client.New(opts).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, client.SessionOptions(opts))
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func TestStreamableHTTP(t *testing.T) {
	bern := map[string]any{"station": "Bern"}
	modes := []struct {
		name      string
		stateless bool
		legacy    bool
	}{
		{"stateful", false, false}, // a stateful handler serves the legacy era only: the client falls back
		{"stateful legacy client", false, true},
		{"stateless", true, false},
	}
	profiles := []struct {
		name string
		tags []string
		want []check
	}{
		{"undeclared", nil, []check{jsonMirror, withStructured}},
		{"agent", []string{"agent", "format=json", "verbosity=compact"}, []check{noText, withStructured}},
		{"human", []string{"human", "format=markdown"}, []check{markdown, withStructured, contains("Bern")}},
		{"human verbose", []string{"human", "verbosity=verbose"}, []check{markdown, contains("air temperature in degrees Celsius")}},
		{"text compact", []string{"format=text", "verbosity=compact"}, []check{plainText, contains("Bern")}},
		{"text", []string{"format=text"}, []check{plainText, contains("Bern")}},
		{"text verbose", []string{"format=text", "verbosity=verbose"}, []check{plainText, contains("air temperature in degrees Celsius")}},
		{"human compact", []string{"human", "verbosity=compact"}, []check{markdown, contains("Bern")}},
		{"sampling", []string{"agent", "sampling"}, []check{hintsBlock}},
	}
	for _, m := range modes {
		url := serveHTTP(t, m.stateless, &middleware.Options{})
		for _, p := range profiles {
			t.Run(m.name+"/"+p.name, func(t *testing.T) {
				opts := &client.Options{Legacy: m.legacy}
				if p.tags != nil {
					opts.Settings = client.Declare(p.tags...)
				}
				cs := connectHTTP(t, url, opts)
				if _, ok := cs.InitializeResult().Capabilities.Extensions[negotiation.ExtensionID]; !ok {
					t.Error("the extension is not advertised")
				}
				tool := toolTyped
				if p.name == "sampling" {
					tool = toolHints
				}
				res := call(t, cs, tool, bern)
				for _, c := range p.want {
					c(t, res)
				}
			})
		}
	}
}

func TestStatelessHTTPWithALegacyClientPassesThrough(t *testing.T) {
	// The stateless handler makes a new session per request: the initialize
	// capabilities of a legacy client are gone by the time it calls a tool,
	// so no profile can be recovered, and the result passes through.
	url := serveHTTP(t, true, &middleware.Options{})
	cs := connectHTTP(t, url, &client.Options{Legacy: true, Settings: client.Declare("human")})
	res := call(t, cs, toolTyped, map[string]any{"station": "Bern"})
	jsonMirror(t, res)
}

package main

import (
	"testing"

	"github.com/contentneg/contentneg/examples/weather/weathertest"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/rest/resttest"
)

// TestRESTSuite: the REST binding's suite (package resttest) passes on the
// demo served with -rest, on both SDKs: the binding over a real server
// with the middleware, through the go-sdk and the mcp-go backends. Every
// demo tool has an output schema, so there is no Plain tool.
func TestRESTSuite(t *testing.T) {
	fixture := weathertest.RESTFixture()
	for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
		t.Run(sdk, func(t *testing.T) {
			t.Setenv(serve.SDKEnv, sdk)
			base, _ := servetest.REST(t, app(), "-rest", "127.0.0.1:0")
			resttest.Run(t, base, fixture)
		})
	}
}

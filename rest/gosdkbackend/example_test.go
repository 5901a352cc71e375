package gosdkbackend_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

type greetIn struct {
	Name string `json:"name"`
}

type greetOut struct {
	Greeting string `json:"greeting"`
	Length   int    `json:"length"`
}

// A go-sdk server with the middleware, served over REST: the Accept header
// picks the rendering.
func Example() {
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Greets someone."},
		func(_ context.Context, _ *mcp.CallToolRequest, in greetIn) (*mcp.CallToolResult, greetOut, error) {
			g := "Hello, " + in.Name
			return nil, greetOut{Greeting: g, Length: len(g)}, nil
		})
	m := middleware.Install(server, nil)

	backend, err := gosdkbackend.New(context.Background(), server, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer backend.Close()
	h := rest.New(backend, &rest.Options{BasePath: "/mcp/v1", Negotiator: m.Shaper().Negotiator()})

	for _, accept := range []string{"text/plain", "text/markdown", "application/json"} {
		req := httptest.NewRequest("POST", "/mcp/v1/tools/greet/execute?fields=greeting", strings.NewReader(`{"arguments":{"name":"Ada"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		req.Header.Set("X-Request-ID", "example")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Body)
		fmt.Printf("%s\n%s\n\n", rec.Header().Get("Content-Type"), strings.TrimSpace(string(body)))
	}
	// Output:
	// text/plain; charset=utf-8
	// greeting: Hello, Ada
	// length: 10
	//
	// text/markdown; charset=utf-8
	// - **Greeting:** Hello, Ada
	// - **Length:** 10
	//
	// application/json
	// {"id":"exec-example","status":"success","structuredContent":{"greeting":"Hello, Ada"},"_links":{"self":{"href":"/mcp/v1/tools/greet/execute","method":"POST"},"tool":{"href":"/mcp/v1/tools/greet"}}}
}

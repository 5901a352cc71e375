package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

type greeting struct {
	Greeting string `json:"greeting"`
}

// The REST binding of a go-sdk server with the middleware, behind an API
// key: the Accept header picks the rendering, and a Go client reads an
// error answer as an [rest.Error].
func Example() {
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Greets someone."},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Name string `json:"name"`
		}) (*mcp.CallToolResult, greeting, error) {
			return nil, greeting{Greeting: "Hello, " + in.Name}, nil
		})
	m := middleware.Install(server, nil)
	backend, err := gosdkbackend.New(context.Background(), server, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer backend.Close()
	h := rest.New(backend, &rest.Options{
		BasePath:   "/mcp/v1",
		Negotiator: m.Shaper().Negotiator(), // formats the server added are negotiable too
		APIKey:     "s3cret",
	})

	for _, key := range []string{"", "s3cret"} {
		req := httptest.NewRequest("POST", "/mcp/v1/tools/greet/execute", strings.NewReader(`{"arguments":{"name":"Ada"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/markdown")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 400 {
			var e rest.Error
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				fmt.Println(err)
				return
			}
			fmt.Println(e.Status, e.Code)
			continue
		}
		fmt.Printf("%d %s\n%s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	// Output:
	// 401 UNAUTHORIZED
	// 200 text/markdown; charset=utf-8
	// - **Greeting:** Hello, Ada
}

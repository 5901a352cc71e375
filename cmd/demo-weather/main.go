// Command demo-weather shows content negotiation for MCP on an offline
// weather server.
//
// With no flags it is a showcase: it starts the server in-process, connects
// four clients with different profiles, calls get_weather and get_forecast
// for Bern, and prints what each client got, with sizes.
//
//	demo-weather                        the showcase
//	demo-weather -stdio                 serve over stdio (logs on stderr only)
//	demo-weather -http :8080            serve streamable HTTP at /mcp
//	demo-weather -http :8080 -stateless serve the stateless protocol only
//	demo-weather -rest :8081            serve the REST binding at /mcp/v1 (beside -http too)
//	demo-weather -v ...                 log at debug level (stderr)
//	demo-weather -sdk mcp-go ...        the same server on mark3labs/mcp-go
//	                                    (default: $CONTENTNEG_SDK, else go-sdk)
//
// With CONTENTNEG_API_KEY set, REST clients must send the key (Authorization:
// Bearer KEY or X-API-Key: KEY); /capabilities and /openapi.json stay public.
//
// The weather is made up, offline, for the current time; with
// CONTENTNEG_NOW set to an RFC 3339 time it is made up for that time, so
// that the output can be compared (the README's figures are made so).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/examples/weather/weathermcpgo"
	"github.com/contentneg/contentneg/internal/serve"
)

func main() {
	os.Exit(serve.Run(context.Background(), app(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// app describes the demo to package serve.
func app() serve.App {
	return serve.App{
		Name: "demo-weather",
		Provide: []any{
			func() (*weather.Service, error) {
				now, err := clock(os.Getenv("CONTENTNEG_NOW"))
				return weather.NewService(now), err
			},
			weathermcp.NewServer,
		},
		MCPGo: []any{
			func() (*weather.Service, error) {
				now, err := clock(os.Getenv("CONTENTNEG_NOW"))
				return weather.NewService(now), err
			},
			weathermcpgo.NewServer,
		},
		Tools:    weathermcp.Tools(),
		Showcase: showcase,
	}
}

// clock returns a clock fixed at the RFC 3339 time fixed, or nil (the
// current time) when fixed is empty.
func clock(fixed string) (func() time.Time, error) {
	if fixed == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, fixed)
	if err != nil {
		return nil, fmt.Errorf("CONTENTNEG_NOW: %w", err)
	}
	return func() time.Time { return t }, nil
}

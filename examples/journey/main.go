// Command journey serves the offline journey planner as an MCP server with
// content negotiation: the same find_connections result reaches an agent as
// JSON, a person as a markdown itinerary, and a terminal as a few lines of
// plain text.
//
// With no flags it is a showcase: it starts the server in-process, connects
// a person, an agent and a terminal, makes the same find_connections calls
// for each at a fixed time, and prints what each got, with sizes.
//
//	go run ./examples/journey                         the showcase
//	go run ./examples/journey -stdio                  serve over stdio (logs on stderr only)
//	go run ./examples/journey -http :8080             serve streamable HTTP at /mcp
//	go run ./examples/journey -http :8080 -stateless  serve the stateless protocol only
//	go run ./examples/journey -rest :8081             serve the REST binding at /mcp/v1 (beside -http too)
//	go run ./examples/journey -v ...                  log at debug level (stderr)
//	go run ./examples/journey -sdk mcp-go ...         the same server on mark3labs/mcp-go
//	                                                  (default: $CONTENTNEG_SDK, else go-sdk)
package main

import (
	"context"
	"os"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/examples/journey/journeymcpgo"
	"github.com/contentneg/contentneg/internal/serve"
)

func main() {
	os.Exit(serve.Run(context.Background(), app(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// app describes the journey server to package serve.
func app() serve.App {
	return serve.App{
		Name:     "journey",
		Provide:  []any{journey.NewPlanner, journeymcp.NewServer},
		MCPGo:    []any{journey.NewPlanner, journeymcpgo.NewServer},
		Tools:    journeymcp.Tools(),
		Showcase: showcase,
	}
}

package gateway_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/contentneg/contentneg/gateway"
	"github.com/contentneg/contentneg/shaping"
)

// A gateway in front of an MCP server run as a command: each client of the
// HTTP endpoint gets a process of its own; the client on stdio one too.
func Example() {
	g, err := gateway.New(&gateway.Options{
		Upstream: &gateway.Command{Path: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything", "stdio"}, Stderr: os.Stderr},
		Shaping:  &shaping.Options{FormatArgument: "response_format"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	if _, err := g.Check(context.Background()); err != nil {
		log.Fatal(err) // says why: exit status and stderr, a line that is not JSON-RPC, no answer
	}
	go func() {
		log.Fatal(http.ListenAndServe("127.0.0.1:8080", g.Handler(nil)))
	}()
	_ = g.ServeStdio(context.Background(), os.Stdin, os.Stdout)
}

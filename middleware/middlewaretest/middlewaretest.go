// Package middlewaretest connects test clients with a chosen profile to a
// go-sdk server, over in-memory transports, in either protocol era: what a
// server author needs to test how each client is served. The client is
// described by package client's Options:
//
//	cs := middlewaretest.Connect(t, server, &client.Options{Settings: client.Declare("human")})
//
// [CheckSameResults] proves that clients that did not declare the
// extension get, byte for byte, what the server sends without the
// middleware.
//
// One trap when several clients make the same call: the go-sdk client writes
// its capabilities into the params' _meta and keeps what it finds there, so
// a *mcp.CallToolParams used by one session carries that session's tags
// into the next. Give each session a copy.
package middlewaretest

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/client"
)

// Connect connects server and a new client over in-memory transports and
// returns the client's session. Both sessions are closed when the test ends;
// a failure to connect fails the test.
func Connect(tb testing.TB, server *mcp.Server, opts *client.Options) *mcp.ClientSession {
	tb.Helper()
	if opts == nil {
		opts = &client.Options{}
	}
	ctx := context.Background()
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		tb.Fatalf("connect server: %v", err)
	}
	tb.Cleanup(func() { _ = ss.Close() })

	cs, err := client.New(opts).Connect(ctx, clientTransport, client.SessionOptions(opts))
	if err != nil {
		tb.Fatalf("connect client: %v", err)
	}
	tb.Cleanup(func() { _ = cs.Close() })
	return cs
}

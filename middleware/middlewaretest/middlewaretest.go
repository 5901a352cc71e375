// Package middlewaretest connects test clients with a chosen profile to a
// go-sdk server, over in-memory transports, in either protocol era: what a
// server author needs to test how each client is served. [CheckSameResults]
// proves that clients that did not declare the extension get, byte for
// byte, what the server sends without the middleware.
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

// LegacyProtocol is the newest protocol version of the legacy era.
const LegacyProtocol = client.LegacyProtocol

// Options describes the client to connect; see package client.
type Options = client.Options

// Declare returns the settings of a client that declares version 1.0 of the
// extension with these feature tags.
func Declare(tags ...string) map[string]any { return client.Declare(tags...) }

// Connect connects server and a new client over in-memory transports and
// returns the client's session. Both sessions are closed when the test ends;
// a failure to connect fails the test.
func Connect(tb testing.TB, server *mcp.Server, opts *Options) *mcp.ClientSession {
	tb.Helper()
	if opts == nil {
		opts = &Options{}
	}
	ctx := context.Background()
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		tb.Fatalf("connect server: %v", err)
	}
	tb.Cleanup(func() { _ = ss.Close() })

	cs, err := NewClient(opts).Connect(ctx, clientTransport, SessionOptions(opts))
	if err != nil {
		tb.Fatalf("connect client: %v", err)
	}
	tb.Cleanup(func() { _ = cs.Close() })
	return cs
}

// NewClient returns the client opts describe, for transports other than
// in-memory ones (stdio, streamable HTTP).
func NewClient(opts *Options) *mcp.Client { return client.New(opts) }

// SessionOptions returns the session options opts describe.
func SessionOptions(opts *Options) *mcp.ClientSessionOptions { return client.SessionOptions(opts) }

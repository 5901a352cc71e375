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

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/negotiation"
)

// LegacyProtocol is the newest protocol version of the legacy era
// (initialize handshake, capabilities kept per session).
const LegacyProtocol = "2025-11-25"

// Options describes the client to connect. A nil *Options connects a
// stateless-era client that does not declare the extension.
type Options struct {
	// Settings are what the client declares under
	// capabilities.extensions[negotiation.ExtensionID]; nil declares nothing.
	// [Declare] builds them from tags.
	Settings map[string]any
	// Legacy connects with the initialize handshake of protocol 2025-11-25
	// instead of the stateless protocol, the go-sdk client's default.
	Legacy bool
	// Client configures the client; its Capabilities, when set, are copied
	// and get the extension settings added. nil means defaults.
	Client *mcp.ClientOptions
}

// Declare returns the settings of a client that declares version 1.0 of the
// extension with these feature tags.
func Declare(tags ...string) map[string]any {
	return negotiation.Settings{Features: tags}.Map()
}

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
// in-memory ones (stdio, streamable HTTP). It can call resources/metadata
// with middleware.ResourceMetadata.
func NewClient(opts *Options) *mcp.Client {
	if opts == nil {
		opts = &Options{}
	}
	var clientOpts mcp.ClientOptions
	if opts.Client != nil {
		clientOpts = *opts.Client
	}
	caps := &mcp.ClientCapabilities{}
	if clientOpts.Capabilities != nil {
		copied := *clientOpts.Capabilities
		caps = &copied
		caps.Extensions = nil
		for k, v := range clientOpts.Capabilities.Extensions {
			if caps.Extensions == nil {
				caps.Extensions = make(map[string]any)
			}
			caps.Extensions[k] = v
		}
	}
	if opts.Settings != nil {
		caps.AddExtension(negotiation.ExtensionID, opts.Settings)
	}
	clientOpts.Capabilities = caps
	c := mcp.NewClient(&mcp.Implementation{Name: "middlewaretest", Version: "1.0.0"}, &clientOpts)
	_ = middleware.EnableResourceMetadata(c) // cannot fail: the method is not a standard one
	return c
}

// SessionOptions returns the session options opts describe: the legacy
// protocol when opts.Legacy is set, the client's default otherwise.
func SessionOptions(opts *Options) *mcp.ClientSessionOptions {
	if opts != nil && opts.Legacy {
		return &mcp.ClientSessionOptions{ProtocolVersion: LegacyProtocol}
	}
	return nil
}

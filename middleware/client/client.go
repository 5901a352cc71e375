// Package client makes go-sdk clients that declare the content-negotiation
// extension with chosen feature tags, in either protocol era: for demos,
// orchestrators and tests that see how a server serves each profile. It
// does not import package testing; middleware/middlewaretest builds its
// test helpers on it.
package client

import (
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/resourcemeta"
	"github.com/contentneg/contentneg/negotiation"
)

// LegacyProtocol is the newest protocol version of the legacy era
// (initialize handshake, capabilities kept per session).
const LegacyProtocol = "2025-11-25"

// Options describes the client to connect. A nil *Options is a
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

// New returns the client opts describe. It can call resources/metadata with
// resourcemeta.Get.
func New(opts *Options) *mcp.Client {
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
		caps.Extensions = maps.Clone(clientOpts.Capabilities.Extensions)
	}
	if opts.Settings != nil {
		caps.AddExtension(negotiation.ExtensionID, opts.Settings)
	}
	clientOpts.Capabilities = caps
	c := mcp.NewClient(&mcp.Implementation{Name: "contentneg-client", Version: "1.0.0"}, &clientOpts)
	_ = resourcemeta.Enable(c) // cannot fail: the method is not a standard one
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

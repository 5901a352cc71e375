// Package negotiation turns what an MCP client declared for the
// content-negotiation extension into a [Profile], and decides from it how
// results are rendered: structured, markdown, text, or passed through.
//
// It also carries a profile in a context.Context for handlers, and keeps
// profiles per session for transports that do not. It imports no MCP SDK:
// the SDK front ends (package middleware and others) translate their types
// to and from this package, so every decision is made here once.
//
// Tags shape content; capabilities govern protocol actions. A profile never
// allows a request to the client on its own: [Profile.MayElicit] takes the
// client's real capability.
package negotiation

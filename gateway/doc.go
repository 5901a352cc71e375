// Package gateway puts content negotiation in front of an MCP server that is
// not written in Go, or not linked in: it speaks to the server (the upstream)
// as a client, started as a [Command] or reached as an [HTTPUpstream], and
// serves its clients, downstream, on stdio ([Gateway.ServeStdio]),
// streamable HTTP ([Gateway.Handler]) or the REST binding
// ([Gateway.RESTBackend], for package rest).
//
//	g, err := gateway.New(&gateway.Options{Upstream: &gateway.Command{Path: "server"}})
//	...
//	defer g.Close()
//	http.Handle("/mcp", g.Handler(nil))
//
// It speaks JSON-RPC as bytes. What it does not render passes byte for byte:
// lists, errors, notifications and progress, with every field the upstream
// sent, in its key order; a client that declares nothing gets the upstream's
// results unchanged. What it renders (tools/call, resources/read and
// prompts/get results of clients that declared a profile), package shaping
// renders from the upstream's raw value, through ports on the JSON
// (exact digits, the output schema's written order).
//
// Each downstream session gets an upstream session of its own (for a
// [Command], its own process), started on its initialize, so that no state,
// question, log line or resource update of one client reaches another.
// Requests without a session (REST, stateless HTTP) share one upstream
// session, never an MCP client's. An answer that is too large, too deep or
// not JSON fails its call and nothing else. The gateway bridges no protocol
// era: a client speaks the upstream's.
//
// cmd/contentneg is this package behind flags; docs/gateway.md describes
// both.
package gateway

// Package mcpgo negotiates content for MCP servers written on
// github.com/mark3labs/mcp-go (v1.2.1): one call, [Install], gives such a
// server what package middleware gives a go-sdk server, so that a client
// cannot tell which SDK a server was written on:
//
//	s := server.NewMCPServer("forecast", "1.0.0")
//	mcpgo.Install(s, &mcpgo.Options{Logger: log})
//
// Tool handlers that ask the client a question use [Elicit] (and
// [MayElicit] to know whether they may); [Adapter.Register] gives a tool
// its own renderers.
//
// It translates mcp-go's hooks, tool, resource and prompt handler
// middlewares, request protocol info and sessions into the plain values of
// package shaping, and shaping's plans back into mcp-go results; every
// decision is shaping's. It never changes what clients that did not
// declare the extension get, and never sends a request to a client on its
// own.
//
// What mcp-go v1.2.1 cannot carry: a resource handler (or middleware)
// cannot choose a JSON-RPC error code, so a missing resource is the SDK's
// error (-32602 in the stateless era and -32002 in the legacy era for a URI
// no handler serves; -32603 for a handler's error), not always -32602 with
// data.uri; and there is no sending middleware, so a handler's own
// RequestElicitation call is gated only when it goes through [Elicit].
package mcpgo

// Package rest serves an MCP server's tools, resources and prompts as the
// REST API of seed 004 (contract section 8): [New] returns an [http.Handler]
// under a base path, where the Accept header (or ?format=) picks the
// rendering, GETs carry strong ETags and honour If-None-Match, resource
// content honours Range and If-Modified-Since, lists page with limit (1 to
// 500, 50 by default) and cursor, items carry HAL _links, and every error is
// the seed's JSON body ([Error]).
//
//	backend, err := gosdkbackend.New(ctx, server, nil) // server has the middleware
//	http.Handle("/mcp/v1/", rest.New(backend, &rest.Options{BasePath: "/mcp/v1"}))
//
// It never imports an MCP SDK and never renders anything itself: a [Backend]
// (package rest/gosdkbackend for the official Go SDK, rest/mcpgobackend for
// mark3labs/mcp-go, or the gateway's) forwards each request to the server as
// a client that declared the content-negotiation extension with the
// negotiated "format=" and "!interactive", so a REST client gets the very
// bytes an MCP client with the same preference gets, and the elicitation
// gate declines every question for it.
//
// Authentication is the embedding application's: wrap the handler in any
// net/http middleware, or set [Options].APIKey.
package rest

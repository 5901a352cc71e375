// Package middleware puts content negotiation on a server of the official Go
// MCP SDK (github.com/modelcontextprotocol/go-sdk): it advertises the
// extension, resolves each client's profile, puts it in the handlers'
// context and rewrites results as the profile asks. One call installs it:
//
//	server := mcp.NewServer(impl, nil)
//	middleware.Install(server, &middleware.Options{Logger: log})
//
// Clients that do not declare the extension get the SDK's own results, byte
// for byte, at the cost of one check per request.
//
// A tool handler that asks the client a question calls [Elicit], in either
// protocol era (and [MayElicit] to know whether it may); a client that
// declared "!interactive" gets the refusal without being asked.
// [Middleware.Register] gives a tool its own renderings (package renderers),
// [Middleware.Handler] wraps the SDK's streamable HTTP handler so that a
// client that goes away does not leave questions waiting, and
// [Middleware.Close] ends the open questions at shutdown. Package
// middlewaretest connects test clients with chosen tags.
//
// It only translates: it is package shaping's port for this SDK, which
// runs every call (shaping.ServeTool and its kin) and asks the middleware
// only what needs the SDK's types; it never makes a request of its own (a
// tool's output schema comes from the SDK's registration).
package middleware

// Package middleware puts content negotiation on a server of the official Go
// MCP SDK (github.com/modelcontextprotocol/go-sdk): it advertises the
// extension, resolves each client's profile, puts it in the handlers'
// context and rewrites results as the profile asks.
//
// It only translates: the SDK's requests and results become the plain
// values of package shaping, which makes every decision of the contract,
// and shaping's answers become the SDK's results. One call installs it:
//
//	server := mcp.NewServer(impl, nil)
//	middleware.Install(server, &middleware.Options{Logger: log})
//
// Clients that do not declare the extension get the SDK's own results, byte
// for byte, at the cost of one check per request.
package middleware

package middleware

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Receiving is the middleware's receiving middleware on its own, with a
// catalog of its own, for the benchmarks and allocation tests that run it
// on a bare handler.
func (m *Middleware) Receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return m.receiving(&toolPort{tools: &catalog{}})(next)
}

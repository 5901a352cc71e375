package mcpgo

import "github.com/mark3labs/mcp-go/server"

// New returns an Adapter that serves no server yet, for the benchmark of
// its tool middleware alone.
func New(opts *Options) *Adapter { return newAdapter(opts) }

// ToolMiddleware is the adapter's tool handler middleware on its own.
func (a *Adapter) ToolMiddleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return a.toolMiddleware(next)
}

package middleware

import (
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
)

// advertise returns caps with the extension added under
// extensions[negotiation.ExtensionID] = {}. Everything else, the logging
// capability among it, stays; the map is copied, never changed in place.
func advertise(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	extensions := maps.Clone(caps.Extensions)
	if extensions == nil {
		extensions = make(map[string]any, 1)
	}
	extensions[negotiation.ExtensionID] = map[string]any{}
	caps.Extensions = extensions
	return caps
}

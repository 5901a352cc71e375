package middleware

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxTools bounds the tools a catalog keeps; past it, it starts anew.
const maxTools = 4096

// catalog keeps the tools of one server as its tools/list results pass
// through the middleware, so that a tools/call finds its tool's output
// schema without a request of the middleware's own: the go-sdk has no
// public lookup of a registered tool.
type catalog struct {
	mu    sync.RWMutex
	tools map[string]*mcp.Tool
}

// learn keeps the tools of a tools/list result.
func (c *catalog) learn(res mcp.Result) {
	list, ok := res.(*mcp.ListToolsResult)
	if !ok || list == nil || len(list.Tools) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tools == nil || len(c.tools)+len(list.Tools) > maxTools {
		c.tools = make(map[string]*mcp.Tool, len(list.Tools))
	}
	for _, t := range list.Tools {
		if t != nil {
			c.tools[t.Name] = t
		}
	}
}

// tool returns the tool named name, as the server last listed it.
func (c *catalog) tool(name string) (*mcp.Tool, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.tools[name]
	return t, ok
}

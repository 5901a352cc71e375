package middleware

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/renderers"
)

// catalog remembers what the rendering needs to know of each tool: whether
// it declares an output schema (then its results keep structuredContent)
// and the schema's property order and descriptions. The SDK has no public
// lookup of a registered tool, so the catalog learns from tools/list
// results passing through, and lists the tools itself when a call names a
// tool it has not seen.
type catalog struct {
	mu    sync.RWMutex
	tools map[string]toolInfo
}

type toolInfo struct {
	tool            *mcp.Tool // the registration learned from; a new one is learned again
	hasOutputSchema bool
	schema          *renderers.Schema
}

func newCatalog() *catalog { return &catalog{tools: make(map[string]toolInfo)} }

// learn records the tools of a tools/list result. Tools seen before, as the
// same registration, cost a map lookup.
func (c *catalog) learn(tools []*mcp.Tool) {
	for _, t := range tools {
		if t == nil {
			continue
		}
		c.mu.RLock()
		known, ok := c.tools[t.Name]
		c.mu.RUnlock()
		if ok && known.tool == t {
			continue
		}
		info := toolInfo{tool: t, hasOutputSchema: t.OutputSchema != nil}
		if info.hasOutputSchema {
			// The schema's JSON keeps the declared property order, which the
			// renderers use: typed tools deliver alphabetical keys.
			if doc, err := json.Marshal(t.OutputSchema); err == nil {
				info.schema, _ = renderers.ParseSchema(doc)
			}
		}
		c.mu.Lock()
		c.tools[t.Name] = info
		c.mu.Unlock()
	}
}

// maxListPages bounds the listing a lookup may do.
const maxListPages = 100

// lookup returns what is known of the named tool, listing the server's
// tools through next when the catalog has not seen it.
func (c *catalog) lookup(ctx context.Context, name string, req mcp.Request, next mcp.MethodHandler) toolInfo {
	c.mu.RLock()
	info, ok := c.tools[name]
	c.mu.RUnlock()
	if ok {
		return info
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	params := &mcp.ListToolsParams{}
	for range maxListPages {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: ss, Params: params})
		list, isList := res.(*mcp.ListToolsResult)
		if err != nil || !isList || list == nil {
			break
		}
		c.learn(list.Tools)
		if list.NextCursor == "" {
			break
		}
		params = &mcp.ListToolsParams{Cursor: list.NextCursor}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.tools[name]
}

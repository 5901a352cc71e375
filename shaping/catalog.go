package shaping

import (
	"sync"

	"github.com/contentneg/contentneg/renderers"
)

// ToolInfo is what the rendering needs to know of a tool: whether it
// declares an output schema (then its results keep structuredContent) and
// the schema's property order and descriptions.
type schemaInfo struct {
	HasOutputSchema bool
	Schema          *renderers.Schema
}

// maxSchemas bounds the parsed schemas kept; past it the cache starts anew.
const maxSchemas = 4096

// schemaCache keeps parsed output schemas by the identity of the tool
// registration they come from, so that a tool replaced under the same name,
// or the same name on another server, is parsed anew.
type schemaCache struct {
	mu     sync.Mutex
	byTool map[any]schemaInfo
}

// ToolInfo returns what is known of a tool's output schema. identity is any
// comparable value that changes when the tool is registered again (the
// SDK's pointer to the tool); schema returns the output schema's JSON, nil
// when the tool declares none, and is only called when identity is new.
func (s *Shaper) outputSchema(identity any, schema func() []byte) schemaInfo {
	c := &s.schemas
	c.mu.Lock()
	info, ok := c.byTool[identity]
	c.mu.Unlock()
	if ok {
		return info
	}
	if doc := schema(); doc != nil {
		info.HasOutputSchema = true
		info.Schema, _ = renderers.ParseSchema(doc)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byTool == nil || len(c.byTool) >= maxSchemas {
		c.byTool = make(map[any]schemaInfo)
	}
	c.byTool[identity] = info
	return info
}

package mcpgo

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/shaping"
)

// The per-call format argument (Options.FormatArgument) on mcp-go: the SDK
// validates a tool's input (WithInputSchemaValidation) before any tool
// handler middleware, so the adapter takes the argument out in the
// before-call hook, which gets the request the SDK goes on with, and
// carries it to its tool middleware in the request's _meta, under a key
// of its own that the middleware removes before the handler. The
// advertised schema is rewritten in the after-list hook. The decisions are
// the core's (shaping.Shaper.ToolInputSchema, shaping.Shaper.TakeArgument).

// argumentKey is the _meta key that carries the argument from the hook to
// the middleware; a client's own value under it is dropped.
const argumentKey = "io.github.contentneg/format-argument"

// carried is what the hook leaves under argumentKey.
type carried struct {
	arg     shaping.Argument
	created bool // the hook made the request's _meta: the middleware removes it whole
}

// installArgument adds the hooks of the format argument to hooks.
func (a *Adapter) installArgument(srv *server.MCPServer, hooks *server.Hooks) {
	if a.shaper.FormatArgument() == "" {
		return
	}
	hooks.AddAfterListTools(func(_ context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		if res == nil {
			return
		}
		tools := make([]mcp.Tool, len(res.Tools))
		for i, t := range res.Tools {
			tools[i] = t
			doc := []byte(t.RawInputSchema)
			if len(doc) == 0 {
				var err error
				if doc, err = json.Marshal(t.InputSchema); err != nil {
					continue
				}
			}
			if schema, changed := a.shaper.ToolInputSchema(doc); changed {
				tools[i].InputSchema, tools[i].RawInputSchema = mcp.ToolInputSchema{}, schema
			}
		}
		res.Tools = tools
	})
	hooks.AddBeforeCallTool(func(_ context.Context, _ any, req *mcp.CallToolRequest) {
		if m := req.Params.Meta; m != nil {
			if _, forged := m.AdditionalFields[argumentKey]; forged {
				cp := *m
				cp.AdditionalFields = maps.Clone(m.AdditionalFields)
				delete(cp.AdditionalFields, argumentKey)
				req.Params.Meta = &cp
			}
		}
		schema := func() []byte { return inputSchema(srv, req.Params.Name) }
		var arg shaping.Argument
		switch args := req.Params.Arguments.(type) {
		case map[string]any:
			var rest map[string]any
			if rest, arg = a.shaper.TakeArgumentMap(schema, args); len(rest) == len(args) {
				return
			}
			req.Params.Arguments = rest
			if len(req.Params.RawArguments) > 0 {
				req.Params.RawArguments, _ = a.shaper.TakeArgument(schema, req.Params.RawArguments)
			}
		case json.RawMessage:
			var rest []byte
			if rest, arg = a.shaper.TakeArgument(schema, args); len(rest) == len(args) && !arg.Given {
				return
			}
			req.Params.Arguments = json.RawMessage(rest)
		default:
			return
		}
		if !arg.Given {
			return
		}
		c := carried{arg: arg}
		if req.Params.Meta == nil {
			req.Params.Meta, c.created = &mcp.Meta{}, true
		} else {
			cp := *req.Params.Meta
			cp.AdditionalFields = maps.Clone(cp.AdditionalFields)
			req.Params.Meta = &cp
		}
		if req.Params.Meta.AdditionalFields == nil {
			req.Params.Meta.AdditionalFields = map[string]any{}
		}
		req.Params.Meta.AdditionalFields[argumentKey] = c
	})
}

// inputSchema returns the JSON of the input schema of the tool name on
// srv, nil when it has none or is unknown.
func inputSchema(srv *server.MCPServer, name string) []byte {
	t := srv.GetTool(name)
	if t == nil {
		return nil
	}
	if len(t.Tool.RawInputSchema) > 0 {
		return t.Tool.RawInputSchema
	}
	doc, _ := json.Marshal(t.Tool.InputSchema)
	return doc
}

// takeCarried returns the request without the argument the hook carried in
// its _meta, and the argument.
func takeCarried(req mcp.CallToolRequest) (mcp.CallToolRequest, shaping.Argument) {
	m := req.Params.Meta
	if m == nil {
		return req, shaping.Argument{}
	}
	c, ok := m.AdditionalFields[argumentKey].(carried)
	if !ok {
		return req, shaping.Argument{}
	}
	if c.created {
		req.Params.Meta = nil
		return req, c.arg
	}
	cp := *m
	cp.AdditionalFields = maps.Clone(m.AdditionalFields)
	delete(cp.AdditionalFields, argumentKey)
	if len(cp.AdditionalFields) == 0 {
		cp.AdditionalFields = nil
	}
	req.Params.Meta = &cp
	return req, c.arg
}

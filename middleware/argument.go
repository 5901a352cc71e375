package middleware

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
)

// The per-call format argument (Options.FormatArgument) on the go-sdk: the
// SDK validates a tool's input in the tool's own handler, below every
// receiving middleware, so the middleware can advertise the argument in
// the tools/list results that pass through it and take it out of the
// tools/call params before the SDK sees them. The decisions are the core's
// (shaping.Shaper.ToolInputSchema, shaping.Shaper.TakeArgument).

// advertiseArgument returns a tools/list result whose tools' input schemas
// have the format argument, in copies: the SDK's own tools are not changed.
func (m *Middleware) advertiseArgument(res mcp.Result) mcp.Result {
	r, ok := res.(*mcp.ListToolsResult)
	if !ok || r == nil || m.shaper.FormatArgument() == "" {
		return res
	}
	out := *r
	out.Tools = make([]*mcp.Tool, len(r.Tools))
	for i, t := range r.Tools {
		out.Tools[i] = t
		if t == nil || t.InputSchema == nil {
			continue
		}
		doc, err := json.Marshal(t.InputSchema)
		if err != nil {
			continue
		}
		if schema, changed := m.shaper.ToolInputSchema(doc); changed {
			cp := *t
			cp.InputSchema = json.RawMessage(schema)
			out.Tools[i] = &cp
		}
	}
	return &out
}

// takeArgument returns the tools/call exchange without the format argument
// in its arguments, with the argument for the core.
func (m *Middleware) takeArgument(x exchange, tools *toolPort) exchange {
	if m.shaper.FormatArgument() == "" {
		return x
	}
	params, ok := x.req.GetParams().(*mcp.CallToolParamsRaw)
	if !ok || params == nil {
		return x
	}
	schema := func() []byte {
		// As toolPort.Schema finds a tool: the SDK's registration, else
		// the tools/list results seen (a server that lists tools it does
		// not register, such as a gateway's mirror).
		ss, _ := x.req.GetSession().(*mcp.ServerSession)
		tool, found, readable := sdk.RegisteredTool(ss, params.Name)
		if !readable || !found {
			tool, found = tools.tools.tool(params.Name)
		}
		if !found || tool == nil || tool.InputSchema == nil {
			return nil
		}
		doc, _ := json.Marshal(tool.InputSchema)
		return doc
	}
	rest, arg := m.shaper.TakeArgument(schema, params.Arguments)
	if len(rest) == len(params.Arguments) && !arg.Given {
		return x
	}
	cp := *params
	cp.Arguments = rest
	ss, _ := x.req.GetSession().(*mcp.ServerSession)
	x.req = &mcp.CallToolRequest{Session: ss, Params: &cp, Extra: x.req.GetExtra()}
	x.arg = arg
	return x
}

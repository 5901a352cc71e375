package mcpgo

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// ToolMiddleware is the tool handler middleware: for a client that declared
// the extension, it puts the profile in the handler's context, keeps
// elicitations away from a client that cannot answer them (inputRequests
// are answered with the gate's refusal, and answers the client made up are
// replaced by it), and renders the result. Other clients' calls go to next
// untouched.
func (a *Adapter) ToolMiddleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		call, ctx := a.begin(ctx, "tools/call", req.Params.Name)
		if call == nil {
			return next(ctx, req)
		}
		defer call.Done()
		req.Params.MultiRoundTripParams = overrideAnswers(call, req.Params.MultiRoundTripParams)
		res, err := shaping.Gate(call, func(refused []string, state string) (*mcp.CallToolResult, error) {
			retry := req
			if refused != nil {
				retry.Params.MultiRoundTripParams = answered(call, req.Params.MultiRoundTripParams, refused, state)
			}
			return next(ctx, retry)
		}, func(r *mcp.CallToolResult) shaping.Asked { return asked(r.NeedsInput(), r.MultiRoundTripResult) })
		var still *shaping.StillAskingError
		if errors.As(err, &still) {
			return mcp.NewToolResultError(still.Error()), nil
		}
		if err != nil || res == nil {
			return res, err
		}
		return a.renderTool(ctx, call, res), nil
	}
}

// renderTool rewrites a tools/call result as shaping plans it.
func (a *Adapter) renderTool(ctx context.Context, call *shaping.Call, r *mcp.CallToolResult) *mcp.CallToolResult {
	in := shaping.Result{Tool: call.Name, IsError: r.IsError, NeedsInput: r.NeedsInput() || len(r.InputRequests) > 0, Hints: call.Hints()}
	rendering := call.Client.Profile.Rendering()
	if rendering == negotiation.PassThrough && len(in.Hints) == 0 || in.IsError || in.NeedsInput {
		return r
	}
	isText := make([]bool, len(r.Content))
	for i, c := range r.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			isText[i] = true
			in.Texts = append(in.Texts, t.Text)
		}
	}
	switch {
	case len(r.RawStructuredContent) > 0:
		in.Value = r.RawStructuredContent
	case r.StructuredContent != nil:
		v, err := json.Marshal(r.StructuredContent)
		if err != nil {
			return r // not JSON: nothing can be rendered
		}
		in.Value = v
	}
	if in.Value != nil && rendering != negotiation.Structured {
		info := a.toolInfo(server.ServerFromContext(ctx), call.Name)
		in.HasOutputSchema, in.Schema = info.HasOutputSchema, info.Schema
	}
	plan := a.shaper.Tool(call.Client.Profile, in)
	if plan.Unchanged() {
		return r
	}
	out := *r
	out.Content = make([]mcp.Content, 0, len(r.Content)+2)
	for _, b := range plan.Content(isText) {
		switch {
		case b.ForAssistant:
			hint := mcp.NewTextContent(b.Text)
			hint.Annotations = &mcp.Annotations{Audience: []mcp.Role{mcp.RoleAssistant}}
			out.Content = append(out.Content, hint)
		case b.From < 0:
			out.Content = append(out.Content, mcp.NewTextContent(b.Text))
		case b.Replaced:
			converted, _ := mcp.AsTextContent(r.Content[b.From])
			converted.Text = b.Text
			out.Content = append(out.Content, *converted)
		default:
			out.Content = append(out.Content, r.Content[b.From])
		}
	}
	if plan.DropStructured {
		// RawStructuredContent wins over StructuredContent on the wire.
		out.StructuredContent, out.RawStructuredContent = nil, nil
	}
	if plan.Structured != nil {
		out.StructuredContent, out.RawStructuredContent = nil, json.RawMessage(plan.Structured)
	}
	return &out
}

// toolKey identifies a tool registration: its server, name and output
// schema, by the address of the schema's bytes (stable across GetTool's
// copies, new when the tool is registered again) or, for a schema given as
// a struct, by its JSON.
type toolKey struct {
	srv    *server.MCPServer
	name   string
	raw    *byte
	schema string
}

// toolInfo returns what shaping knows of the tool's output schema, parsed
// once per registration.
func (a *Adapter) toolInfo(srv *server.MCPServer, name string) shaping.ToolInfo {
	if srv == nil {
		return shaping.ToolInfo{}
	}
	t := srv.GetTool(name)
	if t == nil {
		return shaping.ToolInfo{}
	}
	key := toolKey{srv: srv, name: name}
	schema := []byte(t.Tool.RawOutputSchema)
	switch {
	case len(schema) > 0:
		key.raw = &schema[0]
	case t.Tool.OutputSchema.Type != "":
		schema, _ = json.Marshal(t.Tool.OutputSchema)
		key.schema = string(schema)
	}
	return a.shaper.ToolInfo(key, func() []byte { return schema })
}

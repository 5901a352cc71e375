package middleware

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// renderTool rewrites a tools/call result as shaping plans it.
func (m *Middleware) renderTool(ctx context.Context, req mcp.Request, next mcp.MethodHandler, call *shaping.Call, res mcp.Result, err error) (mcp.Result, error) {
	r, ok := res.(*mcp.CallToolResult)
	if err != nil || !ok || r == nil {
		return res, err
	}
	in := shaping.Result{
		Tool:       call.Name,
		IsError:    r.IsError,
		NeedsInput: len(r.InputRequests) > 0 || r.NeedsInput(),
		Hints:      call.Hints(),
	}
	rendering := call.Client.Profile.Rendering()
	if rendering == negotiation.PassThrough && len(in.Hints) == 0 || in.IsError || in.NeedsInput {
		return res, nil
	}
	if r.StructuredContent == nil {
		in.Texts = appendTexts(nil, r.Content) // only what has no value needs its texts
		in.NonText = len(r.Content) - len(in.Texts)
	} else {
		if in.Value, err = structuredJSON(r.StructuredContent); err != nil {
			return res, nil // not JSON: nothing can be rendered, the result stays as it is
		}
		in.MirrorsValue = mirrors(r.Content, in.Value)
		if rendering != negotiation.Structured {
			info := m.toolInfo(ctx, call.Name, req, next)
			in.HasOutputSchema, in.Schema = info.HasOutputSchema, info.Schema
		}
	}
	return applyToolPlan(r, m.shaper.Tool(call.Client.Profile, in)), nil
}

// toolInfo finds the tool as the server has it now, by listing the tools
// through next (the SDK has no lookup of a registered tool), and returns
// what shaping knows of its output schema, parsed once per registration.
func (m *Middleware) toolInfo(ctx context.Context, name string, req mcp.Request, next mcp.MethodHandler) shaping.ToolInfo {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	tool, found := shaping.Find(func(cursor string) ([]*mcp.Tool, string, error) {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: ss, Params: &mcp.ListToolsParams{Cursor: cursor}})
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || list == nil {
			return nil, "", errNoList
		}
		return list.Tools, list.NextCursor, nil
	}, func(t *mcp.Tool) bool { return t != nil && t.Name == name })
	if !found {
		return shaping.ToolInfo{}
	}
	return m.shaper.ToolInfo(tool, func() []byte {
		if tool.OutputSchema == nil {
			return nil
		}
		doc, _ := json.Marshal(tool.OutputSchema)
		return doc
	})
}

// structuredJSON returns structuredContent as JSON text: typed tools give a
// json.RawMessage as is; any other value is encoded as the SDK would.
func structuredJSON(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

// appendTexts appends the text of each text block to out, in order.
func appendTexts(out []string, content []mcp.Content) []string {
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			out = append(out, t.Text)
		}
	}
	return out
}

// mirrors reports whether content is one text block holding value's text.
func mirrors(content []mcp.Content, value []byte) bool {
	if len(content) != 1 {
		return false
	}
	t, ok := content[0].(*mcp.TextContent)
	return ok && t != nil && t.Text == string(value)
}

// applyToolPlan returns the result the plan describes, leaving r itself
// untouched: a plan that changes nothing returns r.
func applyToolPlan(r *mcp.CallToolResult, plan shaping.Plan) *mcp.CallToolResult {
	if plan.Unchanged() {
		return r
	}
	isText := make([]bool, len(r.Content))
	for i, c := range r.Content {
		t, ok := c.(*mcp.TextContent)
		isText[i] = ok && t != nil
	}
	out := *r
	out.Content = make([]mcp.Content, 0, len(r.Content)+2)
	for _, b := range plan.Content(isText) {
		switch {
		case b.ForAssistant:
			out.Content = append(out.Content, &mcp.TextContent{Text: b.Text, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}})
		case b.From < 0:
			out.Content = append(out.Content, &mcp.TextContent{Text: b.Text})
		case b.Replaced:
			converted := *r.Content[b.From].(*mcp.TextContent)
			converted.Text = b.Text
			out.Content = append(out.Content, &converted)
		default:
			out.Content = append(out.Content, r.Content[b.From])
		}
	}
	if plan.DropStructured {
		out.StructuredContent = nil
	}
	if plan.Structured != nil {
		out.StructuredContent = json.RawMessage(plan.Structured)
	}
	return &out
}

var errNoList = errors.New("no list result")

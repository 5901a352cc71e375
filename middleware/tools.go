package middleware

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// callTool runs a tools/call for a client that declared the extension and
// rewrites the result as shaping plans it.
func (m *Middleware) callTool(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler, cl *call) (mcp.Result, error) {
	c := cl.client
	var hints *negotiation.Hints // the collector of the handler's last invocation
	invoke := func(req mcp.Request) (mcp.Result, error) {
		callCtx := ctx
		if c.profile.WantsHints() {
			callCtx, hints = negotiation.WithHints(ctx)
		}
		return next(callCtx, method, req)
	}
	res, err := m.gateInputs(method, req, invoke, cl)
	r, ok := res.(*mcp.CallToolResult)
	if err != nil || !ok || r == nil {
		return res, err
	}
	rendering := c.profile.Rendering()
	collected := hints.All()
	if rendering == negotiation.PassThrough && len(collected) == 0 {
		return res, nil
	}

	params, _ := req.GetParams().(*mcp.CallToolParamsRaw)
	in := shaping.Result{
		IsError:    r.IsError,
		NeedsInput: len(r.InputRequests) > 0 || r.NeedsInput(),
		Texts:      texts(r.Content),
		Hints:      collected,
	}
	if params != nil {
		in.Tool = params.Name
	}
	if !in.IsError && !in.NeedsInput && r.StructuredContent != nil {
		value, err := structuredJSON(r.StructuredContent)
		if err != nil {
			m.log.Warn("structuredContent is not JSON; result passed through", zap.String("tool", in.Tool), zap.Error(err))
			return res, nil
		}
		in.Value = value
		if rendering == negotiation.Markdown || rendering == negotiation.Text {
			info := m.tools.lookup(ctx, in.Tool, req, next)
			in.HasOutputSchema, in.Schema = info.hasOutputSchema, info.schema
		}
	}
	return applyToolPlan(r, m.shaper.Tool(c.profile, in)), nil
}

// structuredJSON returns structuredContent as JSON text: typed tools give a
// json.RawMessage as is; any other value is encoded as the SDK would.
func structuredJSON(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

// texts returns the text of each text block, in order.
func texts(content []mcp.Content) []string {
	var out []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			out = append(out, t.Text)
		}
	}
	return out
}

// applyToolPlan returns the result the plan describes, leaving r itself
// untouched: a plan that changes nothing returns r.
func applyToolPlan(r *mcp.CallToolResult, plan shaping.Plan) *mcp.CallToolResult {
	if plan.Unchanged() {
		return r
	}
	out := *r
	out.Content = rewriteContent(r.Content, plan)
	if plan.DropStructured {
		out.StructuredContent = nil
	}
	return &out
}

// rewriteContent applies a plan's text changes and appends its hints block.
func rewriteContent(content []mcp.Content, plan shaping.Plan) []mcp.Content {
	out := make([]mcp.Content, 0, len(content)+2)
	switch {
	case plan.ReplaceText:
		if plan.Text != "" {
			out = append(out, &mcp.TextContent{Text: plan.Text})
		}
		for _, c := range content {
			if _, isText := c.(*mcp.TextContent); !isText {
				out = append(out, c)
			}
		}
	case plan.Texts != nil:
		i := 0
		for _, c := range content {
			if t, isText := c.(*mcp.TextContent); isText && t != nil && i < len(plan.Texts) {
				converted := *t
				converted.Text = plan.Texts[i]
				i++
				c = &converted
			}
			out = append(out, c)
		}
	default:
		out = append(out, content...)
	}
	if plan.Hints != "" {
		out = append(out, &mcp.TextContent{
			Text:        plan.Hints,
			Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}},
		})
	}
	return out
}

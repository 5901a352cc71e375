package middleware

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/shaping"
)

// renderResource rewrites a resources/read result as shaping plans it.
func (m *Middleware) renderResource(req mcp.Request, res mcp.Result, call *shaping.Call) mcp.Result {
	r, ok := res.(*mcp.ReadResourceResult)
	if !ok || r == nil || len(r.InputRequests) > 0 {
		return res
	}
	contents := make([]shaping.Content, 0, len(r.Contents))
	for _, rc := range r.Contents {
		if rc == nil {
			return res // a result the SDK would not send either; leave it to the SDK
		}
		contents = append(contents, shaping.Content{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Blob: rc.Blob != nil})
	}
	exact, _ := sdk.ExactResource(req, call.Name)
	plans := m.shaper.ReadResource(call.Client.Profile, call.Name, exact, contents)
	if plans == nil {
		return res
	}
	out := *r
	out.Contents = make([]*mcp.ResourceContents, len(plans))
	for i, plan := range plans {
		rc := *r.Contents[plan.From]
		if plan.Changed {
			rc.MIMEType, rc.Text = plan.MIMEType, plan.Text
		}
		out.Contents[i] = &rc
	}
	return &out
}

// notFound translates the outcome of a resources/read into the error
// shaping.NotFound prescribes: -32602 with the URI in the error data.
func notFound(uri string, res mcp.Result, err error) (mcp.Result, error) {
	var code int64
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		code = wire.Code
	}
	r, _ := res.(*mcp.ReadResourceResult)
	empty := r != nil && r.Contents != nil && len(r.Contents) == 0 && len(r.InputRequests) == 0
	if shaping.NotFound(err, code, empty) {
		return nil, resourceNotFound(uri)
	}
	return res, err
}

func resourceNotFound(uri string) error {
	return &jsonrpc.Error{Code: shaping.NotFoundCode, Message: shaping.NotFoundMessage, Data: shaping.NotFoundData(uri)}
}

// renderPrompt converts the texts of a prompts/get result as shaping plans.
func (m *Middleware) renderPrompt(res mcp.Result, call *shaping.Call) mcp.Result {
	r, ok := res.(*mcp.GetPromptResult)
	if !ok || r == nil || len(r.InputRequests) > 0 {
		return res
	}
	var texts []string
	for _, msg := range r.Messages {
		if t, ok := textOf(msg); ok {
			texts = append(texts, t.Text)
		}
	}
	converted := m.shaper.Prompt(call.Client.Profile, texts)
	if converted == nil {
		return res
	}
	out := *r
	out.Messages = make([]*mcp.PromptMessage, len(r.Messages))
	i := 0
	for j, msg := range r.Messages {
		out.Messages[j] = msg
		if t, ok := textOf(msg); ok {
			content, message := *t, *msg
			content.Text = converted[i]
			i++
			message.Content = &content
			out.Messages[j] = &message
		}
	}
	return &out
}

func textOf(msg *mcp.PromptMessage) (*mcp.TextContent, bool) {
	if msg == nil {
		return nil, false
	}
	t, ok := msg.Content.(*mcp.TextContent)
	return t, ok && t != nil
}

package middleware

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/shaping"
)

// codeLegacyNotFound is the "resource not found" code of earlier
// specifications (and of the SDK with MCPGODEBUG=customresnotfounderrcode=1).
const codeLegacyNotFound = -32002

// renderResource rewrites a resources/read result as shaping plans it for
// the client's profile: format alternatives narrowed to the best match,
// JSON rendered as markdown or plain text, blobs untouched.
func (m *Middleware) renderResource(req mcp.Request, res mcp.Result, c *call) mcp.Result {
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
	plans := m.shaper.Resource(c.client.profile, requestName(req), contents)
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

// notFound makes every form of "resource not found" the error the contract
// prescribes (section 7, SEP-2093): -32602 with the URI in the error data.
// A handler may signal it with shaping.ErrNotFound, fs.ErrNotExist, the
// SDK's mcp.ResourceNotFoundError (under either code), or an empty list of
// contents. Other errors and results are returned as they are.
func notFound(uri string, res mcp.Result, err error) (mcp.Result, error) {
	if err != nil {
		var wire *jsonrpc.Error
		if errors.Is(err, shaping.ErrNotFound) || errors.Is(err, fs.ErrNotExist) ||
			errors.As(err, &wire) && wire.Code == codeLegacyNotFound {
			return nil, resourceNotFound(uri)
		}
		return res, err
	}
	if r, ok := res.(*mcp.ReadResourceResult); ok && r != nil && r.Contents != nil && len(r.Contents) == 0 && len(r.InputRequests) == 0 {
		return nil, resourceNotFound(uri)
	}
	return res, nil
}

func resourceNotFound(uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found", Data: data}
}

// renderPrompt converts the markdown texts of a prompts/get result to plain
// text for clients that get the text rendering.
func (m *Middleware) renderPrompt(res mcp.Result, c *call) mcp.Result {
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
	converted := m.shaper.Prompt(c.client.profile, texts)
	if converted == nil {
		return res
	}
	out := *r
	out.Messages = make([]*mcp.PromptMessage, len(r.Messages))
	i := 0
	for j, msg := range r.Messages {
		out.Messages[j] = msg
		if t, ok := textOf(msg); ok {
			content := *t
			content.Text = converted[i]
			i++
			message := *msg
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

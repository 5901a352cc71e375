package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/shaping"
)

// ResourceMiddleware is the resource handler middleware: for a client that
// declared the extension, it puts the profile in the handler's context and
// narrows format alternatives and renders JSON contents as shaping plans.
// Other clients' reads go to next untouched.
func (a *Adapter) ResourceMiddleware(next server.ResourceHandlerFunc) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		call, ctx := a.begin(ctx, "resources/read", req.Params.URI)
		if call == nil {
			return next(ctx, req)
		}
		defer call.Done()
		contents, err := next(ctx, req)
		if err != nil {
			return contents, err
		}
		in := make([]shaping.Content, len(contents))
		for i, c := range contents {
			switch c := c.(type) {
			case mcp.TextResourceContents:
				in[i] = shaping.Content{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
			case *mcp.TextResourceContents:
				in[i] = shaping.Content{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
			case mcp.BlobResourceContents:
				in[i] = shaping.Content{URI: c.URI, MIMEType: c.MIMEType, Blob: true}
			case *mcp.BlobResourceContents:
				in[i] = shaping.Content{URI: c.URI, MIMEType: c.MIMEType, Blob: true}
			default:
				return contents, nil // a kind shaping does not know: left to the SDK
			}
		}
		// mcp-go fills Params.Arguments with the template's variables
		// (a map, never nil) when a URI template serves the read, and only
		// then: a resource registered under its own URI has none.
		exact := req.Params.Arguments == nil
		plans := a.shaper.ReadResource(call.Client.Profile, call.Name, exact, in)
		if plans == nil {
			return contents, nil
		}
		out := make([]mcp.ResourceContents, len(plans))
		for i, plan := range plans {
			out[i] = contents[plan.From]
			if plan.Changed {
				t := textContents(contents[plan.From])
				t.MIMEType, t.Text = plan.MIMEType, plan.Text
				out[i] = t
			}
		}
		return out, nil
	}
}

// textContents returns a copy of a text content (shaping changes only those).
func textContents(c mcp.ResourceContents) mcp.TextResourceContents {
	if p, ok := c.(*mcp.TextResourceContents); ok {
		return *p
	}
	return c.(mcp.TextResourceContents)
}

// PromptMiddleware is the prompt handler middleware: for a client that
// declared the extension, it puts the profile in the handler's context,
// keeps elicitations away from a client that cannot answer them, and
// converts markdown prompt texts to plain text for the text rendering.
// Other clients' requests go to next untouched.
func (a *Adapter) PromptMiddleware(next server.PromptHandlerFunc) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		call, ctx := a.begin(ctx, "prompts/get", req.Params.Name)
		if call == nil {
			return next(ctx, req)
		}
		defer call.Done()
		req.Params.MultiRoundTripParams = overrideAnswers(call, req.Params.MultiRoundTripParams)
		res, err := shaping.Gate(call, func(refused []string, state string) (*mcp.GetPromptResult, error) {
			retry := req
			if refused != nil {
				retry.Params.MultiRoundTripParams = answered(call, req.Params.MultiRoundTripParams, refused, state)
			}
			return next(ctx, retry)
		}, func(r *mcp.GetPromptResult) shaping.Asked { return asked(r.NeedsInput(), r.MultiRoundTripResult) })
		if err != nil || res == nil || res.NeedsInput() { // a *shaping.StillAskingError becomes a protocol error
			return res, err
		}
		var texts []string
		for _, m := range res.Messages {
			if t, ok := mcp.AsTextContent(m.Content); ok {
				texts = append(texts, t.Text)
			}
		}
		converted := a.shaper.Prompt(call.Client.Profile, texts)
		if converted == nil {
			return res, nil
		}
		out := *res
		out.Messages = make([]mcp.PromptMessage, len(res.Messages))
		i := 0
		for j, m := range res.Messages {
			out.Messages[j] = m
			if t, ok := mcp.AsTextContent(m.Content); ok {
				t.Text = converted[i]
				out.Messages[j].Content = *t
				i++
			}
		}
		return &out, nil
	}
}

package mcpgo

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/shaping"
)

// resourceMiddleware is the resource handler middleware: every read goes
// through shaping.ServeResource, which, for a client that declared the
// extension, puts the profile in the handler's context and narrows format
// alternatives and renders JSON contents; with Options.Recover, a panicking
// handler is an internal error. Other clients' reads go to next untouched.
func (a *Adapter) resourceMiddleware(next server.ResourceHandlerFunc) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return shaping.ServeResource(ctx, a.shaper, &a.resource, resourceRead{ctx: ctx, next: next, req: req})
	}
}

// resourceRead is one resources/read as the resource port sees it.
type resourceRead struct {
	ctx  context.Context
	next server.ResourceHandlerFunc
	req  mcp.ReadResourceRequest
}

// resourcePort is mcp-go's side of resources/read.
type resourcePort struct{}

var _ shaping.ResourcePort[resourceRead, []mcp.ResourceContents] = (*resourcePort)(nil)

func (*resourcePort) Facts(x resourceRead) (shaping.Request, string) {
	return facts(x.ctx, x.req.Params.Meta), x.req.Params.URI
}

func (*resourcePort) SessionKey(x resourceRead) any { return sessionKeyOf(x.ctx) }

func (*resourcePort) Run(ctx context.Context, x resourceRead, refused shaping.Refused) ([]mcp.ResourceContents, error) {
	req := x.req
	if refused.IDs != nil {
		req.Params.MultiRoundTripParams = answered(req.Params.MultiRoundTripParams, refused.IDs, refused.Action, refused.State)
	}
	return x.next(ctx, req)
}

func (*resourcePort) Answered(x resourceRead) ([]string, string) {
	return answeredIDs(x.req.Params.MultiRoundTripParams)
}

// Asked: an mcp-go resource handler returns contents only, never input
// requests.
func (*resourcePort) Asked([]mcp.ResourceContents) ([]string, string) { return nil, "" }

func (*resourcePort) Internal(text string) error { return errors.New(text) }

// Code: mcp-go's resource errors carry no JSON-RPC code a handler can set.
func (*resourcePort) Code(error) int64 { return 0 }

func (*resourcePort) Empty(contents []mcp.ResourceContents) bool {
	return contents != nil && len(contents) == 0
}

func (*resourcePort) Contents(contents []mcp.ResourceContents) ([]shaping.Content, bool) {
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
			return nil, false // a kind shaping does not know: left to the SDK
		}
	}
	return in, true
}

// Exact: mcp-go fills Params.Arguments with the template's variables (a
// map, never nil) when a URI template serves the read, and only then: a
// resource registered under its own URI has none.
func (*resourcePort) Exact(x resourceRead, _ string) bool { return x.req.Params.Arguments == nil }

func (*resourcePort) Rebuild(contents []mcp.ResourceContents, plans []shaping.ContentPlan) []mcp.ResourceContents {
	out := make([]mcp.ResourceContents, len(plans))
	for i, plan := range plans {
		out[i] = contents[plan.From]
		if plan.Changed {
			t := textContents(contents[plan.From])
			t.MIMEType, t.Text = plan.MIMEType, plan.Text
			out[i] = t
		}
	}
	return out
}

// NotFound leaves the handler's outcome as it is: mcp-go v1.2.1 makes any
// resource handler's error -32603, and no middleware can change it (see
// the package documentation).
func (*resourcePort) NotFound(_ string, contents []mcp.ResourceContents, err error) ([]mcp.ResourceContents, error) {
	return contents, err
}

// textContents returns a copy of a text content (shaping changes only those).
func textContents(c mcp.ResourceContents) mcp.TextResourceContents {
	if p, ok := c.(*mcp.TextResourceContents); ok {
		return *p
	}
	return c.(mcp.TextResourceContents)
}

// promptMiddleware is the prompt handler middleware: every request goes
// through shaping.ServePrompt, which, for a client that declared the
// extension, puts the profile in the handler's context, keeps
// elicitations away from a client that cannot answer them, and converts
// markdown prompt texts to plain text for the text rendering; with
// Options.Recover, a panicking handler is an internal error. Other
// clients' requests go to next untouched.
func (a *Adapter) promptMiddleware(next server.PromptHandlerFunc) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return shaping.ServePrompt(ctx, a.shaper, &a.prompt, promptGet{ctx: ctx, next: next, req: req})
	}
}

// promptGet is one prompts/get as the prompt port sees it.
type promptGet struct {
	ctx  context.Context
	next server.PromptHandlerFunc
	req  mcp.GetPromptRequest
}

// promptPort is mcp-go's side of prompts/get.
type promptPort struct{}

var _ shaping.PromptPort[promptGet, *mcp.GetPromptResult] = (*promptPort)(nil)

func (*promptPort) Facts(x promptGet) (shaping.Request, string) {
	return facts(x.ctx, x.req.Params.Meta), x.req.Params.Name
}

func (*promptPort) SessionKey(x promptGet) any { return sessionKeyOf(x.ctx) }

func (*promptPort) Run(ctx context.Context, x promptGet, refused shaping.Refused) (*mcp.GetPromptResult, error) {
	req := x.req
	if refused.IDs != nil {
		req.Params.MultiRoundTripParams = answered(req.Params.MultiRoundTripParams, refused.IDs, refused.Action, refused.State)
	}
	return x.next(ctx, req)
}

func (*promptPort) Answered(x promptGet) ([]string, string) {
	return answeredIDs(x.req.Params.MultiRoundTripParams)
}

func (*promptPort) Asked(r *mcp.GetPromptResult) ([]string, string) {
	if r == nil {
		return nil, ""
	}
	return asked(r.NeedsInput(), r.MultiRoundTripResult)
}

func (*promptPort) Internal(text string) error { return errors.New(text) }

func (*promptPort) Texts(r *mcp.GetPromptResult) ([]string, bool) {
	if r == nil || r.NeedsInput() {
		return nil, false
	}
	var texts []string
	for _, m := range r.Messages {
		if t, ok := mcp.AsTextContent(m.Content); ok {
			texts = append(texts, t.Text)
		}
	}
	return texts, true
}

func (*promptPort) Rebuild(r *mcp.GetPromptResult, converted []string) *mcp.GetPromptResult {
	out := *r
	out.Messages = make([]mcp.PromptMessage, len(r.Messages))
	i := 0
	for j, m := range r.Messages {
		out.Messages[j] = m
		if t, ok := mcp.AsTextContent(m.Content); ok {
			t.Text = converted[i]
			out.Messages[j].Content = *t
			i++
		}
	}
	return &out
}

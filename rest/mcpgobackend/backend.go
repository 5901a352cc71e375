// Package mcpgobackend is the REST binding's backend for servers of
// github.com/mark3labs/mcp-go: it hands every REST request to the server's
// own dispatch (MCPServer.HandleMessage) as a stateless-era request
// (2026-07-28) whose _meta declares the content-negotiation extension with
// the request's feature tags and no elicitation capability.
//
// The server's adapter (package mcpgo) then renders and gates exactly as it
// does for MCP clients: a REST client gets the bytes an MCP client with the
// same "format=" gets, and no question reaches it. There is no session to
// keep or lose. It never renders anything itself, and refuses a server
// without the adapter (see [ErrNotNegotiating]).
package mcpgobackend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/internal/notfound"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/shaping"
)

// ErrNotNegotiating reports a server that does not advertise the
// content-negotiation extension: without the adapter, REST clients would
// get the handlers' results unrendered and ungated.
var ErrNotNegotiating = errors.New("the server does not advertise the content-negotiation extension (install package mcpgo)")

// protocol is the version every request declares.
const protocol = "2026-07-28"

// maxPages bounds the pages one listing walks.
const maxPages = 100

// backend forwards the REST binding's requests to an mcp-go server.
type backend struct {
	srv *server.MCPServer
	ids atomic.Int64
}

var _ rest.Backend = (*backend)(nil)

// New returns the backend of srv, which must have package mcpgo installed,
// for [rest.New]; it is safe for concurrent use, and holds nothing to close.
// It adds an OnError hook to srv (to read the Go errors of its own
// requests: a rejected argument, a missing item), so, like mcpgo.Install,
// it is best called before srv serves clients: mcp-go's hooks are not
// guarded against a hook added while requests run.
func New(ctx context.Context, srv *server.MCPServer) (rest.Backend, error) {
	b := &backend{srv: srv}
	keepCauses(srv)
	s, err := b.Server(ctx)
	if err != nil {
		return nil, err
	}
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(s.Capabilities, &caps); err != nil || caps.Extensions[shaping.ExtensionID] == nil {
		return nil, fmt.Errorf("mcpgobackend: %w", ErrNotNegotiating)
	}
	return b, nil
}

// rpcError is a JSON-RPC error the server answered, with the Go error the
// server's dispatch failed with, when its OnError hook gave it.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	cause   error
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// Unwrap returns the Go error behind the answer, nil when unknown.
func (e *rpcError) Unwrap() error { return e.cause }

// causeKey is the context key of the *error in which the OnError hook
// keeps the Go error of a request this backend sends: mcp-go answers a
// prompt or resource handler's error as -32603 with its text only, and the
// error's type tells a rejected argument (mcp.ErrInvalidParams) or a
// missing item (shaping.ErrNotFound) from a failure.
type causeKey struct{}

// keepCauses adds the OnError hook that keeps the errors of this package's
// requests.
func keepCauses(srv *server.MCPServer) {
	hooks := srv.GetHooks()
	if hooks == nil {
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(srv)
	}
	hooks.AddOnError(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any, err error) {
		if cause, ok := ctx.Value(causeKey{}).(*error); ok {
			*cause = err
		}
	})
}

// call sends one request declaring features and decodes its result into out.
func (b *backend) call(ctx context.Context, method string, params map[string]any, features []string, out any) error {
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion": protocol,
		"io.modelcontextprotocol/clientInfo":      map[string]any{"name": "contentneg-rest", "version": "1.0.0"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{
			shaping.ExtensionID: map[string]any{"version": "1.0", "features": features},
		}},
	}
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": b.ids.Add(1), "method": method, "params": params})
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var cause error
	resp, err := json.Marshal(b.srv.HandleMessage(context.WithValue(ctx, causeKey{}, &cause), msg))
	if err != nil {
		return err
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return err
	}
	if r.Error != nil {
		r.Error.cause = cause
		return r.Error
	}
	return json.Unmarshal(r.Result, out)
}

// listing declares "!interactive" for the listings, like every request.
var listing = []string{"!interactive"}

// Server describes the server as server/discover does.
func (b *backend) Server(ctx context.Context) (*rest.Server, error) {
	var r struct {
		Meta struct {
			Info struct{ Name, Title, Version string } `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
		Capabilities json.RawMessage `json:"capabilities"`
		Instructions string          `json:"instructions"`
	}
	if err := b.call(ctx, "server/discover", map[string]any{}, listing, &r); err != nil {
		return nil, wrap(err, "discover", "")
	}
	i := r.Meta.Info
	return &rest.Server{Name: i.Name, Title: i.Title, Version: i.Version, ProtocolVersion: protocol, Capabilities: r.Capabilities, Instructions: r.Instructions}, nil
}

// list walks a paged listing of key.
func list[T any](ctx context.Context, b *backend, method, key string) ([]T, error) {
	var out []T
	cursor := ""
	for range maxPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page map[string]json.RawMessage
		if err := b.call(ctx, method, params, listing, &page); err != nil {
			return nil, wrap(err, method, "")
		}
		var items []T
		if err := json.Unmarshal(page[key], &items); err != nil {
			return nil, fmt.Errorf("mcpgobackend: %s: %w", method, err)
		}
		out = append(out, items...)
		if err := json.Unmarshal(page["nextCursor"], &cursor); err != nil || cursor == "" {
			break
		}
	}
	return out, nil
}

// Tools lists the tools.
func (b *backend) Tools(ctx context.Context) ([]rest.Tool, error) {
	tools, err := list[struct {
		Name, Title, Description  string
		InputSchema, OutputSchema json.RawMessage
		Annotations               json.RawMessage
	}](ctx, b, "tools/list", "tools")
	out := make([]rest.Tool, len(tools))
	for i, t := range tools {
		out[i] = rest.Tool(t)
	}
	return out, err
}

// Resources lists the resources.
func (b *backend) Resources(ctx context.Context) ([]rest.Resource, error) {
	resources, err := list[struct {
		URI, Name, Title, Description, MIMEType string
		Size                                    *int64
		Annotations                             json.RawMessage
	}](ctx, b, "resources/list", "resources")
	out := make([]rest.Resource, len(resources))
	for i, r := range resources {
		out[i] = rest.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size, Annotations: r.Annotations}
	}
	return out, err
}

// ResourceTemplates lists the resource templates.
func (b *backend) ResourceTemplates(ctx context.Context) ([]rest.ResourceTemplate, error) {
	return list[rest.ResourceTemplate](ctx, b, "resources/templates/list", "resourceTemplates")
}

// Prompts lists the prompts.
func (b *backend) Prompts(ctx context.Context) ([]rest.Prompt, error) {
	return list[rest.Prompt](ctx, b, "prompts/list", "prompts")
}

// textBlock is what the backend reads of a content block.
type textBlock struct {
	Type, Text string
}

func texts(blocks []textBlock) string {
	var parts []string
	for _, c := range blocks {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// CallTool calls a tool, declaring features.
func (b *backend) CallTool(ctx context.Context, name string, arguments json.RawMessage, features []string) (*rest.ToolResult, error) {
	var r struct {
		Content           json.RawMessage `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ResultType        string          `json:"resultType"`
		InputRequests     json.RawMessage `json:"inputRequests"`
	}
	if err := b.call(ctx, "tools/call", map[string]any{"name": name, "arguments": arguments}, features, &r); err != nil {
		return nil, wrap(err, "call tool "+name, "tool")
	}
	var blocks []textBlock
	_ = json.Unmarshal(r.Content, &blocks)
	out := &rest.ToolResult{Content: r.Content, Text: texts(blocks), Structured: r.StructuredContent, IsError: r.IsError,
		NeedsInput: r.ResultType == string(mcp.ResultTypeInputRequired) || len(r.InputRequests) > 0}
	if len(out.Content) == 0 || string(out.Content) == "null" {
		out.Content = json.RawMessage("[]")
	}
	return out, nil
}

// ReadResource reads a resource, declaring features.
func (b *backend) ReadResource(ctx context.Context, uri string, features []string) ([]rest.ResourceContent, error) {
	var r struct {
		Contents []struct {
			URI, MIMEType, Text string
			Blob                *[]byte
		} `json:"contents"`
	}
	if err := b.call(ctx, "resources/read", map[string]any{"uri": uri}, features, &r); err != nil {
		return nil, wrap(err, "read "+uri, "resource")
	}
	if len(r.Contents) == 0 {
		return nil, fmt.Errorf("read %s: %w", uri, rest.ErrNotFound)
	}
	out := make([]rest.ResourceContent, len(r.Contents))
	for i, c := range r.Contents {
		out[i] = rest.ResourceContent{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
		if c.Blob != nil {
			out[i].Blob, out[i].IsBlob = *c.Blob, true
		}
	}
	return out, nil
}

// GetPrompt renders a prompt, declaring features.
func (b *backend) GetPrompt(ctx context.Context, name string, arguments map[string]string, features []string) (*rest.PromptResult, error) {
	var r struct {
		Description string          `json:"description"`
		Messages    json.RawMessage `json:"messages"`
	}
	if err := b.call(ctx, "prompts/get", map[string]any{"name": name, "arguments": arguments}, features, &r); err != nil {
		return nil, wrap(err, "get prompt "+name, "prompt")
	}
	var messages []struct{ Content textBlock }
	_ = json.Unmarshal(r.Messages, &messages)
	blocks := make([]textBlock, len(messages))
	for i, m := range messages {
		blocks[i] = m.Content
	}
	out := &rest.PromptResult{Description: r.Description, Messages: r.Messages, Text: texts(blocks)}
	if len(out.Messages) == 0 || string(out.Messages) == "null" {
		out.Messages = json.RawMessage("[]")
	}
	return out, nil
}

// wrap gives err context and marks "not found" and "invalid params" for the
// REST binding, from the Go error the server's dispatch failed with (see
// causeKey), never from its text: mcp-go's own not-found errors for an
// unknown tool, prompt or resource URI, a handler's shaping.ErrNotFound or
// mcp.ErrInvalidParams; then from the JSON-RPC error itself
// (notfound.OnWire).
func wrap(err error, what, kind string) error {
	var e *rpcError
	if !errors.As(err, &e) {
		return fmt.Errorf("mcpgobackend: %s: %w", what, err)
	}
	notFound := errors.Is(err, server.ErrPromptNotFound) ||
		errors.Is(err, server.ErrResourceNotFound) || errors.Is(err, server.ErrToolNotFound) ||
		notfound.Outcome(e.cause, 0, false) ||
		notfound.OnWire(int64(e.Code), e.Data)
	switch {
	case notFound:
		return fmt.Errorf("%s: %s: %w", what, e.Message, rest.ErrNotFound)
	case e.Code == mcp.INVALID_PARAMS, errors.Is(err, mcp.ErrInvalidParams):
		return fmt.Errorf("%s: %s: %w", what, e.Message, rest.ErrInvalidArguments)
	}
	return fmt.Errorf("mcpgobackend: %s: %w", what, err)
}

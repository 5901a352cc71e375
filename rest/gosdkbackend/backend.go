// Package gosdkbackend is the REST binding's backend for servers of the
// official Go MCP SDK (github.com/modelcontextprotocol/go-sdk): it connects
// one in-memory client session to the server and forwards every REST
// request over it, declaring per request, in the request's own _meta, the
// content-negotiation extension with the request's feature tags and no
// elicitation capability.
//
// The server's content-negotiation middleware then renders, gates and
// reports "not found" exactly as it does for MCP clients: a REST client
// gets the very bytes an MCP client with the same "format=" gets, and no
// question ever reaches it. It never renders anything itself, and refuses
// a server without the middleware (see [ErrNotNegotiating]).
package gosdkbackend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/shaping"
)

// ErrNotNegotiating reports a server that does not advertise the
// content-negotiation extension: without the middleware, REST clients would
// get the handlers' results unrendered and ungated.
var ErrNotNegotiating = errors.New("the server does not advertise the content-negotiation extension (install the middleware)")

// maxItems bounds what one listing collects.
const maxItems = 10000

// Options configures a [Backend]. A nil *Options means the defaults.
type Options struct {
	// ProtocolVersion is the MCP version the in-memory client speaks; empty
	// means the SDK's default (2026-07-28, the stateless era). Set
	// "2025-11-25" for the legacy era.
	ProtocolVersion string
}

// Backend forwards the REST binding's requests to a go-sdk server. It is
// safe for concurrent use; close it with [Backend.Close]. When the session
// ends under it (the server closed its sessions), it connects again: reads
// are retried once on the new session; a tool call is not (it may have
// run), and fails with an error wrapping [rest.ErrUnavailable].
type Backend struct {
	server *mcp.Server
	so     *mcp.ClientSessionOptions

	mu     sync.Mutex
	cur    *conn // the session in use
	closed bool
}

// conn is one in-memory session: both ends, and done, closed when the
// client's end has ended.
type conn struct {
	ss   *mcp.ServerSession
	cs   *mcp.ClientSession
	done chan struct{}
}

// ended reports whether the session has ended, as err or the session says:
// the SDK's ErrConnectionClosed, the in-memory pipe closed or at its end.
func (c *conn) ended(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, io.EOF) {
		return true
	}
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func (c *conn) close() error {
	err := c.cs.Close()
	_ = c.ss.Close()
	return err
}

var _ rest.Backend = (*Backend)(nil)

// ErrClosed is what a closed Backend's methods return.
var ErrClosed = errors.New("gosdkbackend: closed")

// New connects a client session to server over in-memory transports. The
// server must have the content-negotiation middleware installed.
func New(ctx context.Context, server *mcp.Server, opts *Options) (*Backend, error) {
	b := &Backend{server: server}
	if opts != nil && opts.ProtocolVersion != "" {
		b.so = &mcp.ClientSessionOptions{ProtocolVersion: opts.ProtocolVersion}
	}
	c, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	b.cur = c
	return b, nil
}

// connect opens a session to the server and checks that it negotiates.
func (b *Backend) connect(ctx context.Context) (*conn, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := b.server.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("gosdkbackend: connect the server: %w", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "contentneg-rest", Version: "1.0.0"},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := client.Connect(ctx, ct, b.so)
	if err != nil {
		_ = ss.Close()
		return nil, fmt.Errorf("gosdkbackend: connect the client: %w", err)
	}
	c := &conn{ss: ss, cs: cs, done: make(chan struct{})}
	go func() { _ = cs.Wait(); close(c.done) }()
	if _, ok := cs.InitializeResult().Capabilities.Extensions[shaping.ExtensionID]; !ok {
		_ = c.close()
		return nil, fmt.Errorf("gosdkbackend: %w", ErrNotNegotiating)
	}
	return c, nil
}

// Close ends the session; the Backend cannot be used after.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	return b.cur.close()
}

// session returns the session in use.
func (b *Backend) session() (*conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, ErrClosed
	}
	return b.cur, nil
}

// renew replaces c, which ended, by a new session, unless another request
// did so already.
func (b *Backend) renew(ctx context.Context, c *conn) (*conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.closed:
		return nil, ErrClosed
	case b.cur != c:
		return b.cur, nil
	}
	_ = c.close()
	n, err := b.connect(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	b.cur = n
	return n, nil
}

// do runs f on the session in use. When the session has ended, it connects
// again, and runs f once more when retry says that f may run twice.
func do[T any](ctx context.Context, b *Backend, retry bool, f func(*mcp.ClientSession) (T, error)) (T, error) {
	c, err := b.session()
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := f(c.cs)
	if !c.ended(err) {
		return v, err
	}
	n, rerr := b.renew(ctx, c)
	if rerr != nil || !retry {
		return v, fmt.Errorf("%w: %w", rest.ErrUnavailable, err)
	}
	return f(n.cs)
}

// declare is the _meta of a request that declares features and nothing
// else: no elicitation, no sampling, no roots.
func declare(features []string) mcp.Meta {
	return mcp.Meta{mcp.MetaKeyClientCapabilities: map[string]any{
		"extensions": map[string]any{
			shaping.ExtensionID: map[string]any{"version": "1.0", "features": features},
		},
	}}
}

// listing declares "!interactive" for the listings, like every request.
var listing = []string{"!interactive"}

// Server describes the server as it answered the connection.
func (b *Backend) Server(context.Context) (*rest.Server, error) {
	c, err := b.session()
	if err != nil {
		return nil, err
	}
	r := c.cs.InitializeResult()
	out := &rest.Server{ProtocolVersion: r.ProtocolVersion, Instructions: r.Instructions}
	if r.ServerInfo != nil {
		out.Name, out.Title, out.Version = r.ServerInfo.Name, r.ServerInfo.Title, r.ServerInfo.Version
	}
	if r.Capabilities != nil {
		out.Capabilities, _ = json.Marshal(r.Capabilities)
	}
	return out, nil
}

func collect[T, U any](seq iter.Seq2[T, error], conv func(T) U) ([]U, error) {
	var out []U
	for it, err := range seq {
		if err != nil {
			return nil, err
		}
		if len(out) == maxItems {
			break
		}
		out = append(out, conv(it))
	}
	return out, nil
}

// Tools lists the tools.
func (b *Backend) Tools(ctx context.Context) ([]rest.Tool, error) {
	out, err := do(ctx, b, true, func(cs *mcp.ClientSession) ([]rest.Tool, error) {
		return collect(cs.Tools(ctx, &mcp.ListToolsParams{Meta: declare(listing)}), tool)
	})
	return out, wrap(err, "list tools")
}

func tool(t *mcp.Tool) rest.Tool {
	rt := rest.Tool{Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: raw(t.InputSchema), OutputSchema: raw(t.OutputSchema)}
	if t.Annotations != nil {
		rt.Annotations = raw(t.Annotations)
	}
	return rt
}

// Resources lists the resources.
func (b *Backend) Resources(ctx context.Context) ([]rest.Resource, error) {
	out, err := do(ctx, b, true, func(cs *mcp.ClientSession) ([]rest.Resource, error) {
		return collect(cs.Resources(ctx, &mcp.ListResourcesParams{Meta: declare(listing)}), resource)
	})
	return out, wrap(err, "list resources")
}

func resource(r *mcp.Resource) rest.Resource {
	rr := rest.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType}
	if r.Size > 0 {
		size := r.Size
		rr.Size = &size
	}
	if r.Annotations != nil {
		rr.Annotations = raw(r.Annotations)
		rr.LastModified, _ = time.Parse(time.RFC3339, r.Annotations.LastModified)
	}
	return rr
}

// ResourceTemplates lists the resource templates.
func (b *Backend) ResourceTemplates(ctx context.Context) ([]rest.ResourceTemplate, error) {
	out, err := do(ctx, b, true, func(cs *mcp.ClientSession) ([]rest.ResourceTemplate, error) {
		return collect(cs.ResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Meta: declare(listing)}), func(t *mcp.ResourceTemplate) rest.ResourceTemplate {
			return rest.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType}
		})
	})
	return out, wrap(err, "list resource templates")
}

// Prompts lists the prompts.
func (b *Backend) Prompts(ctx context.Context) ([]rest.Prompt, error) {
	out, err := do(ctx, b, true, func(cs *mcp.ClientSession) ([]rest.Prompt, error) {
		return collect(cs.Prompts(ctx, &mcp.ListPromptsParams{Meta: declare(listing)}), prompt)
	})
	return out, wrap(err, "list prompts")
}

func prompt(p *mcp.Prompt) rest.Prompt {
	rp := rest.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
	for _, a := range p.Arguments {
		if a != nil {
			rp.Arguments = append(rp.Arguments, rest.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
		}
	}
	return rp
}

// CallTool calls a tool, declaring features. A call is never repeated: if
// the session ends under it, the error wraps [rest.ErrUnavailable].
func (b *Backend) CallTool(ctx context.Context, name string, arguments json.RawMessage, features []string) (*rest.ToolResult, error) {
	res, err := do(ctx, b, false, func(cs *mcp.ClientSession) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Meta: declare(features), Name: name, Arguments: arguments})
	})
	if err != nil {
		return nil, wrap(err, "call tool "+name)
	}
	out := &rest.ToolResult{
		Text:       texts(res.Content),
		IsError:    res.IsError,
		NeedsInput: len(res.InputRequests) > 0 || res.NeedsInput(),
		Structured: raw(res.StructuredContent),
	}
	out.Content = json.RawMessage("[]") // format=json may leave structuredContent alone
	if len(res.Content) > 0 {
		if out.Content, err = json.Marshal(res.Content); err != nil {
			return nil, fmt.Errorf("gosdkbackend: call tool %s: encode content: %w", name, err)
		}
	}
	return out, nil
}

// ReadResource reads a resource, declaring features.
func (b *Backend) ReadResource(ctx context.Context, uri string, features []string) ([]rest.ResourceContent, error) {
	res, err := do(ctx, b, true, func(cs *mcp.ClientSession) (*mcp.ReadResourceResult, error) {
		return cs.ReadResource(ctx, &mcp.ReadResourceParams{Meta: declare(features), URI: uri})
	})
	if err != nil {
		return nil, wrap(err, "read "+uri)
	}
	out := make([]rest.ResourceContent, 0, len(res.Contents))
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		rc := rest.ResourceContent{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
		if c.Blob != nil {
			rc.Blob, rc.IsBlob = c.Blob, true
		}
		out = append(out, rc)
	}
	return out, nil
}

// GetPrompt renders a prompt, declaring features.
func (b *Backend) GetPrompt(ctx context.Context, name string, arguments map[string]string, features []string) (*rest.PromptResult, error) {
	res, err := do(ctx, b, true, func(cs *mcp.ClientSession) (*mcp.GetPromptResult, error) {
		return cs.GetPrompt(ctx, &mcp.GetPromptParams{Meta: declare(features), Name: name, Arguments: arguments})
	})
	if err != nil {
		return nil, wrap(err, "get prompt "+name)
	}
	out := &rest.PromptResult{Description: res.Description, Messages: raw(res.Messages)}
	if out.Messages == nil {
		out.Messages = json.RawMessage("[]")
	}
	var parts []string
	for _, m := range res.Messages {
		if t, ok := m.Content.(*mcp.TextContent); ok && t != nil {
			parts = append(parts, t.Text)
		}
	}
	out.Text = strings.Join(parts, "\n\n")
	return out, nil
}

// texts joins the text of the text blocks by blank lines.
func texts(content []mcp.Content) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// wrap gives err context and marks the protocol's "not found" and
// "invalid params" errors for the REST binding.
func wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		switch {
		case shaping.NotFoundOnWire(we.Code, we.Data):
			return fmt.Errorf("%s: %s: %w", what, we.Message, rest.ErrNotFound)
		case we.Code == jsonrpc.CodeInvalidParams:
			return fmt.Errorf("%s: %s: %w", what, we.Message, rest.ErrInvalidArguments)
		}
	}
	return fmt.Errorf("gosdkbackend: %s: %w", what, err)
}

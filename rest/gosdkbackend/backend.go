// Package gosdkbackend is the REST binding's backend for servers of the
// official Go MCP SDK (github.com/modelcontextprotocol/go-sdk): it forwards
// every REST request to the server over in-memory client sessions,
// declaring the content-negotiation extension with the request's feature
// tags and no elicitation capability, as an MCP client of the era does: in
// the stateless era in the request's own _meta, over one session; in the
// legacy era at initialize, over a session per feature set (a bounded
// pool, see [Options.MaxSessions]).
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
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/notfound"
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
	// MaxSessions bounds the sessions a legacy-era Backend keeps, one per
	// distinct feature set it has been asked to declare (see [Backend]);
	// zero or less means 8. The stateless era keeps one session whatever
	// this says.
	MaxSessions int
}

// defaultMaxSessions is MaxSessions' default: the REST binding declares
// one feature set per rendering and verbosity in use, a handful.
const defaultMaxSessions = 8

// statelessProtocol is the first protocol version of the stateless era.
const statelessProtocol = "2026-07-28"

// Backend forwards the REST binding's requests to a go-sdk server: pass it
// to [rest.New], and close it when the server stops. It is safe for
// concurrent use.
//
// In the stateless era, every request declares its features in its own
// _meta, over one session. In the legacy era, a client declares its
// features once, at initialize, as an MCP client of that era does: the
// Backend keeps one session per distinct feature set (the exact sequence
// of tags), connected when a set is first asked for, at most
// [Options.MaxSessions] of them; the least recently used one is closed
// when a new set needs room (after the requests under way on it end).
// Its requests then carry no declaration of their own, so the server
// decodes none per request.
//
// When a session ends under it (the server closed its sessions), it
// connects again: reads are retried once on the new session; a tool call
// is never repeated (it may have run), and fails with an error wrapping
// [rest.ErrUnavailable].
type Backend interface {
	rest.Backend
	// Close ends every session, those under way included. The Backend
	// cannot be used after: its methods then return an error wrapping
	// [rest.ErrUnavailable] (a server that is stopping: the REST client
	// gets 503 and may try again).
	Close() error
}

// backend is the Backend New returns.
type backend struct {
	server *mcp.Server
	so     *mcp.ClientSessionOptions
	legacy bool // declare at initialize, one session per feature set
	max    int  // the bound of pool

	mu     sync.Mutex
	cur    *conn     // the session that declares nothing at initialize: Server, and every request in the stateless era
	pool   []*pooled // legacy era: the sessions per feature set, most recently used first
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

// pooled is a legacy-era session that declared features at initialize.
// c and err are set once, under backend.mu, before ready is closed, and
// read after it; refs, dropped and shut are guarded by backend.mu.
type pooled struct {
	features []string      // a copy of the tags declared
	ready    chan struct{} // closed when c or err is set
	c        *conn
	err      error
	refs     int  // requests holding it, and the connect under way
	dropped  bool // out of the pool: closed when refs drops to 0
	shut     bool // c was closed
}

// closeIfIdle closes p's session when it is out of the pool and no request
// holds it; it returns the session to close (outside the lock), or nil.
// b.mu must be held.
func (p *pooled) closeIfIdle() *conn {
	if !p.dropped || p.refs > 0 || p.c == nil || p.shut {
		return nil
	}
	p.shut = true
	return p.c
}

var _ Backend = (*backend)(nil)

// errClosed is what a closed backend's methods return. It wraps
// [rest.ErrUnavailable]: a closed backend is a server that is stopping, and
// a REST client may try again (503).
var errClosed = fmt.Errorf("gosdkbackend: closed: %w", rest.ErrUnavailable)

// New connects a client session to server over in-memory transports. The
// server must have the content-negotiation middleware installed.
func New(ctx context.Context, server *mcp.Server, opts *Options) (Backend, error) {
	b := &backend{server: server, max: defaultMaxSessions}
	if opts != nil && opts.ProtocolVersion != "" {
		b.so = &mcp.ClientSessionOptions{ProtocolVersion: opts.ProtocolVersion}
	}
	if opts != nil && opts.MaxSessions > 0 {
		b.max = opts.MaxSessions
	}
	c, err := b.connect(ctx, false, nil)
	if err != nil {
		return nil, err
	}
	b.cur = c
	b.legacy = c.cs.InitializeResult().ProtocolVersion < statelessProtocol
	return b, nil
}

// connect opens a session to the server, declaring features at initialize
// when declared says so, and checks that it negotiates.
func (b *backend) connect(ctx context.Context, declared bool, features []string) (*conn, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := b.server.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("gosdkbackend: connect the server: %w", err)
	}
	caps := &mcp.ClientCapabilities{}
	if declared {
		caps.AddExtension(shaping.ExtensionID, settings(features))
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "contentneg-rest", Version: "1.0.0"},
		&mcp.ClientOptions{Capabilities: caps})
	cs, err := client.Connect(ctx, rawTransport{ct}, b.so)
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

// Close ends every session, those under way included; the Backend cannot
// be used after.
func (b *backend) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	var shut []*conn
	for _, p := range b.pool {
		if p.c != nil && !p.shut {
			p.shut = true
			shut = append(shut, p.c)
		}
		p.dropped = true
	}
	b.pool = nil
	b.mu.Unlock()
	err := b.cur.close()
	for _, c := range shut {
		_ = c.close()
	}
	return err
}

// session returns the session in use.
func (b *backend) session() (*conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed
	}
	return b.cur, nil
}

// renew replaces c, which ended, by a new session, unless another request
// did so already.
func (b *backend) renew(ctx context.Context, c *conn) (*conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.closed:
		return nil, errClosed
	case b.cur != c:
		return b.cur, nil
	}
	_ = c.close()
	n, err := b.connect(context.WithoutCancel(ctx), false, nil)
	if err != nil {
		return nil, err
	}
	b.cur = n
	return n, nil
}

// acquire returns the legacy-era session that declared features, connecting
// it when the pool has none, and holds it until release. A request waits
// for its set's session to be connected, or for ctx; the connect goes on
// without it, for the next request.
func (b *backend) acquire(ctx context.Context, features []string) (*pooled, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, errClosed
	}
	var evicted *conn
	i := slices.IndexFunc(b.pool, func(p *pooled) bool { return slices.Equal(p.features, features) })
	var p *pooled
	if i >= 0 {
		p = b.pool[i]
		copy(b.pool[1:i+1], b.pool[:i]) // most recently used first
		b.pool[0] = p
	} else {
		p = &pooled{features: slices.Clone(features), ready: make(chan struct{}), refs: 1} // the connect's
		b.pool = slices.Insert(b.pool, 0, p)
		if len(b.pool) > b.max {
			last := b.pool[len(b.pool)-1]
			b.pool[len(b.pool)-1] = nil
			b.pool = b.pool[:len(b.pool)-1]
			last.dropped = true
			evicted = last.closeIfIdle()
		}
		// The session outlives this request: it is not connected under
		// its context.
		go b.connectPooled(context.WithoutCancel(ctx), p)
	}
	p.refs++
	b.mu.Unlock()
	if evicted != nil {
		_ = evicted.close()
	}
	select {
	case <-p.ready:
	case <-ctx.Done():
		b.release(p)
		return nil, ctx.Err()
	}
	if p.err != nil { // set before ready is closed, never after
		b.release(p)
		return nil, p.err
	}
	return p, nil
}

// connectPooled connects p's session, declaring its features, and lets go
// of the hold acquire took for it.
func (b *backend) connectPooled(ctx context.Context, p *pooled) {
	c, err := b.connect(ctx, true, p.features)
	if err != nil {
		err = fmt.Errorf("%w: %w", rest.ErrUnavailable, err)
	}
	var late *conn // connected after Close
	b.mu.Lock()
	switch {
	case err != nil:
		b.drop(p)
	case b.closed:
		err, late, p.shut = errClosed, c, true
	}
	p.c, p.err = c, err
	b.mu.Unlock()
	close(p.ready)
	if late != nil {
		_ = late.close()
	}
	b.release(p)
}

// release lets go of p; the last holder of a session out of the pool
// closes it.
func (b *backend) release(p *pooled) {
	b.mu.Lock()
	p.refs--
	c := p.closeIfIdle()
	b.mu.Unlock()
	if c != nil {
		_ = c.close()
	}
}

// drop takes p out of the pool, if it is still there. b.mu must be held.
func (b *backend) drop(p *pooled) {
	if i := slices.Index(b.pool, p); i >= 0 {
		b.pool = slices.Delete(b.pool, i, i+1)
	}
	p.dropped = true
}

// do runs f on a session that declares features: in the stateless era,
// the one session, with features declared in meta; in the legacy era, the
// session that declared them at initialize, with no meta. When the session
// has ended, it connects again, and runs f once more when retry says that
// f may run twice.
func do[T any](ctx context.Context, b *backend, features []string, retry bool, f func(cs *mcp.ClientSession, meta mcp.Meta) (T, error)) (T, error) {
	if b.legacy {
		return doPooled(ctx, b, features, retry, f)
	}
	c, err := b.session()
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := f(c.cs, declare(features))
	if !c.ended(err) {
		return v, err
	}
	n, rerr := b.renew(ctx, c)
	if rerr != nil || !retry {
		return v, fmt.Errorf("%w: %w", rest.ErrUnavailable, err)
	}
	return f(n.cs, declare(features))
}

// doPooled is do in the legacy era.
func doPooled[T any](ctx context.Context, b *backend, features []string, retry bool, f func(cs *mcp.ClientSession, meta mcp.Meta) (T, error)) (T, error) {
	var zero T
	p, err := b.acquire(ctx, features)
	if err != nil {
		return zero, err
	}
	v, err := f(p.c.cs, nil)
	ended := p.c.ended(err)
	if ended {
		b.mu.Lock()
		b.drop(p) // the next request for these features connects anew
		b.mu.Unlock()
	}
	b.release(p)
	if !ended {
		return v, err
	}
	if !retry {
		return v, fmt.Errorf("%w: %w", rest.ErrUnavailable, err)
	}
	if p, err = b.acquire(ctx, features); err != nil {
		return zero, err
	}
	defer b.release(p)
	return f(p.c.cs, nil)
}

// settings are the extension's settings declaring features.
func settings(features []string) map[string]any {
	return map[string]any{"version": "1.0", "features": features}
}

// declare is the _meta of a request that declares features and nothing
// else: no elicitation, no sampling, no roots.
func declare(features []string) mcp.Meta {
	return mcp.Meta{mcp.MetaKeyClientCapabilities: map[string]any{
		"extensions": map[string]any{shaping.ExtensionID: settings(features)},
	}}
}

// listing declares "!interactive" for the listings, like every request.
var listing = []string{"!interactive"}

// Server describes the server as it answered the connection.
func (b *backend) Server(context.Context) (*rest.Server, error) {
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
func (b *backend) Tools(ctx context.Context) ([]rest.Tool, error) {
	out, err := do(ctx, b, listing, true, func(cs *mcp.ClientSession, meta mcp.Meta) ([]rest.Tool, error) {
		return collect(cs.Tools(ctx, &mcp.ListToolsParams{Meta: meta}), tool)
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
func (b *backend) Resources(ctx context.Context) ([]rest.Resource, error) {
	out, err := do(ctx, b, listing, true, func(cs *mcp.ClientSession, meta mcp.Meta) ([]rest.Resource, error) {
		return collect(cs.Resources(ctx, &mcp.ListResourcesParams{Meta: meta}), resource)
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
func (b *backend) ResourceTemplates(ctx context.Context) ([]rest.ResourceTemplate, error) {
	out, err := do(ctx, b, listing, true, func(cs *mcp.ClientSession, meta mcp.Meta) ([]rest.ResourceTemplate, error) {
		return collect(cs.ResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Meta: meta}), func(t *mcp.ResourceTemplate) rest.ResourceTemplate {
			return rest.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType}
		})
	})
	return out, wrap(err, "list resource templates")
}

// Prompts lists the prompts.
func (b *backend) Prompts(ctx context.Context) ([]rest.Prompt, error) {
	out, err := do(ctx, b, listing, true, func(cs *mcp.ClientSession, meta mcp.Meta) ([]rest.Prompt, error) {
		return collect(cs.Prompts(ctx, &mcp.ListPromptsParams{Meta: meta}), prompt)
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
func (b *backend) CallTool(ctx context.Context, name string, arguments json.RawMessage, features []string) (*rest.ToolResult, error) {
	// The result as the server wrote it (see rawConn): structuredContent
	// and content with their exact digits and member order.
	call := new(rawCall)
	res, err := do(ctx, b, features, false, func(cs *mcp.ClientSession, meta mcp.Meta) (*mcp.CallToolResult, error) {
		return cs.CallTool(withRawCall(ctx, call), &mcp.CallToolParams{Meta: meta, Name: name, Arguments: arguments})
	})
	wire := call.take()
	if err != nil && ctx.Err() != nil {
		// The request's context ended (its client went away, or the
		// server is stopping and ended the calls under way): whatever the
		// call failed with, that is why.
		return nil, fmt.Errorf("gosdkbackend: call tool %s: %w", name, context.Cause(ctx))
	}
	if err != nil {
		return nil, wrap(err, "call tool "+name)
	}
	out := &rest.ToolResult{
		Text:       texts(res.Content),
		IsError:    res.IsError,
		NeedsInput: len(res.InputRequests) > 0 || res.NeedsInput(),
		Structured: member(wire, "structuredContent"),
		Content:    member(wire, "content"),
	}
	if wire == nil { // not read off the wire: never so with this package's sessions
		out.Structured = raw(res.StructuredContent)
		if len(res.Content) > 0 {
			if out.Content, err = json.Marshal(res.Content); err != nil {
				return nil, fmt.Errorf("gosdkbackend: call tool %s: encode content: %w", name, err)
			}
		}
	}
	if len(out.Content) == 0 {
		out.Content = json.RawMessage("[]") // format=json may leave structuredContent alone
	}
	return out, nil
}

// ReadResource reads a resource, declaring features.
func (b *backend) ReadResource(ctx context.Context, uri string, features []string) ([]rest.ResourceContent, error) {
	res, err := do(ctx, b, features, true, func(cs *mcp.ClientSession, meta mcp.Meta) (*mcp.ReadResourceResult, error) {
		return cs.ReadResource(ctx, &mcp.ReadResourceParams{Meta: meta, URI: uri})
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
func (b *backend) GetPrompt(ctx context.Context, name string, arguments map[string]string, features []string) (*rest.PromptResult, error) {
	res, err := do(ctx, b, features, true, func(cs *mcp.ClientSession, meta mcp.Meta) (*mcp.GetPromptResult, error) {
		return cs.GetPrompt(ctx, &mcp.GetPromptParams{Meta: meta, Name: name, Arguments: arguments})
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
		case notfound.OnWire(we.Code, we.Data):
			return fmt.Errorf("%s: %s: %w", what, we.Message, rest.ErrNotFound)
		case we.Code == jsonrpc.CodeInvalidParams:
			return fmt.Errorf("%s: %s: %w", what, we.Message, rest.ErrInvalidArguments)
		}
	}
	return fmt.Errorf("gosdkbackend: %s: %w", what, err)
}

// Package gateway puts content negotiation in front of any MCP server: it
// connects to the server (the upstream) as a client and serves a go-sdk
// server that mirrors it (its tools, resources, resource templates and
// prompts, in the upstream's order), with the content-negotiation
// middleware installed. Calls are forwarded with their own _meta; the
// middleware renders and gates the upstream's results for the clients that
// declared a profile, and passes them through as they are for the others.
//
// The gateway renders nothing itself: every decision is the middleware's
// (package shaping), as for a server written in Go.
package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/shaping"
)

// DefaultCallTimeout bounds a request forwarded to the upstream when
// Options.CallTimeout is zero.
const DefaultCallTimeout = 60 * time.Second

// maxItems bounds what one listing of the upstream collects, so that an
// upstream that pages for ever cannot exhaust memory.
const maxItems = 10000

// pageSize is how many items one page of a downstream listing holds.
const pageSize = 1000

// Options configures a [Gateway]; a nil *Options means the defaults.
type Options struct {
	// Shaping are the negotiation options of the mirror server (the options
	// of every front end, contract section 9).
	Shaping *shaping.Options
	// Logger receives the gateway's own log lines; nil means none.
	Logger *zap.Logger
	// CallTimeout bounds every request forwarded to the upstream
	// (DefaultCallTimeout when zero; negative means no bound).
	CallTimeout time.Duration
	// PassRoots declares roots to the upstream and passes its roots/list
	// to the downstream client whose request is the only one under way,
	// if that client has the roots capability (and a downstream
	// notifications/roots/list_changed upstream). Off by default: every
	// downstream client shares the one upstream session, so the roots of
	// one would become the upstream's for all of them (server-filesystem
	// replaces the directories of its command line with them). Turn it on
	// when the gateway has one client, as on stdio.
	PassRoots bool
}

// Gateway is one upstream MCP server behind a negotiating mirror server.
// Serve its [Gateway.Server] on any go-sdk transport (stdio, streamable
// HTTP, in memory) and the REST binding (rest/gosdkbackend); close it with
// [Gateway.Close].
type Gateway struct {
	dial      func() mcp.Transport
	client    *mcp.Client
	upMu      sync.Mutex
	up        *mcp.ClientSession // the upstream session in use
	live      chan struct{}      // closed while up is live; a new one while it restarts
	server    *mcp.Server
	mw        *middleware.Middleware
	log       *zap.Logger
	timeout   time.Duration
	passRoots bool           // Options.PassRoots
	subs      *subscriptions // the downstream clients' resource subscriptions (subscribe.go)
	urls      urlRoutes      // where URL-mode completions go (urlmode.go)

	syncMu sync.Mutex // one re-sync at a time

	mu   sync.Mutex
	snap snapshot
	// calls are the forwarded requests under way, whose downstream client
	// an upstream question may reach (see [Gateway.elicit]).
	calls map[*caller]struct{}
	// held are the upstream calls held open for a stateless-era client's
	// answers, by the requestState it echoes; watched the downstream
	// sessions whose end gives them up (questions.go).
	held    map[string]*held
	watched map[*mcp.ServerSession]bool
	// tokens route the upstream's progress notifications: the gateway's
	// own token for a forwarded request -> its caller and the caller's
	// token. nextToken numbers them.
	tokens    map[string]progressRoute
	nextToken uint64
	// resync are the kinds a re-sync was asked for: a burst of asks costs
	// one re-sync per kind, and none is dropped.
	resync *pending[kind, struct{}]
	done   chan struct{}
	// life ends when the gateway closes: it bounds the restarts and
	// re-syncs, so that Close never waits on an upstream that hangs.
	life context.Context
	end  context.CancelFunc
	wg   sync.WaitGroup
}

// snapshot is what the upstream listed last, in its order.
type snapshot struct {
	tools     []*mcp.Tool
	resources []*mcp.Resource
	templates []*mcp.ResourceTemplate
	prompts   []*mcp.Prompt
}

// kind names one of the four lists.
type kind int

const (
	kindTools kind = iota
	kindResources
	kindPrompts
)

// New connects to the upstream over the transport dial returns, lists what
// it serves and returns the gateway serving its mirror. ctx bounds the
// connection and the first listing only. When the upstream session ends
// (the server crashed, its connection broke), the gateway connects again
// over a new transport from dial, with backoff, and re-reads its lists;
// requests arriving meanwhile wait for it, within the call timeout.
func New(ctx context.Context, dial func() mcp.Transport, opts *Options) (*Gateway, error) {
	if opts == nil {
		opts = &Options{}
	}
	g := &Gateway{
		dial:      rawDial(dial),
		log:       opts.Logger,
		timeout:   opts.CallTimeout,
		passRoots: opts.PassRoots,
		resync:    newPending[kind, struct{}](),
		done:      make(chan struct{}),
		calls:     map[*caller]struct{}{},
		tokens:    map[string]progressRoute{},
		live:      make(chan struct{}),
		subs:      newSubscriptions(),
	}
	if g.log == nil {
		g.log = zap.NewNop()
	}
	if g.timeout == 0 {
		g.timeout = DefaultCallTimeout
	}
	g.life, g.end = context.WithCancel(context.Background())
	// The gateway can pass questions on (form elicitation, sampling, roots:
	// askingOptions), so the upstream offers what needs them; each reaches
	// only a client that can answer, elicitation through its gate.
	copts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			g.progress(ctx, req.Params)
		},
		LoggingMessageHandler: func(ctx context.Context, req *mcp.LoggingMessageRequest) {
			g.logMessage(req.Params)
		},
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { g.ask(kindTools) },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { g.ask(kindResources) },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { g.ask(kindPrompts) },
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			g.resourceUpdated(req.Params)
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			g.elicitationComplete(req.Params)
		},
	}
	g.askingOptions(copts, opts.PassRoots)
	g.client = mcp.NewClient(&mcp.Implementation{Name: "contentneg", Version: "1.0.0"}, copts)
	g.client.AddReceivingMiddleware(g.rootsMiddleware)
	up, err := g.client.Connect(ctx, g.dial(), nil)
	if err != nil {
		g.end()
		return nil, fmt.Errorf("gateway: connect to the upstream: %w", err)
	}
	g.up = up
	close(g.live)
	init := up.InitializeResult()
	info := &mcp.Implementation{Name: "contentneg", Version: "1.0.0"}
	if init.ServerInfo != nil {
		c := *init.ServerInfo
		info = &c
	}
	sopts := &mcp.ServerOptions{
		Instructions: init.Instructions,
		Capabilities: mirrorCapabilities(init.Capabilities),
		PageSize:     pageSize,
	}
	g.subscribing(init.Capabilities, sopts)
	if opts.PassRoots {
		// Passed upstream, which then asks the roots again (questions.go).
		sopts.RootsListChangedHandler = g.rootsChanged
	}
	g.server = mcp.NewServer(info, sopts)
	// Added first, so innermost: the negotiation middleware, installed
	// next, sees every request before it and every result after it.
	g.server.AddReceivingMiddleware(g.forward)
	g.mw = middleware.Install(g.server, opts.Shaping)
	// Outermost (keep it last): the upstream's bytes for a result that
	// nothing changed (raw.go).
	g.server.AddReceivingMiddleware(passThrough)
	if err := g.syncAll(ctx); err != nil {
		g.end()
		_ = up.Close()
		return nil, err
	}
	g.wg.Add(3)
	go g.syncing()
	go g.supervise(up)
	go g.updating()
	return g, nil
}

// Server is the mirror server: serve it on any transport.
func (g *Gateway) Server() *mcp.Server { return g.server }

// Middleware is the content-negotiation middleware installed on the mirror
// server (its Shaper's Negotiator serves the REST binding).
func (g *Gateway) Middleware() *middleware.Middleware { return g.mw }

// ErrClosed is the error of a request that arrives after [Gateway.Close].
var ErrClosed = errors.New("gateway: closed")

// Close ends the open questions, the re-syncs, the restarts and the
// upstream session.
func (g *Gateway) Close() error {
	g.upMu.Lock()
	select {
	case <-g.done:
		g.upMu.Unlock()
		return nil
	default:
	}
	close(g.done)
	g.end()
	up := g.up
	g.upMu.Unlock()
	g.mw.Close()
	err := up.Close()
	g.wg.Wait()
	return err
}

// Backoff between two attempts to restart the upstream: it doubles from
// minBackoff to maxBackoff while the upstream keeps failing, and starts
// again from minBackoff once a session has lasted stableAfter.
const (
	minBackoff  = 100 * time.Millisecond
	maxBackoff  = 10 * time.Second
	stableAfter = 10 * time.Second
)

// supervise restarts the upstream whenever its session ends, until the
// gateway closes.
func (g *Gateway) supervise(up *mcp.ClientSession) {
	defer g.wg.Done()
	delay := minBackoff
	for {
		began := time.Now()
		err := up.Wait()
		select {
		case <-g.done:
			return
		default:
		}
		g.markDead(up)
		if time.Since(began) > stableAfter {
			delay = minBackoff
		}
		g.log.Warn("the upstream session ended; restarting it", zap.Error(err), zap.Duration("after", delay))
		for {
			select {
			case <-g.done:
				return
			case <-time.After(delay):
			}
			delay = min(2*delay, maxBackoff)
			ctx, cancel := context.WithTimeout(g.life, g.bound())
			n, err := g.client.Connect(ctx, g.dial(), nil)
			cancel()
			if err != nil {
				g.log.Warn("restarting the upstream failed", zap.Error(err), zap.Duration("next attempt after", delay))
				continue
			}
			g.upMu.Lock()
			select {
			case <-g.done:
				g.upMu.Unlock()
				_ = n.Close()
				return
			default:
			}
			g.up = n
			close(g.live)
			g.upMu.Unlock()
			up = n
			break
		}
		g.log.Info("the upstream restarted")
		ctx, cancel := context.WithTimeout(g.life, g.bound())
		if err := g.syncAll(ctx); err != nil {
			g.log.Warn("re-sync after the restart failed", zap.Error(err))
		}
		g.resubscribe(ctx, up)
		cancel()
	}
}

// markDead records that up has ended, if it is the session in use: requests
// from now on wait for the restart.
func (g *Gateway) markDead(up *mcp.ClientSession) {
	g.upMu.Lock()
	defer g.upMu.Unlock()
	if g.up != up {
		return
	}
	select {
	case <-g.live:
		g.live = make(chan struct{})
	default:
	}
}

// ended reports whether err says that the upstream connection is gone.
func ended(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)
}

// current is the upstream session in use, live or not.
func (g *Gateway) current() *mcp.ClientSession {
	g.upMu.Lock()
	defer g.upMu.Unlock()
	return g.up
}

// session is the live upstream session; while the upstream restarts it
// waits for it, until ctx ends.
func (g *Gateway) session(ctx context.Context) (*mcp.ClientSession, error) {
	for {
		g.upMu.Lock()
		up, live := g.up, g.live
		g.upMu.Unlock()
		select {
		case <-live:
			return up, nil
		default:
		}
		select {
		case <-live:
		case <-g.done:
			return nil, ErrClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// syncAll re-reads the four lists.
func (g *Gateway) syncAll(ctx context.Context) error {
	for _, k := range []kind{kindTools, kindResources, kindPrompts} {
		if err := g.sync(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// mirrorCapabilities is what the mirror server advertises: the upstream's
// own capabilities; the middleware adds the extension.
func mirrorCapabilities(c *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	out := &mcp.ServerCapabilities{}
	if c == nil {
		return out
	}
	out.Completions = c.Completions
	out.Logging = c.Logging
	out.Prompts = c.Prompts
	out.Tools = c.Tools
	if c.Resources != nil {
		out.Resources = &mcp.ResourceCapabilities{ListChanged: c.Resources.ListChanged, Subscribe: c.Resources.Subscribe}
	}
	return out
}

// ask asks for a re-sync of k; it never blocks.
func (g *Gateway) ask(k kind) { g.resync.ask(k, struct{}{}) }

// syncing runs the re-syncs the upstream's list_changed notifications ask
// for, until the gateway closes.
func (g *Gateway) syncing() {
	defer g.wg.Done()
	for {
		select {
		case <-g.done:
			return
		case <-g.resync.wake:
			for k := range g.resync.take() {
				ctx, cancel := context.WithTimeout(g.life, g.bound())
				if err := g.sync(ctx, k); err != nil {
					g.log.Warn("re-sync with the upstream failed", zap.Error(err))
				}
				cancel()
			}
		}
	}
}

// bound is the time a forwarded request may take.
func (g *Gateway) bound() time.Duration {
	if g.timeout < 0 {
		return 24 * time.Hour
	}
	return g.timeout
}

// sync lists k on the upstream and brings the mirror server in line:
// removed items are removed and new or changed ones added, so that
// downstream clients get list_changed for real changes only.
func (g *Gateway) sync(ctx context.Context, k kind) error {
	g.syncMu.Lock()
	defer g.syncMu.Unlock()
	up := g.current()
	caps := up.InitializeResult().Capabilities
	switch k {
	case kindTools:
		if caps == nil || caps.Tools == nil {
			return nil
		}
		tools, err := collect(up.Tools(ctx, nil))
		if err != nil {
			return fmt.Errorf("gateway: list the upstream's tools: %w", err)
		}
		g.mu.Lock()
		old := g.snap.tools
		g.snap.tools = tools
		g.mu.Unlock()
		apply(old, tools, func(t *mcp.Tool) string { return t.Name }, g.server.RemoveTools, func(t *mcp.Tool) {
			g.server.AddTool(t, unreachableTool)
		}, g.log)
	case kindResources:
		if caps == nil || caps.Resources == nil {
			return nil
		}
		resources, err := collect(up.Resources(ctx, nil))
		if err != nil {
			return fmt.Errorf("gateway: list the upstream's resources: %w", err)
		}
		templates, err := collect(up.ResourceTemplates(ctx, nil))
		if err != nil {
			return fmt.Errorf("gateway: list the upstream's resource templates: %w", err)
		}
		g.mu.Lock()
		oldR, oldT := g.snap.resources, g.snap.templates
		g.snap.resources, g.snap.templates = resources, templates
		g.mu.Unlock()
		apply(oldR, resources, func(r *mcp.Resource) string { return r.URI }, g.server.RemoveResources, func(r *mcp.Resource) {
			g.server.AddResource(r, unreachableResource)
		}, g.log)
		apply(oldT, templates, func(t *mcp.ResourceTemplate) string { return t.URITemplate }, g.server.RemoveResourceTemplates, func(t *mcp.ResourceTemplate) {
			g.server.AddResourceTemplate(t, unreachableResource)
		}, g.log)
	case kindPrompts:
		if caps == nil || caps.Prompts == nil {
			return nil
		}
		prompts, err := collect(up.Prompts(ctx, nil))
		if err != nil {
			return fmt.Errorf("gateway: list the upstream's prompts: %w", err)
		}
		g.mu.Lock()
		old := g.snap.prompts
		g.snap.prompts = prompts
		g.mu.Unlock()
		apply(old, prompts, func(p *mcp.Prompt) string { return p.Name }, g.server.RemovePrompts, func(p *mcp.Prompt) {
			g.server.AddPrompt(p, unreachablePrompt)
		}, g.log)
	}
	return nil
}

// collect reads every page of a listing, at most maxItems items.
func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		if len(out) == maxItems {
			return nil, fmt.Errorf("more than %d items", maxItems)
		}
		out = append(out, v)
	}
	return out, nil
}

// apply registers on the mirror server what changed between old and new:
// it removes the ids gone and adds the items new or changed. The
// registrations give the middleware the tools' output schemas and the
// downstream clients their list_changed notifications; the listings
// themselves are served from the snapshot (see [Gateway.list]).
func apply[T any](old, new []T, id func(T) string, remove func(...string), add func(T), log *zap.Logger) {
	before := make(map[string]T, len(old))
	for _, v := range old {
		before[id(v)] = v
	}
	var gone []string
	now := make(map[string]bool, len(new))
	for _, v := range new {
		now[id(v)] = true
	}
	for k := range before {
		if !now[k] {
			gone = append(gone, k)
		}
	}
	if len(gone) > 0 {
		remove(gone...)
	}
	for _, v := range new {
		if w, ok := before[id(v)]; ok && reflect.DeepEqual(v, w) {
			continue
		}
		register(v, id(v), add, log)
	}
}

// register adds v, which the SDK may refuse with a panic (an input schema
// that is not an object, a template that does not parse): such an item
// stays listed and callable, only unregistered.
func register[T any](v T, id string, add func(T), log *zap.Logger) {
	defer func() {
		if r := recover(); r != nil {
			log.Warn("the mirror server refused an upstream item; it is forwarded but not registered",
				zap.String("id", id), zap.Any("reason", r))
		}
	}()
	add(v)
}

// errUnreachable: the registered handlers never run, since [Gateway.forward]
// answers every call before the SDK routes it.
var errUnreachable = errors.New("gateway: a mirror handler ran")

func unreachableTool(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errUnreachable
}

func unreachableResource(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return nil, errUnreachable
}

func unreachablePrompt(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return nil, errUnreachable
}

// forward is the innermost receiving middleware of the mirror server: it
// serves the listings from the snapshot, in the upstream's order, and
// forwards calls, reads, prompts, completions and the logging level to the
// upstream, with the request's own _meta minus the stateless era's
// envelope (which is about the downstream client and the gateway, not the
// upstream).
func (g *Gateway) forward(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list", "resources/list", "resources/templates/list", "prompts/list":
			return g.list(method, req)
		case "tools/call", "resources/read", "prompts/get", "completion/complete", "logging/setLevel":
		default:
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithTimeout(ctx, g.bound())
		defer cancel()
		// Close ends it too: the go-sdk client's Close waits for its calls.
		defer context.AfterFunc(g.life, cancel)()
		up, err := g.session(ctx)
		if err != nil {
			return g.failed(ctx, method, req, err)
		}
		var c *caller
		if method != "completion/complete" && method != "logging/setLevel" {
			if newProtocol(req) {
				return g.roundTrip(ctx, method, req, up)
			}
			var end func()
			c, end = g.begin(ctx, req)
			defer end()
		}
		rc, ctx := rawCallOf(ctx) // the upstream's result bytes (raw.go)
		defer rc.done()
		var res mcp.Result
		switch p := req.GetParams().(type) {
		case *mcp.CallToolParamsRaw:
			var args any
			if len(p.Arguments) > 0 {
				args = p.Arguments
			}
			meta, end := g.route(c, upstreamMeta(p.Meta))
			defer end()
			res, err = up.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: p.Name, Arguments: args})
		case *mcp.ReadResourceParams:
			meta, end := g.route(c, upstreamMeta(p.Meta))
			defer end()
			res, err = up.ReadResource(ctx, &mcp.ReadResourceParams{Meta: meta, URI: p.URI})
		case *mcp.GetPromptParams:
			meta, end := g.route(c, upstreamMeta(p.Meta))
			defer end()
			res, err = up.GetPrompt(ctx, &mcp.GetPromptParams{Meta: meta, Name: p.Name, Arguments: p.Arguments})
		case *mcp.CompleteParams:
			c := *p
			c.Meta = upstreamMeta(p.Meta)
			res, err = up.Complete(ctx, &c)
		case *mcp.SetLoggingLevelParams:
			c := *p
			c.Meta = upstreamMeta(p.Meta)
			if err = up.SetLoggingLevel(ctx, &c); err == nil {
				return next(ctx, method, req)
			}
		default:
			return nil, fmt.Errorf("gateway: %s: unexpected params %T", method, p)
		}
		if err != nil {
			if ended(err) {
				g.markDead(up)
			}
			return g.failed(ctx, method, req, err)
		}
		rc.exact(res)
		if newProtocol(req) {
			if res, err = complete(res); err != nil {
				return nil, err
			}
		}
		rc.keep(res)
		return res, nil
	}
}

// newProtocol reports whether the downstream session speaks the stateless
// era (2026-07-28 or later), as the SDK decides it for its own handlers.
func newProtocol(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok {
		return false
	}
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= "2026-07-28"
}

// complete marks a result of the stateless era "resultType": "complete", as
// the SDK marks the results of its own handlers (the field is the SDK's
// own, set only by decoding): the upstream, of either era, answered in
// full, since the gateway's client fulfils its input requests.
func complete(res mcp.Result) (mcp.Result, error) {
	var out mcp.Result
	switch res.(type) {
	case *mcp.CallToolResult:
		out = new(mcp.CallToolResult)
	case *mcp.ReadResourceResult:
		out = new(mcp.ReadResourceResult)
	case *mcp.GetPromptResult:
		out = new(mcp.GetPromptResult)
	default:
		return res, nil
	}
	b, err := json.Marshal(res)
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("gateway: encode the upstream's result: %w", err)
	}
	mark := []byte(`"resultType":"complete"}`)
	if len(b) > 2 {
		mark = append([]byte{','}, mark...)
	}
	b = append(b[:len(b)-1], mark...)
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("gateway: decode the upstream's result: %w", err)
	}
	if r, ok := res.(*mcp.CallToolResult); ok {
		out.(*mcp.CallToolResult).StructuredContent = r.StructuredContent // its exact bytes
	}
	return out, nil
}

// caller is a forwarded request under way: its context (which carries the
// downstream client's profile), its downstream session, its client's
// capabilities, and for a stateless-era client the upstream call held
// open for its answers.
type caller struct {
	ctx  context.Context
	ss   *mcp.ServerSession
	caps *mcp.ClientCapabilities
	held *held
}

// begin records a forwarded request under way; the function it returns
// ends it.
func (g *Gateway) begin(ctx context.Context, req mcp.Request) (*caller, func()) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	c := &caller{ctx: ctx, ss: ss, caps: clientCapabilities(req)}
	g.mu.Lock()
	g.calls[c] = struct{}{}
	g.mu.Unlock()
	return c, func() {
		g.mu.Lock()
		delete(g.calls, c)
		g.mu.Unlock()
	}
}

// progressRoute is where an upstream's progress notification goes: the
// caller, under the caller's own token.
type progressRoute struct {
	c     *caller
	token any
}

// progressTokenKey is the _meta key of a request's progress token.
const progressTokenKey = "progressToken"

// route replaces the caller's progress token in meta, if it has one, by
// one of the gateway's own, unique across the downstream clients that share
// the upstream, and records where its notifications go; the function it
// returns forgets it.
func (g *Gateway) route(c *caller, meta mcp.Meta) (mcp.Meta, func()) {
	token, ok := meta[progressTokenKey]
	if !ok || c == nil || c.ss == nil {
		return meta, func() {}
	}
	g.mu.Lock()
	g.nextToken++
	own := "contentneg-" + strconv.FormatUint(g.nextToken, 10)
	g.tokens[own] = progressRoute{c: c, token: token}
	g.mu.Unlock()
	meta[progressTokenKey] = own
	return meta, func() {
		// The SDK may hand the gateway a notification the upstream sent
		// just before its result after the result: keep the route a moment.
		time.AfterFunc(progressGrace, func() {
			g.mu.Lock()
			delete(g.tokens, own)
			g.mu.Unlock()
		})
	}
}

// logMessage passes an upstream's log message on: to the client whose
// request is the only one under way, else to every downstream client (the
// upstream's session is theirs together); each gets it only at or above
// the level it set, as from any go-sdk server.
func (g *Gateway) logMessage(p *mcp.LoggingMessageParams) {
	if p == nil {
		return
	}
	send := func(ctx context.Context, ss *mcp.ServerSession) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), progressGrace)
		defer cancel()
		if err := ss.Log(ctx, p); err != nil {
			g.log.Debug("log message not passed on", zap.Error(err))
		}
	}
	if c := g.soleCaller(); c != nil && c.ss != nil {
		send(c.ctx, c.ss)
		return
	}
	for ss := range g.server.Sessions() {
		send(context.Background(), ss)
	}
}

// progressGrace is how long a route outlives its request.
const progressGrace = time.Second

// progress passes an upstream's progress notification to the client whose
// request it is about, under that client's token; a notification for no
// request under way is dropped.
func (g *Gateway) progress(ctx context.Context, p *mcp.ProgressNotificationParams) {
	if p == nil {
		return
	}
	own, _ := p.ProgressToken.(string)
	g.mu.Lock()
	r, ok := g.tokens[own]
	g.mu.Unlock()
	if !ok {
		g.log.Debug("upstream progress for no request under way: dropped", zap.Any("token", p.ProgressToken))
		return
	}
	n := *p
	n.ProgressToken = r.token
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.c.ctx), progressGrace)
	defer cancel()
	if err := r.c.ss.NotifyProgress(ctx, &n); err != nil {
		g.log.Debug("progress not passed on", zap.Error(err))
	}
}

// soleCaller is the one forwarded request under way, or nil when there is
// none or more than one.
func (g *Gateway) soleCaller() *caller {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.calls) != 1 {
		return nil
	}
	for c := range g.calls {
		return c
	}
	return nil
}

// elicit passes an upstream's question to the downstream client whose
// request the upstream is serving, through that client's gate (contract
// section 6; the mirror server's sending middleware for a legacy-era
// client, [Gateway.elicitHeld] for a stateless-era one, asked with its
// era's inputRequests): a client that cannot answer is never asked and the
// upstream gets "decline". The upstream's
// questions carry nothing that names the request they belong to, so a
// question is passed on only when one request is under way; with none or
// several, it is declined (docs/gateway.md). A client that goes away, or
// a request that ends, ends the question as "cancel".
func (g *Gateway) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	c := g.soleCaller()
	if c == nil || c.ss == nil {
		g.log.Debug("upstream question declined: no single request under way to ask for")
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	if c.held != nil {
		res, err := g.elicitHeld(ctx, c, req.Params)
		g.routeCompletion(c.ss, req.Params, res)
		return res, err
	}
	askCtx, end := elicitContext(c.ctx, ctx)
	defer end()
	res, err := c.ss.Elicit(askCtx, req.Params)
	if err != nil {
		action := "decline" // the client cannot answer (no elicitation capability, or its era's way)
		if askCtx.Err() != nil || errors.Is(err, mcp.ErrConnectionClosed) {
			action = "cancel"
		}
		g.log.Debug("upstream question not passed on", zap.String("action", action), zap.Error(err))
		return &mcp.ElicitResult{Action: action}, nil
	}
	g.routeCompletion(c.ss, req.Params, res)
	return res, nil
}

// failed is what the downstream client gets when a forwarded request
// fails: the upstream's JSON-RPC error as it is (code, message, data); for
// a tool call the upstream did not answer (it crashed, or the call timeout
// passed), a tool error saying so, so that the model reads it; else an
// internal error naming the method.
func (g *Gateway) failed(ctx context.Context, method string, req mcp.Request, err error) (mcp.Result, error) {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return nil, we
	}
	if method != "tools/call" || errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("gateway: upstream %s: %w", method, err)
	}
	g.log.Warn("a tool call got no answer from the upstream", zap.Error(err))
	msg := "The server behind the gateway ended during the call; it is being restarted. Try again."
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		msg = fmt.Sprintf("The server behind the gateway did not answer within %v.", g.bound())
	}
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
	if newProtocol(req) {
		return complete(res)
	}
	return res, nil
}

// ours are the _meta keys of the stateless era's envelope: they describe
// the downstream client to the gateway; the gateway's own client sends its
// own to the upstream.
var ours = []string{
	mcp.MetaKeyProtocolVersion,
	mcp.MetaKeyClientInfo,
	mcp.MetaKeyClientCapabilities,
	mcp.MetaKeyLogLevel,
}

// upstreamMeta is the _meta forwarded upstream: the request's own, minus
// the keys that are ours to consume; nil when nothing is left.
func upstreamMeta(m mcp.Meta) mcp.Meta {
	if len(m) == 0 {
		return nil
	}
	out := make(mcp.Meta, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, k := range ours {
		delete(out, k)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// list serves one page of a listing from the snapshot. The cursor is the
// index of the page's first item.
func (g *Gateway) list(method string, req mcp.Request) (mcp.Result, error) {
	cursor := cursorOf(req.GetParams())
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q", cursor)}
		}
		start = n
	}
	g.mu.Lock()
	s := g.snap
	g.mu.Unlock()
	switch method {
	case "tools/list":
		items, next := page(s.tools, start)
		return &mcp.ListToolsResult{Tools: items, NextCursor: next}, nil
	case "resources/list":
		items, next := page(s.resources, start)
		return &mcp.ListResourcesResult{Resources: items, NextCursor: next}, nil
	case "resources/templates/list":
		items, next := page(s.templates, start)
		return &mcp.ListResourceTemplatesResult{ResourceTemplates: items, NextCursor: next}, nil
	default:
		items, next := page(s.prompts, start)
		return &mcp.ListPromptsResult{Prompts: items, NextCursor: next}, nil
	}
}

// cursorOf reads the cursor of a list request's params, which may be a
// typed nil: a legacy-era list request may leave them out.
func cursorOf(p mcp.Params) string {
	switch p := p.(type) {
	case *mcp.ListToolsParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListResourcesParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListResourceTemplatesParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListPromptsParams:
		if p != nil {
			return p.Cursor
		}
	}
	return ""
}

// page returns the items from start on, at most pageSize of them, never
// nil (an empty list is [] on the wire), and the cursor of the next page.
func page[T any](all []T, start int) ([]T, string) {
	if start > len(all) {
		start = len(all)
	}
	end := min(start+pageSize, len(all))
	items := make([]T, 0, end-start)
	items = append(items, all[start:end]...)
	if end < len(all) {
		return items, strconv.Itoa(end)
	}
	return items, ""
}

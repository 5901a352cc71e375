package middleware

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// Options configures a [Middleware]. A nil *Options means the defaults.
type Options struct {
	// Logger receives one debug line per negotiation, warnings for clients'
	// diagnostics and renderer failures. nil means zap.NewNop().
	Logger *zap.Logger
	// Store keeps profiles by session id for transports where the SDK does
	// not keep a session's initialize capabilities. nil means none: the
	// SDK's own session state is used.
	Store negotiation.Store
	// Mirror is what format=json clients get beside structuredContent.
	Mirror shaping.Mirror
	// Tools configures the rendering of individual tools by name; tools not
	// listed use the generic renderers. See also [Middleware.Register].
	Tools map[string]shaping.Tool
	// Refusal is the answer the elicitation gate gives in place of a client
	// that cannot answer: negotiation.Decline (the default) or
	// negotiation.Cancel.
	Refusal negotiation.Refusal
}

// Middleware negotiates content for a go-sdk server. Make one with [New] or
// [Install]; it is safe for concurrent use, and one Middleware may serve
// several servers.
type Middleware struct {
	log        *zap.Logger
	negotiator *negotiation.Negotiator
	shaper     *shaping.Shaper
	sessions   *sessions
	tools      *catalog
	refusal    negotiation.Refusal
}

// New returns a Middleware. Add it to a server with [Middleware.Install], or
// add [Middleware.Receiving] yourself with Server.AddReceivingMiddleware.
func New(opts *Options) *Middleware {
	if opts == nil {
		opts = &Options{}
	}
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	m := &Middleware{
		log:        log.Named("contentneg"),
		negotiator: negotiation.New(&negotiation.Options{Logger: log}),
		shaper:     shaping.New(&shaping.Options{Logger: log, Mirror: opts.Mirror}),
		sessions:   newSessions(opts.Store),
		tools:      newCatalog(),
		refusal:    opts.Refusal,
	}
	for name, t := range opts.Tools {
		m.shaper.Register(name, t)
	}
	return m
}

// Install makes a Middleware from opts and adds it to s: the one call a
// server author needs.
func Install(s *mcp.Server, opts *Options) *Middleware {
	m := New(opts)
	m.Install(s)
	return m
}

// Install adds the middleware to s: [Middleware.Receiving] as the outermost
// receiving middleware added so far, [Middleware.Sending], the elicitation
// gate, as the outermost sending middleware, and the method
// resources/metadata (SEP-2093), which the receiving middleware answers.
func (m *Middleware) Install(s *mcp.Server) {
	serveMetadata(s)
	s.AddReceivingMiddleware(m.Receiving)
	s.AddSendingMiddleware(m.Sending)
}

// Register sets how the named tool's results are rendered, replacing the
// generic renderers for it.
func (m *Middleware) Register(tool string, t shaping.Tool) { m.shaper.Register(tool, t) }

// Receiving is the receiving middleware (an mcp.Middleware). It advertises
// the extension in initialize and server/discover results, resolves the
// client's profile for every request and puts it in the handler's context
// when the client declared the extension, rewrites tools/call results, and
// keeps elicitations away from clients that cannot answer them (the
// stateless era's inputRequests; see [Middleware.Sending] for the legacy
// era). Requests of clients that did not declare the extension go to next
// untouched.
func (m *Middleware) Receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			return m.initialize(ctx, method, req, next)
		case "server/discover":
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.DiscoverResult); ok && r != nil {
				r.Capabilities = advertise(r.Capabilities)
			}
			return res, err
		case "tools/list":
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.ListToolsResult); ok && r != nil {
				m.tools.learn(r.Tools)
			}
			return res, err
		case MethodResourceMetadata:
			return m.resourceMetadata(ctx, req, next)
		}
		c := m.resolve(req)
		if !c.profile.Declared() {
			if method == "resources/read" {
				res, err := next(ctx, method, req)
				return notFound(requestName(req), res, err)
			}
			return next(ctx, method, req)
		}
		cl := m.newCall(c, method, req)
		ctx = withCall(negotiation.WithProfile(ctx, c.profile), cl)
		switch method {
		case "tools/call", "prompts/get", "resources/read":
			if cl.closed {
				var err error
				if req, err = m.overrideAnswers(req, cl); err != nil {
					return nil, err
				}
			}
		default:
			return next(ctx, method, req)
		}
		if method == "tools/call" {
			return m.callTool(ctx, method, req, next, cl)
		}
		res, err := m.gateInputs(method, req, func(req mcp.Request) (mcp.Result, error) { return next(ctx, method, req) }, cl)
		if method == "prompts/get" {
			if err != nil {
				return res, err
			}
			return m.renderPrompt(res, cl), nil
		}
		if res, err = notFound(requestName(req), res, err); err != nil {
			return res, err
		}
		return m.renderResource(req, res, cl), nil
	}
}

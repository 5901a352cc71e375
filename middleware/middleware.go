package middleware

import (
	"context"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
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
	shaper *shaping.Shaper
}

// New returns a Middleware. Add it to a server with [Middleware.Install], or
// add [Middleware.Receiving] and [Middleware.Sending] yourself.
func New(opts *Options) *Middleware {
	if opts == nil {
		opts = &Options{}
	}
	m := &Middleware{shaper: shaping.New(&shaping.Options{
		Logger: opts.Logger, Mirror: opts.Mirror, Store: opts.Store, Refusal: opts.Refusal,
	})}
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

// Register sets how the named tool's results are rendered as markdown and
// text, replacing the generic renderers for it.
func (m *Middleware) Register(tool string, t shaping.Tool) { m.shaper.Register(tool, t) }

// Handle registers r as the renderer of mediaType for the named tool (or
// resource URI or URI template); see [shaping.Shaper.Handle].
func (m *Middleware) Handle(tool, mediaType string, r renderers.Renderer) {
	m.shaper.Handle(tool, mediaType, r)
}

// AddFormat makes a further media type negotiable under a format name
// ("csv" for "text/csv"); see [shaping.Shaper.AddFormat].
func (m *Middleware) AddFormat(name, mediaType string, generic renderers.Renderer) error {
	return m.shaper.AddFormat(name, mediaType, generic)
}

// Shaper returns the SDK-neutral core the middleware translates for, to
// share it with another front end (the REST binding) of the same server.
func (m *Middleware) Shaper() *shaping.Shaper { return m.shaper }

// Receiving is the receiving middleware (an mcp.Middleware). It advertises
// the extension in initialize and server/discover results, resolves the
// client's profile for every request and puts it in the handler's context
// when the client declared the extension, rewrites tools/call,
// resources/read and prompts/get results, and keeps elicitations away from
// clients that cannot answer them (the stateless era's inputRequests; see
// [Middleware.Sending] for the legacy era). Requests of clients that did not
// declare the extension go to next untouched.
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
		case MethodResourceMetadata:
			return m.resourceMetadata(ctx, req, next)
		}
		facts := requestFacts(req)
		client := m.shaper.Resolve(&facts)
		if !client.Profile.Declared() {
			if method == "resources/read" {
				res, err := next(ctx, method, req)
				return notFound(requestName(req), res, err)
			}
			return next(ctx, method, req)
		}
		switch method {
		case "tools/call", "prompts/get", "resources/read":
		default:
			return next(negotiation.WithProfile(ctx, client.Profile), method, req)
		}
		call := m.shaper.Begin(client, facts.SessionKey, method, requestName(req))
		defer call.Done()
		ctx = call.Context(ctx)
		req = overrideAnswers(req, call, m.shaper.Refusal())
		res, err := gateInputs(ctx, method, req, next, call, m.shaper.Refusal())
		switch method {
		case "tools/call":
			return m.renderTool(ctx, req, next, call, res, err)
		case "prompts/get":
			return m.renderPrompt(res, call), err
		}
		if res, err = notFound(call.Name, res, err); err != nil {
			return res, err
		}
		return m.renderResource(res, call), nil
	}
}

// initialize negotiates a legacy-era session once, from the initialize
// params (the session does not hold them until next has run), and
// advertises the extension.
func (m *Middleware) initialize(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	r, ok := res.(*mcp.InitializeResult)
	if err != nil || !ok || r == nil {
		return res, err
	}
	r.Capabilities = advertise(r.Capabilities)
	params, _ := req.GetParams().(*mcp.InitializeParams)
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if params != nil && ss != nil {
		keepSession(m.shaper, ss, capabilities(params.Capabilities))
	}
	return res, err
}

// advertise returns caps with the extension added under
// extensions[negotiation.ExtensionID] = {}. Everything else, the logging
// capability among it, stays; the map is copied, never changed in place.
func advertise(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	extensions := maps.Clone(caps.Extensions)
	if extensions == nil {
		extensions = make(map[string]any, 1)
	}
	extensions[negotiation.ExtensionID] = map[string]any{}
	caps.Extensions = extensions
	return caps
}

package middleware

import (
	"context"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/middleware/elicitation"
	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/middleware/resourcemeta"
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
	// QuestionTimeout bounds how long an elicitation put to a client waits
	// for its answer before the handler gets "cancel"; zero means five
	// minutes. See also [Middleware.Close] and [Middleware.Handler].
	QuestionTimeout time.Duration
	// Recover turns a panic in a request handler into a failed request (a
	// tools/call result with isError) and an error log line, and the server
	// goes on serving. Off by default: the SDK lets a panic end the process.
	Recover bool
}

// Middleware negotiates content for a go-sdk server. Make one with [New] or
// [Install]; it is safe for concurrent use, and one Middleware may serve
// several servers.
type Middleware struct {
	shaper  *shaping.Shaper
	recover bool
}

// New returns a Middleware. Add it to a server with [Middleware.Install].
func New(opts *Options) *Middleware {
	if opts == nil {
		opts = &Options{}
	}
	m := &Middleware{recover: opts.Recover, shaper: shaping.New(&shaping.Options{
		Logger: opts.Logger, Mirror: opts.Mirror, Store: opts.Store, Refusal: opts.Refusal,
		QuestionTimeout: opts.QuestionTimeout, Tools: opts.Tools,
	})}
	return m
}

// Install makes a Middleware from opts and adds it to s: the one call a
// server author needs.
func Install(s *mcp.Server, opts *Options) *Middleware {
	m := New(opts)
	m.Install(s)
	return m
}

// Install adds the middleware to s: the method resources/metadata (package
// resourcemeta), the stateless era's elicitation gate and, outermost of the
// receiving middleware added so far, [Middleware.Receiving]; and the legacy
// era's elicitation gate as the outermost sending middleware. With
// [Options.Recover], the recovery from panics goes innermost.
func (m *Middleware) Install(s *mcp.Server) {
	if m.recover {
		s.AddReceivingMiddleware(m.recovering)
	}
	resourcemeta.Install(s)
	s.AddReceivingMiddleware(elicitation.Receiving)
	s.AddReceivingMiddleware(m.Receiving)
	s.AddSendingMiddleware(elicitation.Sending(m.shaper))
}

// Close ends every elicitation waiting for an answer, as "cancel", and
// every one asked after it at once: call it first when the server shuts
// down, before closing its sessions, since the SDK waits for the requests
// under way (and so for their questions) when it closes a session.
// Negotiation goes on working.
func (m *Middleware) Close() { m.shaper.Close() }

// Handler wraps the SDK's streamable HTTP handler so that a session's open
// questions end, as "cancel", when the session is deleted (before the SDK
// waits for its requests under way) or its client goes away in the middle
// of a request: see [elicitation.Handler].
func (m *Middleware) Handler(h http.Handler) http.Handler { return elicitation.Handler(m.shaper, h) }

// Register sets how the named tool's results are rendered as markdown and
// text, replacing the generic renderers for it.
func (m *Middleware) Register(tool string, t shaping.Tool) { m.shaper.Register(tool, t) }

// Shaper returns the SDK-neutral core the middleware translates for: add
// media types with its AddFormat and Handle, or share it with another front
// end of the same server.
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
		}
		facts := sdk.RequestFacts(req)
		key := facts.SessionKey
		client := m.shaper.Resolve(&facts)
		if !client.Profile.Declared() {
			if method == "resources/read" {
				res, err := next(ctx, method, req)
				return notFound(sdk.RequestName(req), res, err)
			}
			return next(ctx, method, req)
		}
		switch method {
		case "tools/call", "prompts/get", "resources/read":
		default:
			return next(negotiation.WithProfile(ctx, client.Profile), method, req)
		}
		call := m.shaper.Begin(client, key, method, sdk.RequestName(req))
		defer call.Done()
		ctx = call.Context(ctx)
		res, err := next(ctx, method, req) // through the stateless gate, package elicitation
		switch method {
		case "tools/call":
			return m.renderTool(ctx, req, next, call, res, err)
		case "prompts/get":
			return m.renderPrompt(res, call), err
		}
		if res, err = notFound(call.Name, res, err); err != nil {
			return res, err
		}
		return m.renderResource(req, res, call), nil
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
		sdk.KeepSession(m.shaper, ss, sdk.Capabilities(params.Capabilities))
	}
	return res, err
}

// advertise adds the extension to a server's capabilities, in a copy of
// their extensions map.
func advertise(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	caps.Extensions = shaping.Advertise(caps.Extensions)
	return caps
}

// ErrCannotElicit is returned by [Elicit] for a client that did not declare
// the extension and has no elicitation capability.
var ErrCannotElicit = elicitation.ErrCannotElicit

// Elicit asks the client of a tools/call, in either protocol era, and
// returns its answer, or the gate's refusal without contacting a client
// that cannot answer: see [elicitation.Elicit].
func Elicit(ctx context.Context, req *mcp.CallToolRequest, id string, params *mcp.ElicitParams) (answer *mcp.ElicitResult, ask *mcp.CallToolResult, err error) {
	return elicitation.Elicit(ctx, req, id, params)
}

// MayElicit reports whether the handler of req may put a question to its
// client: see [elicitation.MayElicit].
func MayElicit(ctx context.Context, req mcp.Request) bool { return elicitation.MayElicit(ctx, req) }

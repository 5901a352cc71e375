package middleware

import (
	"context"
	"maps"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/middleware/resourcemeta"
	"github.com/contentneg/contentneg/shaping"
)

// Options configures a [Middleware]; a nil *Options means the defaults.
// They are the options of every front end (contract section 9): see
// shaping.Options.
type Options = shaping.Options

// Middleware negotiates content for a go-sdk server. Make one with [New] or
// [Install]; it is safe for concurrent use, and one Middleware may serve
// several servers.
type Middleware struct {
	shaper   *shaping.Shaper
	resource resourcePort
	prompt   promptPort
}

// New returns a Middleware. Add it to a server with [Middleware.Install].
func New(opts *Options) *Middleware {
	return &Middleware{shaper: shaping.New(opts)}
}

// Install makes a Middleware from opts and adds it to s: the one call a
// server author needs.
func Install(s *mcp.Server, opts *Options) *Middleware {
	m := New(opts)
	m.Install(s)
	return m
}

// Install adds the middleware to s: the method resources/metadata (package
// resourcemeta) and, outermost of the receiving middleware added so far,
// the middleware that negotiates, with a catalog of s's own tools; and the
// legacy era's elicitation gate as the outermost sending middleware.
//
// The receiving middleware advertises the extension in initialize and
// server/discover results, resolves the client's profile for every
// request and puts it in the handler's context when the client declared
// the extension, and serves tools/call, resources/read and prompts/get
// through package shaping (the gate, the renderings, "not found"; see
// shaping.ServeTool). It reads the tools' output schemas from the SDK's
// registrations, else from the tools/list results that pass through it
// (tools a server lists without registering them). Requests of clients
// that did not declare the extension go to the next handler untouched.
//
// The sending middleware is the elicitation gate of the legacy era: an
// elicitation/create meant for a client that declared the extension and
// cannot answer ("!interactive", or no elicitation capability) is answered
// with the refusal and never sent, and every other one waits for its
// answer at most the question timeout (then, or when the session ends or
// the middleware is closed, the handler gets "cancel").
func (m *Middleware) Install(s *mcp.Server) {
	resourcemeta.Install(s)
	s.AddReceivingMiddleware(m.receiving(&toolPort{tools: &catalog{}}))
	s.AddSendingMiddleware(sending(m.shaper))
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
// of a request. Which questions belong to a request is known from the
// requests themselves, not from the stream's bytes.
func (m *Middleware) Handler(h http.Handler) http.Handler { return handler(m.shaper, h) }

// Register sets how the named tool's results are rendered as markdown and
// text, replacing the generic renderers for it.
func (m *Middleware) Register(tool string, t shaping.Tool) { m.shaper.Register(tool, t) }

// Shaper returns the SDK-neutral core the middleware translates for: add
// media types with its AddFormat and Handle, or share it with another front
// end of the same server.
func (m *Middleware) Shaper() *shaping.Shaper { return m.shaper }

// receiving is the receiving middleware with the tool port of one server.
func (m *Middleware) receiving(tools *toolPort) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			x := exchange{next: next, method: method, req: req}
			switch sdk.KindOf(method) {
			case sdk.ToolCall:
				res, err := shaping.ServeTool(sdk.WithPost(ctx, req), m.shaper, tools, m.takeArgument(x, tools))
				return complete(req, res), err
			case sdk.ResourceRead:
				return shaping.ServeResource(sdk.WithPost(ctx, req), m.shaper, &m.resource, x)
			case sdk.PromptGet:
				return shaping.ServePrompt(sdk.WithPost(ctx, req), m.shaper, &m.prompt, x)
			case sdk.Handshake:
				if method == "initialize" {
					return m.initialize(ctx, method, req, next)
				}
				res, err := next(ctx, method, req)
				if r, ok := res.(*mcp.DiscoverResult); ok && r != nil {
					r.Capabilities = advertise(r.Capabilities)
				}
				return res, err
			}
			res, err := shaping.Serve(ctx, m.shaper, port{}, x, method)
			if method == "tools/list" && err == nil {
				tools.tools.learn(res) // the fallback of toolPort.Schema
				res = m.advertiseArgument(res)
			}
			return res, err
		}
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
	ext := make(map[string]any, len(caps.Extensions)+1)
	maps.Copy(ext, caps.Extensions)
	ext[shaping.ExtensionID] = map[string]any{}
	caps.Extensions = ext
	return caps
}

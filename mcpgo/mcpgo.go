package mcpgo

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// Options configures an [Adapter]. A nil *Options means the defaults.
type Options struct {
	// Logger receives one debug line per negotiation, warnings for clients'
	// diagnostics and renderer failures. nil means zap.NewNop().
	Logger *zap.Logger
	// Store keeps profiles by session id for transports where the SDK does
	// not keep a session's initialize capabilities. nil means none.
	Store negotiation.Store
	// Mirror is what format=json clients get beside structuredContent.
	Mirror shaping.Mirror
	// Tools configures the rendering of individual tools (and resource URIs
	// or URI templates) by name; others use the generic renderers.
	Tools map[string]shaping.Tool
	// Refusal is the answer the elicitation gate gives in place of a client
	// that cannot answer: negotiation.Decline (the default) or
	// negotiation.Cancel.
	Refusal negotiation.Refusal
	// QuestionTimeout bounds how long [Elicit] waits for a client's answer
	// in the legacy era; an unanswered question ends as "cancel". Zero means
	// shaping.DefaultQuestionTimeout, five minutes.
	QuestionTimeout time.Duration
}

// Adapter negotiates content for mcp-go servers. Make one with [New] or
// [Install]; it is safe for concurrent use, and one Adapter may serve
// several servers.
type Adapter struct {
	shaper *shaping.Shaper
	store  bool // a profile store is configured: it may know a session
}

// New returns an Adapter. Add it to a server with [Adapter.Install].
func New(opts *Options) *Adapter {
	if opts == nil {
		opts = &Options{}
	}
	a := &Adapter{store: opts.Store != nil, shaper: shaping.New(&shaping.Options{
		Logger: opts.Logger, Mirror: opts.Mirror, Store: opts.Store, Refusal: opts.Refusal,
		QuestionTimeout: opts.QuestionTimeout, Tools: opts.Tools,
	})}
	return a
}

// Install makes an Adapter from opts and adds it to srv: the one call a
// server author needs.
func Install(srv *server.MCPServer, opts *Options) *Adapter {
	a := New(opts)
	a.Install(srv)
	return a
}

// Close ends every open question at once (each ends as "cancel"): call it
// before shutting the server down, so that no request waits on a client
// that will not answer.
func (a *Adapter) Close() { a.shaper.Close() }

// Install adds the adapter to srv: hooks that advertise the extension in
// initialize and server/discover results, keep a legacy session's client
// and forget it when the session ends; and the tool, resource and prompt
// handler middlewares. mcp-go runs handler middlewares in the order they
// were added, so install the adapter before any middleware that should see
// the negotiated results.
func (a *Adapter) Install(srv *server.MCPServer) {
	hooks := srv.GetHooks()
	if hooks == nil {
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(srv)
	}
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		// The SDK shares its extensions map with every result: copy it.
		res.Capabilities.Extensions = shaping.Advertise(res.Capabilities.Extensions)
		if session := server.ClientSessionFromContext(ctx); session != nil {
			a.shaper.Initialize(keyOf(srv, session), session.SessionID(), capabilities(&req.Params.Capabilities))
		}
	})
	hooks.AddAfterDiscover(func(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
		res.Capabilities.Extensions = shaping.Advertise(res.Capabilities.Extensions)
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
		a.shaper.EndSession(keyOf(srv, session), session.SessionID())
	})
	server.WithToolHandlerMiddleware(a.ToolMiddleware)(srv)
	server.WithResourceHandlerMiddleware(a.ResourceMiddleware)(srv)
	server.WithPromptHandlerMiddleware(a.PromptMiddleware)(srv)
}

// Register sets how the named tool's results are rendered as markdown and
// text, replacing the generic renderers for it.
func (a *Adapter) Register(tool string, t shaping.Tool) { a.shaper.Register(tool, t) }

// Shaper returns the SDK-neutral core the adapter translates for.
func (a *Adapter) Shaper() *shaping.Shaper { return a.shaper }

// begin resolves the client of the request ctx belongs to and, when it
// declared the extension, starts a call with the profile in its context.
// A request whose capabilities hold no extension settings at all is let
// through at once, allocating nothing: shaping would find it undeclared.
func (a *Adapter) begin(ctx context.Context, method, name string) (*shaping.Call, context.Context) {
	var r shaping.Request
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if declaresNothing(info.ClientCapabilities) {
			return nil, ctx
		}
		r.Stateless, r.Meta, r.HasMeta = true, capabilities(info.ClientCapabilities), true
	} else if session := server.ClientSessionFromContext(ctx); session != nil && session.SessionID() != "" {
		// A session without an id is stateless HTTP's: mcp-go shares it
		// between legacy clients, so its capabilities are no one's.
		s, ok := session.(server.SessionWithClientInfo)
		var caps mcp.ClientCapabilities
		if ok {
			caps = s.GetClientCapabilities()
		}
		if declaresNothing(&caps) && !a.store {
			return nil, ctx
		}
		r.SessionID, r.SessionKey = session.SessionID(), keyOf(server.ServerFromContext(ctx), session)
		r.Session, r.HasSession = capabilities(&caps), ok
	}
	client := a.shaper.Resolve(&r)
	if !client.Profile.Declared() {
		return nil, ctx
	}
	call := a.shaper.Begin(client, r.SessionKey, method, name)
	return call, call.Context(ctx)
}

// declaresNothing reports whether a capability object has no extension
// settings in which the client could have declared the extension.
func declaresNothing(c *mcp.ClientCapabilities) bool {
	return c == nil || len(c.Extensions) == 0 && len(c.Experimental) == 0
}

// capabilities translates a client capability object.
func capabilities(c *mcp.ClientCapabilities) shaping.Capabilities {
	return shaping.Capabilities{Extensions: c.Extensions, Experimental: c.Experimental, Elicitation: c.Elicitation != nil}
}

// sessionKey identifies a session for shaping's session cache: mcp-go
// makes several session values for one session (an ephemeral one per
// stateful HTTP request, one shared by every stdio server of a process),
// but its id and server stay the same, and the id is what the SDK
// unregisters.
type sessionKey struct {
	srv *server.MCPServer
	id  string
}

// keyOf returns the key of a session, or nil for a session without an id
// (stateless HTTP), of which nothing is kept.
func keyOf(srv *server.MCPServer, session server.ClientSession) any {
	if session == nil || session.SessionID() == "" {
		return nil
	}
	return sessionKey{srv: srv, id: session.SessionID()}
}

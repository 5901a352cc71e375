package mcpgo

import (
	"context"
	"maps"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/internal/clientcaps"
	"github.com/contentneg/contentneg/shaping"
)

// Options configures an [Adapter]; a nil *Options means the defaults.
// They are the options of every front end (contract section 9): see
// shaping.Options.
type Options = shaping.Options

// Adapter negotiates content for mcp-go servers. [Install] makes one; it
// is safe for concurrent use, and one Adapter may serve several servers
// ([Adapter.Install]).
type Adapter struct {
	shaper   *shaping.Shaper
	tool     toolPort
	resource resourcePort
	prompt   promptPort
}

// newAdapter returns an Adapter that serves no server yet.
func newAdapter(opts *Options) *Adapter {
	return &Adapter{shaper: shaping.New(opts)}
}

// Install makes an Adapter from opts and adds it to srv: the one call a
// server author needs.
func Install(srv *server.MCPServer, opts *Options) *Adapter {
	a := newAdapter(opts)
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
// handler middlewares. Through them every tools/call, resources/read and
// prompts/get of a client that declared the extension goes through package
// shaping (shaping.ServeTool and its kin): the profile is put in the
// handler's context, elicitations are kept away from a client that cannot
// answer them, and the result is rendered as the profile asks; with
// Options.Recover, a panicking handler is a tool error (an internal error
// for resources and prompts). Other clients' requests go to the handlers
// untouched. mcp-go runs handler middlewares in the order they were added,
// so install the adapter before any middleware that should see the
// negotiated results.
func (a *Adapter) Install(srv *server.MCPServer) {
	hooks := srv.GetHooks()
	if hooks == nil {
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(srv)
	}
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		// The SDK shares its extensions map with every result: copy it.
		res.Capabilities.Extensions = advertise(res.Capabilities.Extensions)
		if session := server.ClientSessionFromContext(ctx); session != nil {
			a.shaper.Initialize(keyOf(srv, session), session.SessionID(), capabilities(&req.Params.Capabilities))
		}
	})
	hooks.AddAfterDiscover(func(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
		res.Capabilities.Extensions = advertise(res.Capabilities.Extensions)
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
		a.shaper.EndSession(keyOf(srv, session), session.SessionID())
	})
	a.installArgument(srv, hooks)
	adopt(srv, a)
	server.WithToolHandlerMiddleware(a.toolMiddleware)(srv)
	server.WithResourceHandlerMiddleware(a.resourceMiddleware)(srv)
	server.WithPromptHandlerMiddleware(a.promptMiddleware)(srv)
}

// Register sets how the named tool's results are rendered as markdown and
// text, replacing the generic renderers for it.
func (a *Adapter) Register(tool string, t shaping.Tool) { a.shaper.Register(tool, t) }

// Shaper returns the SDK-neutral core the adapter translates for.
func (a *Adapter) Shaper() *shaping.Shaper { return a.shaper }

// facts translates what mcp-go knows of a request into shaping.Request:
// the request's own capabilities (the stateless era's, as mcp-go decoded
// them; a legacy-era request's from its _meta, where mcp-go leaves them),
// and the session's initialize capabilities and id. A session without an
// id is stateless HTTP's: mcp-go shares it between legacy clients, so its
// capabilities are no one's. The connection key is left to
// [port.SessionKey].
func facts(ctx context.Context, meta *mcp.Meta) shaping.Request {
	var r shaping.Request
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		r.Stateless, r.Meta, r.HasMeta = true, capabilities(info.ClientCapabilities), true
		return r
	}
	if meta != nil {
		if caps, ok := meta.AdditionalFields[mcp.MetaKeyClientCapabilities].(map[string]any); ok {
			r.Meta, r.HasMeta = clientcaps.Read(caps), true
		}
	}
	if session := server.ClientSessionFromContext(ctx); session != nil && session.SessionID() != "" {
		r.SessionID = session.SessionID()
		if s, ok := session.(server.SessionWithClientInfo); ok {
			caps := s.GetClientCapabilities()
			r.Session, r.HasSession = capabilities(&caps), true
		}
	}
	return r
}

// sessionKeyOf returns the connection key of the request ctx belongs to.
func sessionKeyOf(ctx context.Context) any {
	return keyOf(server.ServerFromContext(ctx), server.ClientSessionFromContext(ctx))
}

// capabilities translates a client capability object.
func capabilities(c *mcp.ClientCapabilities) shaping.Capabilities {
	if c == nil {
		return shaping.Capabilities{}
	}
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

// advertise returns a copy of a server's capability extensions with the
// extension added, {ID: {}} (contract section 1): the SDK shares its map
// with every result, so it is never changed.
func advertise(extensions map[string]any) map[string]any {
	out := make(map[string]any, len(extensions)+1)
	maps.Copy(out, extensions)
	out[shaping.ExtensionID] = map[string]any{}
	return out
}

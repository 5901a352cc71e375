package middleware

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
)

// client is what the middleware knows of the client behind a request: its
// profile (nil when it did not declare the extension) and whether its real
// capability object has elicitation.
type client struct {
	profile     *negotiation.Profile
	elicitation bool
}

// resolve finds the client's profile, in the order of the contract
// (section 1): the request's own _meta capabilities (stateless era, every
// request), the session's initialize capabilities (legacy era, parsed once
// per session), the profile store, and "not declared".
func (m *Middleware) resolve(req mcp.Request) client {
	meta := metaOf(req.GetParams())
	if _, stateless := meta[mcp.MetaKeyProtocolVersion]; stateless {
		// The contract forbids inferring a stateless client's capabilities
		// from its earlier requests: this request's are all there is.
		return m.fromMeta(req, meta)
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return client{}
	}
	if c, ok := m.sessions.load(ss); ok {
		return c
	}
	if params := ss.InitializeParams(); params != nil {
		c := m.fromCapabilities(params.Capabilities)
		m.sessions.save(ss, c)
		return c
	}
	if p, ok := m.sessions.fromStore(ss.ID()); ok {
		return client{profile: p}
	}
	return client{}
}

// fromMeta reads the capabilities of a stateless-era request. After
// transit they are a map[string]any, read directly (~40 ns, nothing
// allocated); any other shape goes through the SDK's own accessor.
func (m *Middleware) fromMeta(req mcp.Request, meta map[string]any) client {
	switch caps := meta[mcp.MetaKeyClientCapabilities].(type) {
	case nil:
		return client{}
	case map[string]any:
		extensions, _ := caps["extensions"].(map[string]any)
		experimental, _ := caps["experimental"].(map[string]any)
		return client{
			profile:     m.negotiator.Negotiate(extensions, experimental),
			elicitation: caps["elicitation"] != nil,
		}
	default:
		accessor, ok := req.(interface {
			ClientCapabilities() *mcp.ClientCapabilities
		})
		if !ok {
			return client{}
		}
		return m.fromCapabilities(accessor.ClientCapabilities())
	}
}

func (m *Middleware) fromCapabilities(caps *mcp.ClientCapabilities) client {
	if caps == nil {
		return client{profile: m.negotiator.Negotiate(nil, nil)}
	}
	return client{
		profile:     m.negotiator.Negotiate(caps.Extensions, caps.Experimental),
		elicitation: caps.Elicitation != nil,
	}
}

// initialize negotiates a legacy-era session once, from the initialize
// params (the session does not hold them until next has run), keeps the
// profile for the session and advertises the extension.
func (m *Middleware) initialize(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	r, ok := res.(*mcp.InitializeResult)
	if err != nil || !ok || r == nil {
		return res, err
	}
	r.Capabilities = advertise(r.Capabilities)
	if params, ok := req.GetParams().(*mcp.InitializeParams); ok && params != nil {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			m.sessions.save(ss, m.fromCapabilities(params.Capabilities))
		}
	}
	return res, err
}

// metaOf returns the _meta of params, or nil. The SDK hands typed nil
// pointers for requests sent without params (a legacy tools/list), on
// which GetMeta would panic.
func metaOf(params mcp.Params) map[string]any {
	if params == nil {
		return nil
	}
	if v := reflect.ValueOf(params); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return params.GetMeta()
}

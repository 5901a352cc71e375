// Package sdk translates what the go-sdk knows of a request into the plain
// facts package shaping decides on; the go-sdk front ends share it.
package sdk

import (
	"reflect"
	"runtime"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/clientcaps"
	"github.com/contentneg/contentneg/shaping"
)

// RequestFacts translates what the SDK knows of a request into
// shaping.Request: its own _meta capabilities (read directly when they are
// the map they are after transit, ~40 ns and nothing allocated; through the
// SDK's accessor otherwise), the session's initialize capabilities, its id
// and a weak key for the connection.
func RequestFacts(req mcp.Request) shaping.Request {
	var r shaping.Request
	m := MetaOf(req.GetParams())
	_, r.Stateless = m[mcp.MetaKeyProtocolVersion]
	switch caps := m[mcp.MetaKeyClientCapabilities].(type) {
	case nil:
	case map[string]any:
		r.Meta, r.HasMeta = clientcaps.Read(caps), true
	default:
		if a, ok := req.(interface {
			ClientCapabilities() *mcp.ClientCapabilities
		}); ok {
			r.Meta, r.HasMeta = Capabilities(a.ClientCapabilities()), true
		}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss == nil {
		return r
	}
	r.SessionID, r.SessionKey = ss.ID(), weak.Make(ss)
	if params := ss.InitializeParams(); params != nil && !r.HasMeta && !r.Stateless {
		r.Session, r.HasSession = Capabilities(params.Capabilities), true
	}
	return r
}

// Stateless reports whether req follows the stateless protocol.
func Stateless(req mcp.Request) bool {
	_, ok := MetaOf(req.GetParams())[mcp.MetaKeyProtocolVersion]
	return ok
}

// HasElicitation reports whether the client of req has the real
// elicitation capability: from the request's own _meta, else from the
// session's initialize params (legacy era).
func HasElicitation(req mcp.Request) bool {
	f := RequestFacts(req)
	switch {
	case f.HasMeta:
		return f.Meta.Elicitation
	case f.HasSession:
		return f.Session.Elicitation
	}
	return false
}

// KeepSession negotiates a session at initialize; the client of a session
// that declared the extension is forgotten when the SDK lets go of the
// session (a cleanup, not a goroutine per session).
func KeepSession(s *shaping.Shaper, ss *mcp.ServerSession, caps shaping.Capabilities) {
	key, id := weak.Make(ss), ss.ID()
	if _, kept := s.Initialize(key, id, caps); kept {
		runtime.AddCleanup(ss, func(key weak.Pointer[mcp.ServerSession]) { s.EndSession(key, id) }, key)
	}
}

// Capabilities translates a client capability object.
func Capabilities(caps *mcp.ClientCapabilities) shaping.Capabilities {
	if caps == nil {
		return shaping.Capabilities{}
	}
	return shaping.Capabilities{Extensions: caps.Extensions, Experimental: caps.Experimental, Elicitation: caps.Elicitation != nil}
}

// MetaOf returns the _meta of params, or nil. The SDK hands typed nil
// pointers for requests sent without params (a legacy tools/list), on
// which GetMeta would panic.
func MetaOf(params mcp.Params) map[string]any {
	if params == nil {
		return nil
	}
	if v := reflect.ValueOf(params); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return params.GetMeta()
}

// RequestName names what a request is about: the tool or prompt name, or
// the resource URI.
func RequestName(req mcp.Request) string {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if p != nil {
			return p.Name
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.Name
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.URI
		}
	}
	return ""
}

// Package sdk translates what the go-sdk knows of a request into the plain
// facts package shaping decides on; the go-sdk front ends share it.
package sdk

import (
	"reflect"
	"runtime"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/shaping"
)

// RequestFacts translates what the SDK knows of a request into
// shaping.Request: its own _meta capabilities (read directly when they are
// the map they are after transit, ~40 ns and nothing allocated; through the
// SDK's accessor otherwise), the session's initialize capabilities, its id
// and a weak key for the connection.
func RequestFacts(req mcp.Request) shaping.Request {
	var r shaping.Request
	meta := MetaOf(req.GetParams())
	_, r.Stateless = meta[mcp.MetaKeyProtocolVersion]
	switch caps := meta[mcp.MetaKeyClientCapabilities].(type) {
	case nil:
	case map[string]any:
		c := shaping.CapabilitiesFromMap(caps)
		r.Meta = &c
	default:
		if a, ok := req.(interface {
			ClientCapabilities() *mcp.ClientCapabilities
		}); ok {
			c := Capabilities(a.ClientCapabilities())
			r.Meta = &c
		}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss == nil {
		return r
	}
	r.SessionID, r.SessionKey = ss.ID(), weak.Make(ss)
	if params := ss.InitializeParams(); params != nil && r.Meta == nil && !r.Stateless {
		c := Capabilities(params.Capabilities)
		r.Session = &c
	}
	return r
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

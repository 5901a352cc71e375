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
// and a weak key for the connection. See [ReadFacts] for the same without
// an allocation.
func RequestFacts(req mcp.Request) shaping.Request {
	r, caps, _ := ReadFacts(req)
	return caps.Point(r)
}

// Caps holds the capabilities a request's facts point to, so that they
// can live in the caller's frame: see [ReadFacts].
type Caps struct {
	Meta, Session       shaping.Capabilities
	HasMeta, HasSession bool
}

// Point returns r with its Meta and Session pointing to c's
// capabilities. It is inlined, so that c and r stay in the caller's frame.
func (c *Caps) Point(r shaping.Request) shaping.Request {
	if c.HasMeta {
		r.Meta = &c.Meta
	}
	if c.HasSession {
		r.Session = &c.Session
	}
	return r
}

// ReadFacts is [RequestFacts] in values with no pointer between them, so
// that nothing is allocated; key is r.SessionKey again, to hand on to what
// keeps it (shaping.Shaper.Begin) without r and c escaping with it:
//
//	facts, caps, key := sdk.ReadFacts(req)
//	facts = caps.Point(facts)
func ReadFacts(req mcp.Request) (r shaping.Request, c Caps, key any) {
	meta := MetaOf(req.GetParams())
	_, r.Stateless = meta[mcp.MetaKeyProtocolVersion]
	switch caps := meta[mcp.MetaKeyClientCapabilities].(type) {
	case nil:
	case map[string]any:
		c.Meta, c.HasMeta = shaping.CapabilitiesFromMap(caps), true
	default:
		if a, ok := req.(interface {
			ClientCapabilities() *mcp.ClientCapabilities
		}); ok {
			c.Meta, c.HasMeta = Capabilities(a.ClientCapabilities()), true
		}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss == nil {
		return r, c, nil
	}
	key = weak.Make(ss)
	r.SessionID, r.SessionKey = ss.ID(), key
	if params := ss.InitializeParams(); params != nil && !c.HasMeta && !r.Stateless {
		c.Session, c.HasSession = Capabilities(params.Capabilities), true
	}
	return r, c, key
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

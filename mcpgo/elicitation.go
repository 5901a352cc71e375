package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/shaping"
)

// ErrCannotElicit is returned by [Elicit] for a client that did not declare
// the extension and has no elicitation capability.
var ErrCannotElicit = errors.New("the client does not support elicitation")

// MayElicit reports whether the handler whose context is ctx may put a
// question to its client: the client has the real elicitation capability,
// and did not declare "!interactive".
func MayElicit(ctx context.Context) bool {
	if closed, ok := shaping.GateClosed(ctx); ok {
		return !closed
	}
	return hasElicitation(ctx)
}

// Elicit asks the client of a tools/call, in either protocol era, and
// returns its answer, or the gate's refusal without contacting a client
// that cannot answer:
//
//	answer, ask, err := mcpgo.Elicit(ctx, req, "confirm", params)
//	if err != nil {
//		return nil, err
//	}
//	if ask != nil {
//		return ask, nil // stateless era: the client answers and calls again
//	}
//
// In the legacy era it sends elicitation/create and waits for the answer.
// In the stateless era it returns the answer when the client already gave
// it (the request's input responses, under id); otherwise ask, a result
// carrying the question as an input request, which the handler returns.
// For a client whose gate is closed the answer is always the refusal.
// Handlers should call it rather than MCPServer.RequestElicitation, which
// mcp-go gives no way to gate.
func Elicit(ctx context.Context, req mcp.CallToolRequest, id string, params mcp.ElicitationParams) (answer *mcp.ElicitationResult, ask *mcp.CallToolResult, err error) {
	if action, refused := shaping.Refuse(ctx, "Elicit"); refused {
		return refusal(action), nil, nil
	}
	if !hasElicitation(ctx) {
		return nil, nil, ErrCannotElicit
	}
	if answer := server.ElicitationResponse(req.Params.InputResponses, id); answer != nil {
		return answer, nil, nil
	}
	if server.IsModernRequest(ctx) {
		return nil, server.NewInputRequestBuilder("").Elicit(id, params).ToolResult(), nil
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil, nil, errors.New("mcpgo.Elicit: the context holds no server")
	}
	// A question never waits for ever (contract section 6): shaping.Send
	// bounds it by the adapter's question timeout, the session's end and
	// the adapter's Close, for every client.
	q := question{srv: srv, session: server.ClientSessionFromContext(ctx), params: params}
	if a := adapterOf(srv); a != nil {
		answer, err = shaping.Send(ctx, a.shaper, sendPort{}, q)
	} else {
		answer, err = shaping.Send(ctx, unadopted, sendPort{}, q)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("elicit %q: %w", id, err)
	}
	return answer, nil, nil
}

// unadopted bounds the questions of a server no adapter was installed on,
// with the defaults.
var unadopted = shaping.New(nil)

// question is one elicitation/create on its way to the client.
type question struct {
	srv     *server.MCPServer
	session server.ClientSession
	params  mcp.ElicitationParams
}

// sendPort is mcp-go's side of shaping.Send.
type sendPort struct{}

func (sendPort) Session(q question) (any, string) {
	if q.session == nil {
		return nil, ""
	}
	return keyOf(q.srv, q.session), q.session.SessionID()
}

func (sendPort) Send(ctx context.Context, q question) (*mcp.ElicitationResult, error) {
	return q.srv.RequestElicitation(ctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  q.params,
	})
}

func (sendPort) Answer(action string) *mcp.ElicitationResult { return refusal(action) }

// refusal is the elicitation answer with action.
func refusal(action string) *mcp.ElicitationResult {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseAction(action)}}
}

// adapters maps each server to the adapter installed on it, so that
// [Elicit], a function of the handler's context alone, finds the adapter's
// options (the question timeout) for every client, declared or not,
// without a context value of its own per call.
var adapters sync.Map // weak.Pointer[server.MCPServer] -> *Adapter

// adopt records that a serves srv; the record goes with srv.
func adopt(srv *server.MCPServer, a *Adapter) {
	key := weak.Make(srv)
	adapters.Store(key, a)
	runtime.AddCleanup(srv, func(key weak.Pointer[server.MCPServer]) { adapters.Delete(key) }, key)
}

// adapterOf returns the adapter installed on srv, or nil.
func adapterOf(srv *server.MCPServer) *Adapter {
	a, _ := adapters.Load(weak.Make(srv))
	adapter, _ := a.(*Adapter)
	return adapter
}

// hasElicitation reports whether the client of the request has the real
// elicitation capability: from the request's own capabilities (stateless
// era), else the session's initialize capabilities. Stateless HTTP has no
// session of a legacy client's own (its session has no id), so such a
// client is never asked: a request to it would hang.
func hasElicitation(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.ClientCapabilities != nil && info.ClientCapabilities.Elicitation != nil
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok && s.SessionID() != "" {
		return s.GetClientCapabilities().Elicitation != nil
	}
	return false
}

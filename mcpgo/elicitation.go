package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/shaping"
)

// asked describes a result's elicitation input requests for shaping.Gate.
func asked(needsInput bool, r mcp.MultiRoundTripResult) shaping.Asked {
	a := shaping.Asked{State: r.RequestState}
	if !needsInput {
		return a
	}
	for id, in := range r.InputRequests {
		if in.Method == mcp.MethodElicitationCreate {
			a.Elicitations = append(a.Elicitations, id)
		}
	}
	return a
}

// refusal is the gate's answer to one elicitation.
func refusal(call *shaping.Call) mcp.InputResponse {
	return mcp.NewElicitationInputResponse(mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseAction(call.Refusal()),
	}})
}

// answered returns the request's input responses with the refusal laid
// over the ids given, and the request state.
func answered(call *shaping.Call, p mcp.MultiRoundTripParams, ids []string, state string) mcp.MultiRoundTripParams {
	out := maps.Clone(p.InputResponses)
	if out == nil {
		out = make(mcp.InputResponses, len(ids))
	}
	for _, id := range ids {
		out[id] = refusal(call)
	}
	return mcp.MultiRoundTripParams{InputResponses: out, RequestState: state}
}

// overrideAnswers replaces the elicitation answers a request carries with
// the refusal when shaping says they are forged. An input response is an
// elicitation answer when it decodes as one with an action.
func overrideAnswers(call *shaping.Call, p mcp.MultiRoundTripParams) mcp.MultiRoundTripParams {
	if !call.Closed || len(p.InputResponses) == 0 {
		return p
	}
	var ids []string
	for id, r := range p.InputResponses {
		if r.Elicitation == nil && r.DecodeFor(mcp.MethodElicitationCreate) != nil {
			continue
		}
		if r.Elicitation != nil && r.Elicitation.Action != "" {
			ids = append(ids, id)
		}
	}
	if forged := call.Forged(ids); forged != nil {
		return answered(call, p, forged, p.RequestState)
	}
	return p
}

// ErrCannotElicit is returned by [Elicit] for a client that did not declare
// the extension and has no elicitation capability.
var ErrCannotElicit = errors.New("the client does not support elicitation")

// MayElicit reports whether the handler whose context is ctx may put a
// question to its client: the client has the real elicitation capability,
// and did not declare "!interactive".
func MayElicit(ctx context.Context) bool {
	if c, ok := shaping.CallFrom(ctx); ok {
		return !c.Closed
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
	if c, ok := shaping.CallFrom(ctx); ok && c.Closed {
		c.Gated("Elicit")
		return refusal(c).Elicitation, nil, nil
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
	// A question never waits for ever (contract section 6): the call's
	// question ends with its session, the adapter's Close, or the timeout;
	// a client that did not declare the extension has no call, and gets the
	// default timeout.
	qctx, done := context.WithTimeoutCause(ctx, shaping.DefaultQuestionTimeout, shaping.ErrQuestionTimeout)
	if c, ok := shaping.CallFrom(ctx); ok {
		done()
		qctx, done = c.Question(ctx)
	}
	defer done()
	answer, err = srv.RequestElicitation(qctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  params,
	})
	if err != nil && shaping.Unanswered(qctx) != nil {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("elicit %q: %w", id, err)
	}
	return answer, nil, nil
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

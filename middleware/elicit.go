package middleware

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrCannotElicit is returned by [Elicit] for a client that did not declare
// the extension and has no elicitation capability (a client that declared
// the extension gets the gate's refusal instead).
var ErrCannotElicit = errors.New("the client does not support elicitation")

// MayElicit reports whether the handler of req may put a question to its
// client: the client has the real elicitation capability, and did not
// declare "!interactive". Handlers use it to choose between asking and
// answering with what they have.
func MayElicit(ctx context.Context, req mcp.Request) bool {
	if c, ok := callFrom(ctx); ok {
		return !c.closed
	}
	return hasElicitation(req)
}

// Elicit asks the client of a tools/call, in either protocol era, and
// returns its answer, or the gate's refusal without contacting a client
// that cannot answer. It is the one call a handler needs:
//
//	answer, ask, err := middleware.Elicit(ctx, req, "confirm", params)
//	if err != nil {
//		return nil, out, err
//	}
//	if ask != nil {
//		return ask, out, nil // stateless era: the client answers and calls again
//	}
//	if answer.Action != "accept" { ... }
//
// In the legacy era it sends elicitation/create and waits for the answer.
// In the stateless era it returns the answer when the client already gave
// it (req's input responses, under id); otherwise it returns ask, a result
// carrying the question as an input request, which the handler returns as
// is (with the zero output). For a client whose gate is closed the answer
// is always the refusal, even if the client supplied an answer of its own.
func Elicit(ctx context.Context, req *mcp.CallToolRequest, id string, params *mcp.ElicitParams) (answer *mcp.ElicitResult, ask *mcp.CallToolResult, err error) {
	if req == nil || req.Params == nil || params == nil {
		return nil, nil, errors.New("middleware.Elicit: nil request or params")
	}
	if c, ok := callFrom(ctx); ok && c.closed {
		c.logGated("Elicit")
		return &mcp.ElicitResult{Action: c.m.refusal.String()}, nil, nil
	}
	if !hasElicitation(req) {
		return nil, nil, ErrCannotElicit
	}
	if r, ok := req.Params.InputResponses[id]; ok {
		answer, ok := r.(*mcp.ElicitResult)
		if !ok || answer == nil {
			return nil, nil, fmt.Errorf("middleware.Elicit: the input response %q is a %T, not an elicitation result", id, r)
		}
		return answer, nil, nil
	}
	if isStateless(req) {
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{id: params}}, nil
	}
	if req.Session == nil {
		return nil, nil, errors.New("middleware.Elicit: the request has no session")
	}
	answer, err = req.Session.Elicit(ctx, params)
	if err != nil {
		return nil, nil, fmt.Errorf("elicit %q: %w", id, err)
	}
	return answer, nil, nil
}

// isStateless reports whether req follows the stateless protocol.
func isStateless(req mcp.Request) bool {
	_, ok := metaOf(req.GetParams())[mcp.MetaKeyProtocolVersion]
	return ok
}

// hasElicitation reports whether the client of req has the real elicitation
// capability: from the request's own _meta in the stateless era, from the
// session's initialize params in the legacy era.
func hasElicitation(req mcp.Request) bool {
	meta := metaOf(req.GetParams())
	if _, stateless := meta[mcp.MetaKeyProtocolVersion]; stateless {
		switch caps := meta[mcp.MetaKeyClientCapabilities].(type) {
		case map[string]any:
			return caps["elicitation"] != nil
		case nil:
			return false
		}
		if accessor, ok := req.(interface {
			ClientCapabilities() *mcp.ClientCapabilities
		}); ok {
			caps := accessor.ClientCapabilities()
			return caps != nil && caps.Elicitation != nil
		}
		return false
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	params := ss.InitializeParams()
	return params != nil && params.Capabilities != nil && params.Capabilities.Elicitation != nil
}

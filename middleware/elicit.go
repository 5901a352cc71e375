package middleware

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/shaping"
)

// ErrCannotElicit is returned by [Elicit] for a client that did not declare
// the extension and has no elicitation capability (a client that declared
// the extension gets the gate's refusal instead).
var ErrCannotElicit = errors.New("the client does not support elicitation")

// MayElicit reports whether the handler of req may put a question to its
// client: the client has the real elicitation capability, and did not
// declare "!interactive". Handlers use it to choose between asking and
// answering with what they have. It works with the Middleware that is
// installed on the server of req.
func MayElicit(ctx context.Context, req mcp.Request) bool {
	if c, ok := shaping.CallFrom(ctx); ok {
		return !c.Closed
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
	if c, ok := shaping.CallFrom(ctx); ok && c.Closed {
		c.Gated("Elicit")
		return &mcp.ElicitResult{Action: c.Refusal()}, nil, nil
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
	if requestFacts(req).Stateless {
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

// hasElicitation reports whether the client of req has the real elicitation
// capability: from the request's own _meta, else from the session's
// initialize params (legacy era).
func hasElicitation(req mcp.Request) bool {
	f := requestFacts(req)
	switch {
	case f.Meta != nil:
		return f.Meta.Elicitation
	case f.Session != nil:
		return f.Session.Elicitation
	}
	return false
}

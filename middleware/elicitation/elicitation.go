// Package elicitation is the elicitation gate of the content-negotiation
// contract (section 6) on a go-sdk server, in both protocol eras: no
// question reaches a client that declared the extension and cannot answer
// it, and handlers ask with one helper, [Elicit], whatever the era. Package
// middleware installs the gate; its decisions are package shaping's.
package elicitation

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/shaping"
)

// Receiving is the stateless era's gate, a receiving middleware that runs
// inside the content-negotiation middleware (which puts the shaping.Call in
// the context): for a call whose gate is closed, answers the client
// supplied to elicitations are replaced by the refusal, and elicitation
// inputRequests are answered with it before they reach the client.
func Receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := shaping.CallFrom(ctx)
		if !ok || !call.Closed || method != "tools/call" && method != "prompts/get" && method != "resources/read" {
			return next(ctx, method, req)
		}
		return gateInputs(ctx, method, overrideAnswers(req, call, call.Refusal()), next, call, call.Refusal())
	}
}

// Sending returns the sending middleware of s: the elicitation gate of the
// legacy era. An elicitation/create request meant for a client
// that declared the extension and cannot answer ("!interactive", or no
// elicitation capability) is answered locally with the refusal, and never
// sent. Everything else goes to next untouched.
//
// The SDK checks the client's elicitation capability before sending
// middleware runs, so a client without the capability gets the SDK's error
// from ServerSession.Elicit; handlers that use [Elicit] get the refusal in
// both cases.
func Sending(s *shaping.Shaper) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "elicitation/create" {
				return next(ctx, method, req)
			}
			var key any
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
				key = weak.Make(ss)
			}
			if !s.GateSending(ctx, key) {
				return next(ctx, method, req)
			}
			return &mcp.ElicitResult{Action: s.Refusal()}, nil
		}
	}
}

// gateInputs runs next behind shaping.Gate, the stateless era's gate:
// elicitation inputRequests of a client that cannot answer are answered
// with the refusal, and next is called again with the same request state.
func gateInputs(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler, call *shaping.Call, refusal string) (mcp.Result, error) {
	res, err := shaping.Gate(call, func(refused []string, state string) (mcp.Result, error) {
		if refused != nil {
			req = retryWith(req, answers(refused, refusal), state)
		}
		return bridged(next(ctx, method, req))
	}, asked)
	var still *shaping.StillAskingError
	switch {
	case !errors.As(err, &still):
		return res, err
	case method == "tools/call":
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: still.Error()}}}, nil
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: still.Error()}
	}
}

// bridgeRefused matches the error of the SDK's legacy-era bridge when the
// inputRequests it fulfils ask a client without the elicitation capability:
// `multi-round-trip: fulfilling input request "ID": client does not support
// elicitation`. The bridge runs inside every receiving middleware, so the
// gate never sees those inputRequests; it sees this error, names the id,
// and answers it with the refusal like any other (contract section 6: a
// declared client without the capability gets a local decline, never an
// error). The request state of the bridged result is not in the error: a
// handler is called again without it.
var bridgeRefused = regexp.MustCompile(`^multi-round-trip: fulfilling input request ("(?:[^"\\]|\\.)*"): client does not support elicitation$`)

// bridged turns the bridge's refusal into the result that asked, for the
// gate to answer; any other outcome is returned as it is.
func bridged(res mcp.Result, err error) (mcp.Result, error) {
	if err == nil {
		return res, nil
	}
	m := bridgeRefused.FindStringSubmatch(err.Error())
	if m == nil {
		return res, err
	}
	id, uerr := strconv.Unquote(m[1])
	if uerr != nil {
		return res, err
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{id: &mcp.ElicitParams{}}}, nil
}

// asked describes a result's elicitation input requests for shaping.Gate.
func asked(res mcp.Result) shaping.Asked {
	var inputs mcp.InputRequestMap
	var a shaping.Asked
	switch r := res.(type) {
	case *mcp.CallToolResult:
		if r != nil {
			inputs, a.State = r.InputRequests, r.RequestState
		}
	case *mcp.GetPromptResult:
		if r != nil {
			inputs, a.State = r.InputRequests, r.RequestState
		}
	case *mcp.ReadResourceResult:
		if r != nil {
			inputs, a.State = r.InputRequests, r.RequestState
		}
	}
	for id, in := range inputs {
		if _, isElicit := in.(*mcp.ElicitParams); isElicit {
			a.Elicitations = append(a.Elicitations, id)
		}
	}
	return a
}

// overrideAnswers replaces the elicitation answers a request carries with
// the refusal when shaping says they are forged.
func overrideAnswers(req mcp.Request, call *shaping.Call, refusal string) mcp.Request {
	responses, state := inputResponsesOf(req)
	var ids []string
	for id, r := range responses {
		if _, isElicit := r.(*mcp.ElicitResult); isElicit {
			ids = append(ids, id)
		}
	}
	if forged := call.Forged(ids); forged != nil {
		return retryWith(req, answers(forged, refusal), state)
	}
	return req
}

func answers(ids []string, action string) mcp.InputResponseMap {
	out := make(mcp.InputResponseMap, len(ids))
	for _, id := range ids {
		out[id] = &mcp.ElicitResult{Action: action}
	}
	return out
}

func inputResponsesOf(req mcp.Request) (mcp.InputResponseMap, string) {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if p != nil {
			return p.InputResponses, p.RequestState
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.InputResponses, p.RequestState
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.InputResponses, p.RequestState
		}
	}
	return nil, ""
}

// retryWith returns a copy of req whose input responses are the request's
// own with answers laid over them, and whose request state is state. req
// itself is not changed; a request of another kind is returned as it is.
func retryWith(req mcp.Request, answers mcp.InputResponseMap, state string) mcp.Request {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	merge := func(own mcp.InputResponseMap) mcp.InputResponseMap {
		out := maps.Clone(own)
		if out == nil {
			out = make(mcp.InputResponseMap, len(answers))
		}
		maps.Copy(out, answers)
		return out
	}
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.CallToolRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}
	case *mcp.GetPromptParams:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.GetPromptRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}
	case *mcp.ReadResourceParams:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.ReadResourceRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}
	}
	return req
}

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
	return sdk.HasElicitation(req)
}

// Elicit asks the client of a tools/call, in either protocol era, and
// returns its answer, or the gate's refusal without contacting a client
// that cannot answer. It is the one call a handler needs:
//
//	answer, ask, err := elicitation.Elicit(ctx, req, "confirm", params)
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
		return nil, nil, errors.New("elicitation.Elicit: nil request or params")
	}
	if c, ok := shaping.CallFrom(ctx); ok && c.Closed {
		c.Gated("Elicit")
		return &mcp.ElicitResult{Action: c.Refusal()}, nil, nil
	}
	if !sdk.HasElicitation(req) {
		return nil, nil, ErrCannotElicit
	}
	if r, ok := req.Params.InputResponses[id]; ok {
		answer, ok := r.(*mcp.ElicitResult)
		if !ok || answer == nil {
			return nil, nil, fmt.Errorf("elicitation.Elicit: the input response %q is a %T, not an elicitation result", id, r)
		}
		return answer, nil, nil
	}
	if sdk.Stateless(req) {
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{id: params}}, nil
	}
	if req.Session == nil {
		return nil, nil, errors.New("elicitation.Elicit: the request has no session")
	}
	answer, err = req.Session.Elicit(ctx, params)
	if err != nil {
		return nil, nil, fmt.Errorf("elicit %q: %w", id, err)
	}
	return answer, nil, nil
}

package middleware

import (
	"context"
	"errors"
	"maps"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/shaping"
)

var errNoList = errors.New("no list result")

// Sending is the sending middleware (an mcp.Middleware): the elicitation
// gate of the legacy era. An elicitation/create request meant for a client
// that declared the extension and cannot answer ("!interactive", or no
// elicitation capability) is answered locally with the refusal, and never
// sent. Everything else goes to next untouched.
//
// The SDK checks the client's elicitation capability before sending
// middleware runs, so a client without the capability gets the SDK's error
// from ServerSession.Elicit; handlers that use [Elicit] get the refusal in
// both cases.
func (m *Middleware) Sending(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "elicitation/create" {
			return next(ctx, method, req)
		}
		var key any
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			key = weak.Make(ss)
		}
		if !m.shaper.GateSending(ctx, key) {
			return next(ctx, method, req)
		}
		return &mcp.ElicitResult{Action: m.shaper.Refusal()}, nil
	}
}

// gateInputs runs next behind shaping.Gate, the stateless era's gate:
// elicitation inputRequests of a client that cannot answer are answered
// with the refusal, and next is called again with the same request state.
func gateInputs(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler, call *shaping.Call, refusal string) (mcp.Result, error) {
	res, err := shaping.Gate(call, func(refused []string, state string) (mcp.Result, error) {
		if refused == nil {
			return next(ctx, method, req)
		}
		return next(ctx, method, retryWith(req, answers(refused, refusal), state))
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

package middleware

import (
	"context"
	"fmt"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxGateRounds bounds how often a handler is called again with the gate's
// answers before the middleware gives up on it.
const maxGateRounds = 8

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
		c := m.sendingCall(ctx, req)
		if c == nil || !c.closed {
			return next(ctx, method, req)
		}
		c.logGated(method)
		return &mcp.ElicitResult{Action: m.refusal.String()}, nil
	}
}

// sendingCall finds the call an outgoing request belongs to: from the
// context when the handler passed its own on, else from the session.
func (m *Middleware) sendingCall(ctx context.Context, req mcp.Request) *call {
	if c, ok := callFrom(ctx); ok && c.m == m {
		return c
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil
	}
	c, ok := m.sessions.load(ss)
	if !ok || !c.profile.Declared() {
		return nil
	}
	return m.newCall(c, "elicitation/create", req)
}

// gateInputs is the elicitation gate of the stateless era, where handlers
// ask by returning inputRequests. It calls invoke with req; while the gate
// is closed and the result asks for elicitations, it calls invoke again
// with the refusal as their answers and the same request state: no
// elicitation reaches the client. Other input requests (sampling, roots) go
// to the client as usual.
func (m *Middleware) gateInputs(method string, req mcp.Request, invoke func(mcp.Request) (mcp.Result, error), c *call) (mcp.Result, error) {
	res, err := invoke(req)
	if !c.closed {
		return res, err
	}
	for round := 0; err == nil; round++ {
		inputs, state := inputRequestsOf(res)
		answers := m.refuse(inputs, c, "inputRequests")
		if len(answers) == 0 {
			return res, nil
		}
		if round == maxGateRounds {
			return stillAsking(method, c)
		}
		if req, err = retryWith(req, answers, state); err != nil {
			return nil, err
		}
		res, err = invoke(req)
	}
	return res, err
}

// refuse returns the refusal for every elicitation among inputs, logged.
func (m *Middleware) refuse(inputs mcp.InputRequestMap, c *call, path string) mcp.InputResponseMap {
	var answers mcp.InputResponseMap
	for id, in := range inputs {
		if _, isElicit := in.(*mcp.ElicitParams); !isElicit {
			continue
		}
		if answers == nil {
			answers = make(mcp.InputResponseMap)
		}
		answers[id] = &mcp.ElicitResult{Action: m.refusal.String()}
		c.logGated(path)
	}
	return answers
}

// overrideAnswers replaces, in a request from a client whose gate is
// closed, every elicitation answer the client supplied itself with the
// refusal: the client was never asked, so "accept" from it must not pass a
// confirmation.
func (m *Middleware) overrideAnswers(req mcp.Request, c *call) (mcp.Request, error) {
	responses := inputResponsesOf(req)
	var answers mcp.InputResponseMap
	for id, r := range responses {
		if _, isElicit := r.(*mcp.ElicitResult); isElicit {
			if answers == nil {
				answers = make(mcp.InputResponseMap)
			}
			answers[id] = &mcp.ElicitResult{Action: m.refusal.String()}
			c.logGated("inputResponses")
		}
	}
	if answers == nil {
		return req, nil
	}
	return retryWith(req, answers, requestStateOf(req))
}

func inputRequestsOf(res mcp.Result) (mcp.InputRequestMap, string) {
	switch r := res.(type) {
	case *mcp.CallToolResult:
		if r != nil {
			return r.InputRequests, r.RequestState
		}
	case *mcp.GetPromptResult:
		if r != nil {
			return r.InputRequests, r.RequestState
		}
	case *mcp.ReadResourceResult:
		if r != nil {
			return r.InputRequests, r.RequestState
		}
	}
	return nil, ""
}

func inputResponsesOf(req mcp.Request) mcp.InputResponseMap {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if p != nil {
			return p.InputResponses
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.InputResponses
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.InputResponses
		}
	}
	return nil
}

func requestStateOf(req mcp.Request) string {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if p != nil {
			return p.RequestState
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.RequestState
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.RequestState
		}
	}
	return ""
}

// retryWith returns a copy of req whose input responses are the request's
// own with answers laid over them, and whose request state is state. req
// itself is not changed.
func retryWith(req mcp.Request, answers mcp.InputResponseMap, state string) (mcp.Request, error) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	merge := func(own mcp.InputResponseMap) mcp.InputResponseMap {
		out := make(mcp.InputResponseMap, len(own)+len(answers))
		maps.Copy(out, own)
		maps.Copy(out, answers)
		return out
	}
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.CallToolRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}, nil
	case *mcp.GetPromptParams:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.GetPromptRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}, nil
	case *mcp.ReadResourceParams:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.ReadResourceRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}, nil
	default:
		return nil, fmt.Errorf("elicitation gate: cannot answer input requests of %T", p)
	}
}

// stillAsking is the answer when a handler keeps asking for elicitations
// after the gate answered them: for a tool, a tool error the model can read;
// otherwise an internal error.
func stillAsking(method string, c *call) (mcp.Result, error) {
	msg := fmt.Sprintf("%q needs an answer to a question this client cannot be asked (%s)", c.name, c.reason)
	if method == "tools/call" {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

package middleware

// The elicitation gate of the content-negotiation contract (section 6) on a
// go-sdk server, in both protocol eras: no question reaches a client that
// declared the extension and cannot answer it, and handlers ask with one
// helper, [Elicit], whatever the era. [Middleware.Install] installs the
// gate; its decisions are package shaping's.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/shaping"
)

// sending returns the sending middleware of s: the elicitation gate of the
// legacy era. An elicitation/create request meant for a client
// that declared the extension and cannot answer ("!interactive", or no
// elicitation capability) is answered locally with the refusal, and never
// sent. Every other elicitation/create waits for its answer through
// shaping.Send: when the question timeout passes, the session ends or the
// shaper is closed, the handler gets "cancel".
// Everything else goes to next untouched.
//
// The SDK checks the client's elicitation capability before sending
// middleware runs, so a client without the capability gets the SDK's error
// from ServerSession.Elicit; handlers that use [Elicit] get the refusal in
// both cases.
func sending(s *shaping.Shaper) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if sdk.KindOf(method) != sdk.Question {
				return next(ctx, method, req)
			}
			return shaping.Send(ctx, s, sendPort{}, sent{next: next, req: req})
		}
	}
}

// sent is one elicitation/create on its way to the client.
type sent struct {
	next mcp.MethodHandler
	req  mcp.Request
}

// sendPort is the go-sdk's side of shaping.Send.
type sendPort struct{}

func (sendPort) Session(x sent) (any, string) {
	if ss, ok := x.req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		return weak.Make(ss), ss.ID()
	}
	return nil, ""
}

func (sendPort) Send(ctx context.Context, x sent) (mcp.Result, error) {
	if post := sdk.PostFrom(ctx); post != nil {
		defer post.Ask()()
	}
	return x.next(ctx, "elicitation/create", x.req)
}

func (sendPort) Answer(action string) mcp.Result { return &mcp.ElicitResult{Action: action} }

// sessionHeader is the streamable HTTP transport's session id header.
const sessionHeader = "Mcp-Session-Id"

// handler wraps a streamable HTTP handler (the SDK's) for s: a DELETE of a
// session first ends the session's open questions, so that the SDK's close,
// which waits for the requests under way, does not wait on the client; and
// when the client of a POST goes away while a question sent for one of the
// POST's requests waits for its answer, the session's open questions end
// too: without an event store the stream is gone, and the answer cannot
// come. The handlers waiting on them get "cancel". Which questions belong
// to a POST is known from the requests themselves, not from the stream's
// bytes (the POST's headers, which the SDK hands the request's handlers;
// see [sending]). Everything else goes to h as it is.
func handler(s *shaping.Shaper, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionHeader)
		switch {
		case id == "":
		case r.Method == http.MethodDelete:
			s.EndQuestions(nil, id)
		case r.Method == http.MethodPost:
			post, end := sdk.BeginPost(r.Header)
			defer end()
			defer func() {
				// A client that closes its connection once it has the
				// response is not a client that went away mid-question.
				if r.Context().Err() != nil && post.Asking() {
					s.EndQuestions(nil, id)
				}
			}()
		}
		h.ServeHTTP(w, r)
	})
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
	if closed, ok := shaping.GateClosed(ctx); ok {
		return !closed
	}
	return sdk.HasElicitation(req)
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
	if action, refused := shaping.Refuse(ctx, "Elicit"); refused {
		return &mcp.ElicitResult{Action: action}, nil, nil
	}
	if !sdk.HasElicitation(req) {
		return nil, nil, ErrCannotElicit
	}
	if r, ok := req.Params.InputResponses[id]; ok {
		answer, ok := r.(*mcp.ElicitResult)
		if !ok || answer == nil {
			return nil, nil, fmt.Errorf("middleware.Elicit: the input response %q is a %T, not an elicitation result", id, r)
		}
		return answer, nil, nil
	}
	if sdk.Stateless(req) {
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

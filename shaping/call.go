package shaping

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/ctxkey"
	"github.com/contentneg/contentneg/internal/hints"
	"github.com/contentneg/contentneg/negotiation"
)

// Call is the call under way that a handler's context carries ([CallFrom]):
// one request of a client that declared the extension. A handler's helper
// (an SDK's Elicit) asks it whether the elicitation gate is closed for the
// client ([Call.Closed]) and, if so, answers with the gate's refusal
// ([Call.Refusal]) and logs it ([Call.Gated]). [ServeTool], [ServeResource]
// and [ServePrompt] make it.
type Call struct {
	// Closed says the elicitation gate is closed: no question reaches the
	// client, and the gate answers with [Call.Refusal] (contract section 6).
	Closed bool

	s     *Shaper
	key   any
	ctx   callContext     // the context of [Call.withContext], in the call's own allocation
	hints hints.Collector // the handler's hints, when the profile wants them
	// argument says the format came from the call's format argument.
	argument bool
	client   client
	// method is the request's method; name the tool or prompt name, or the
	// resource URI.
	method, name string
	// reason says why the gate is closed.
	reason string
}

// begin starts a call of client c on the connection key (nil for none).
func (s *Shaper) begin(c client, key any, method, name string) *Call {
	closed, reason := c.Profile.ElicitationGate(c.Elicitation)
	s.sessions.begin(key, name)
	return &Call{s: s, key: key, client: c, method: method, name: name, Closed: closed, reason: reason}
}

// end ends the call.
func (c *Call) end() { c.s.sessions.done(c.key, c.name) }

// callContext is ctx carrying the call under the carrier key: one
// value gives both the call ([CallFrom]) and its profile
// (negotiation.FromContext), and it costs no allocation of its own.
type callContext struct {
	context.Context
	call *Call
}

func (c *callContext) Value(key any) any {
	if key == (ctxkey.Carrier{}) {
		return (*carrier)(c.call)
	}
	return c.Context.Value(key)
}

// carrier is the call as the context value that answers negotiation's
// questions (negotiation.FromContext, negotiation.AddHints). It is a type
// of its own so that the methods negotiation asks for are not part of
// [Call]'s API.
type carrier Call

// CarriedProfile returns the call's profile, for negotiation.FromContext.
func (c *carrier) CarriedProfile() *negotiation.Profile { return c.client.Profile }

// CarriedHints returns the call's collector of hints when its profile
// wants hints, else nil, for negotiation.AddHints.
func (c *carrier) CarriedHints() *hints.Collector {
	if c.client.Profile.WantsHints() {
		return &c.hints
	}
	return nil
}

// withContext returns ctx carrying the call, its client's profile (for
// negotiation.FromContext) and, when the profile wants hints, a collector
// for them (for negotiation.AddHints), in one context value that costs no
// allocation. Call it once per call.
func (c *Call) withContext(ctx context.Context) context.Context {
	c.ctx = callContext{Context: ctx, call: c}
	return &c.ctx
}

// handlerHints returns the hints the handler attached in the call's
// context.
func (c *Call) handlerHints() []string { return (*carrier)(c).CarriedHints().All() }

// CallFrom returns the call ctx carries: the handlers' helpers use it to
// learn whether the gate is closed for their client.
func CallFrom(ctx context.Context) (*Call, bool) {
	c, ok := ctx.Value(ctxkey.Carrier{}).(*carrier)
	return (*Call)(c), ok && c != nil
}

// Refusal returns the elicitation action the call's gate answers with.
func (c *Call) Refusal() string { return c.s.Refusal() }

// Refusal returns the elicitation action the gate answers with: "decline"
// or "cancel".
func (s *Shaper) Refusal() string { return s.refusal.String() }

// Gated logs one gated elicitation at debug level, with the tool name and
// the reason (contract section 6).
func (c *Call) Gated(path string) { c.s.logGated(c.name, c.method, c.reason, path) }

func (s *Shaper) logGated(name, method, reason, path string) {
	if ce := s.log.Check(zap.DebugLevel, "elicitation gated"); ce != nil {
		ce.Write(
			zap.String("tool", name),
			zap.String("method", method),
			zap.String("reason", reason),
			zap.String("path", path),
			zap.Stringer("answer", s.refusal),
		)
	}
}

// GateSending decides for an elicitation request about to be sent to the
// client (the legacy era's elicitation/create): true means it must not be
// sent, and [Shaper.Refusal] is its answer. The call comes from ctx when
// the handler passed its own on; otherwise from the connection key, and
// the log names the calls the connection has under way.
func (s *Shaper) gateSending(ctx context.Context, key any) bool {
	if c, ok := CallFrom(ctx); ok && c.s == s {
		if c.Closed {
			c.Gated("elicitation/create")
		}
		return c.Closed
	}
	c, ok := s.sessions.load(key)
	if !ok {
		return false
	}
	closed, reason := c.Profile.ElicitationGate(c.Elicitation)
	if closed {
		s.logGated(s.sessions.underway(key), "elicitation/create", reason, "elicitation/create")
	}
	return closed
}

// maxGateRounds bounds how often a handler is called again with the gate's
// answers before the gate gives up on it.
const maxGateRounds = 8

// Asked describes a result for the stateless era's gate: the ids of the
// elicitation input requests it carries, and its request state.
type Asked struct {
	Elicitations []string
	State        string
}

// stillAskingError is what gate returns when a handler keeps asking for
// elicitations after the gate answered them.
type stillAskingError struct {
	name, reason string
}

func (e *stillAskingError) Error() string {
	return fmt.Sprintf("%q needs an answer to a question this client cannot be asked (%s)", e.name, e.reason)
}

// Gate runs a handler behind the elicitation gate of the stateless era,
// where handlers ask by returning inputRequests (contract section 6).
// invoke runs the handler once: refused is nil the first time, then the ids
// of the elicitations to answer with the refusal, and state the request
// state to pass back. While the gate is closed and the result asks for
// elicitations, the handler is called again with the refusal as their
// answers: no elicitation reaches the client. Other input requests
// (sampling, roots) go to the client as usual. After eight rounds the gate
// gives up with a *stillAskingError.
func gate[R any](c *Call, invoke func(refused []string, state string) (R, error), asked func(R) Asked) (R, error) {
	res, err := invoke(nil, "")
	if !c.Closed {
		return res, err
	}
	for round := 0; err == nil; round++ {
		a := asked(res)
		if len(a.Elicitations) == 0 {
			return res, nil
		}
		for range a.Elicitations {
			c.Gated("inputRequests")
		}
		if round == maxGateRounds {
			var zero R
			return zero, &stillAskingError{name: c.name, reason: c.reason}
		}
		res, err = invoke(a.Elicitations, a.State)
	}
	return res, err
}

// Forged returns, of the ids of the elicitation answers a request carries,
// those the gate must replace with the refusal: all of them when the gate
// is closed (the client was never asked, so an "accept" from it must not
// pass a confirmation), none otherwise.
func (c *Call) forged(ids []string) []string {
	if !c.Closed || len(ids) == 0 {
		return nil
	}
	for range ids {
		c.Gated("inputResponses")
	}
	return ids
}

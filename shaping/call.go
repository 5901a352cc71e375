package shaping

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/ctxkey"
	"github.com/contentneg/contentneg/internal/hints"
	"github.com/contentneg/contentneg/negotiation"
)

// call is the call under way that a handler's context carries
// (callFrom): one request of a client that declared the extension.
// [ServeTool], [ServeResource] and [ServePrompt] make it; a handler's
// helper (an SDK's Elicit) asks it through [GateClosed] and [Refuse].
type call struct {
	// closed says the elicitation gate is closed: no question reaches the
	// client, and the gate answers with the refusal (contract section 6).
	closed bool

	s     *Shaper
	key   any
	ctx   callContext     // the context of [call.withContext], in the call's own allocation
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
func (s *Shaper) begin(c client, key any, method, name string) *call {
	closed, reason := c.Profile.ElicitationGate(c.Elicitation)
	s.sessions.begin(key, name)
	return &call{s: s, key: key, client: c, method: method, name: name, closed: closed, reason: reason}
}

// end ends the call.
func (c *call) end() { c.s.sessions.done(c.key, c.name) }

// callContext is ctx carrying the call under the carrier key: one
// value gives both the call (callFrom) and its profile
// (negotiation.FromContext), and it costs no allocation of its own.
type callContext struct {
	context.Context
	call *call
}

func (c *callContext) Value(key any) any {
	if key == (ctxkey.Carrier{}) {
		return (*carrier)(c.call)
	}
	return c.Context.Value(key)
}

// carrier is the call as the context value that answers negotiation's
// questions (negotiation.FromContext, negotiation.AddHints). It is a type
// of its own so that the methods negotiation asks for are not methods of
// call.
type carrier call

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
func (c *call) withContext(ctx context.Context) context.Context {
	c.ctx = callContext{Context: ctx, call: c}
	return &c.ctx
}

// handlerHints returns the hints the handler attached in the call's
// context.
func (c *call) handlerHints() []string { return (*carrier)(c).CarriedHints().All() }

// callFrom returns the call ctx carries.
func callFrom(ctx context.Context) (*call, bool) {
	c, ok := ctx.Value(ctxkey.Carrier{}).(*carrier)
	return (*call)(c), ok && c != nil
}

// GateClosed reports whether the elicitation gate is closed for the call
// ctx carries (contract section 6): a handler's helper that would ask the
// client (an SDK's Elicit) must not, and answers with [Refuse] instead. ok
// is false when ctx carries no call of a client that declared the
// extension: the gate does not apply to it.
func GateClosed(ctx context.Context) (closed, ok bool) {
	c, ok := callFrom(ctx)
	return ok && c.closed, ok
}

// Refuse answers an elicitation in the client's place when the gate is
// closed for the call ctx carries: it logs the gated elicitation at debug
// level, path naming what would have asked ("Elicit"), and returns the
// gate's answer, "decline" or "cancel" ([Options].Refusal). refused is
// false, and nothing is logged, when the gate is open or ctx carries no
// call: the helper then asks the client.
func Refuse(ctx context.Context, path string) (action string, refused bool) {
	c, ok := callFrom(ctx)
	if !ok || !c.closed {
		return "", false
	}
	c.gated(path)
	return c.s.refusal.String(), true
}

// gated logs one gated elicitation at debug level, with the tool name and
// the reason (contract section 6).
func (c *call) gated(path string) { c.s.logGated(c.name, c.method, c.reason, path) }

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

// gateSending decides for an elicitation request about to be sent to the
// client (the legacy era's elicitation/create): true means it must not be
// sent, and the refusal is its answer. The call comes from ctx when
// the handler passed its own on; otherwise from the connection key, and
// the log names the calls the connection has under way.
func (s *Shaper) gateSending(ctx context.Context, key any) bool {
	if c, ok := callFrom(ctx); ok && c.s == s {
		if c.closed {
			c.gated("elicitation/create")
		}
		return c.closed
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
func gate[R any](c *call, invoke func(refused []string, state string) (R, error), asked func(R) (ids []string, state string)) (R, error) {
	res, err := invoke(nil, "")
	if !c.closed {
		return res, err
	}
	for round := 0; err == nil; round++ {
		ids, state := asked(res)
		if len(ids) == 0 {
			return res, nil
		}
		for range ids {
			c.gated("inputRequests")
		}
		if round == maxGateRounds {
			var zero R
			return zero, &stillAskingError{name: c.name, reason: c.reason}
		}
		res, err = invoke(ids, state)
	}
	return res, err
}

// forged returns, of the ids of the elicitation answers a request carries,
// those the gate must replace with the refusal: all of them when the gate
// is closed (the client was never asked, so an "accept" from it must not
// pass a confirmation), none otherwise.
func (c *call) forged(ids []string) []string {
	if !c.closed || len(ids) == 0 {
		return nil
	}
	for range ids {
		c.gated("inputResponses")
	}
	return ids
}

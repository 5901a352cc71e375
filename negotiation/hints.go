package negotiation

import (
	"context"

	"github.com/contentneg/contentneg/internal/ctxkey"
	"slices"
	"sync"
)

// Hints collects the reasoning hints a handler attaches to its result. The
// front ends put one in the context of each call for clients whose profile
// wants hints; handlers add to it with [AddHints]. It is safe for
// concurrent use.
type Hints struct {
	mu    sync.Mutex
	hints []string
}

// maxHints bounds what one call can collect.
const maxHints = 32

// Add appends hints, ignoring empty ones and any beyond the 32nd.
func (h *Hints) Add(hints ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range hints {
		if s != "" && len(h.hints) < maxHints {
			h.hints = append(h.hints, s)
		}
	}
}

// All returns a copy of the hints, in the order they were added.
func (h *Hints) All() []string {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.hints)
}

// WantsHints reports whether hints added in ctx reach the client, so that a
// handler can skip computing them.
func WantsHints(ctx context.Context) bool { return hintsOf(ctx) != nil }

// HintsCarrier is a [Carrier] that also collects the hints of its call:
// CarriedHints returns the collector, or nil when the profile does not want
// hints. With it, a front end needs no context value of its own for them.
type HintsCarrier interface {
	Carrier
	CarriedHints() *Hints
}

// hintsOf returns the collector of ctx, from the profile's carrier; nil
// when there is none.
func hintsOf(ctx context.Context) *Hints {
	if c, ok := ctx.Value(ctxkey.Carrier{}).(HintsCarrier); ok {
		return c.CarriedHints()
	}
	return nil
}

// AddHints attaches reasoning hints to the result of the call ctx belongs
// to. They reach only clients whose profile wants hints (the "sampling"
// tag), as a separate block for the assistant, never inside
// structuredContent. It reports whether the hints were kept.
func AddHints(ctx context.Context, hints ...string) bool {
	h := hintsOf(ctx)
	if h != nil {
		h.Add(hints...)
	}
	return h != nil
}

package negotiation

import (
	"context"

	"github.com/contentneg/contentneg/internal/ctxkey"
	"github.com/contentneg/contentneg/internal/hints"
)

// hintsCarrier is a carrier that also collects the hints of its call:
// CarriedHints returns the collector, or nil when the profile does not want
// hints (package shaping's call is one). With it, a front end needs no
// context value of its own for them.
type hintsCarrier interface {
	carrier
	CarriedHints() *hints.Collector
}

// hintsOf returns the collector of ctx, from the profile's carrier; nil
// when there is none.
func hintsOf(ctx context.Context) *hints.Collector {
	if c, ok := ctx.Value(ctxkey.Carrier{}).(hintsCarrier); ok {
		return c.CarriedHints()
	}
	return nil
}

// AddHints attaches reasoning hints to the result of the call ctx belongs
// to. They reach only clients whose profile wants hints (the "sampling"
// tag: see [Profile.WantsHints]), as a separate block for the assistant,
// never inside structuredContent; empty hints and any beyond the 32nd are
// ignored. It reports whether the hints were kept.
func AddHints(ctx context.Context, hints ...string) bool {
	h := hintsOf(ctx)
	if h != nil {
		h.Add(hints...)
	}
	return h != nil
}

package negotiation

import (
	"context"

	"github.com/contentneg/contentneg/internal/ctxkey"
)

// WithProfile returns a copy of ctx that carries p. The middleware does this
// for every request, so handlers can read the client's profile.
func WithProfile(ctx context.Context, p *Profile) context.Context {
	return context.WithValue(ctx, ctxkey.Carrier{}, p)
}

// Carrier is a value that carries a profile, and perhaps more about the
// request (package shaping's call does): a front end puts one in the
// context in place of the profile (package shaping's call does), so that
// one context value serves all. A *Profile is its own Carrier.
type Carrier interface {
	CarriedProfile() *Profile
}

// CarriedProfile returns p: a *Profile is its own [Carrier].
func (p *Profile) CarriedProfile() *Profile { return p }

// FromContext returns the profile ctx carries and true, or nil and false
// when it carries none. A nil profile answers every question as "not
// declared", so handlers may use the result without checking ok.
func FromContext(ctx context.Context) (*Profile, bool) {
	var p *Profile
	switch c := ctx.Value(ctxkey.Carrier{}).(type) {
	case *Profile:
		p = c
	case Carrier:
		p = c.CarriedProfile()
	}
	return p, p != nil
}

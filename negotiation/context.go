package negotiation

import "context"

// profileKey is the context key for the profile; unexported so that only
// this package sets it.
type profileKey struct{}

// WithProfile returns a copy of ctx that carries p. The middleware does this
// for every request, so handlers can read the client's profile.
func WithProfile(ctx context.Context, p *Profile) context.Context {
	return context.WithValue(ctx, profileKey{}, p)
}

// Carrier is a value that carries a profile, and perhaps more about the
// request (package shaping's call does): a front end puts one in the
// context under [CarrierKey], in place of the profile, so that one context
// value serves all. A *Profile is its own Carrier.
type Carrier interface {
	CarriedProfile() *Profile
}

// CarriedProfile returns p: a *Profile is its own [Carrier].
func (p *Profile) CarriedProfile() *Profile { return p }

// CarrierKey is the context key of the profile's [Carrier]: a context whose
// Value(CarrierKey) returns a Carrier gives its profile to [FromContext].
// [WithProfile] stores the profile under it.
var CarrierKey any = profileKey{}

// FromContext returns the profile ctx carries and true, or nil and false
// when it carries none. A nil profile answers every question as "not
// declared", so handlers may use the result without checking ok.
func FromContext(ctx context.Context) (*Profile, bool) {
	var p *Profile
	switch c := ctx.Value(profileKey{}).(type) {
	case *Profile:
		p = c
	case Carrier:
		p = c.CarriedProfile()
	}
	return p, p != nil
}

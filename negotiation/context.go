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

// FromContext returns the profile ctx carries and true, or nil and false
// when it carries none. A nil profile answers every question as "not
// declared", so handlers may use the result without checking ok.
func FromContext(ctx context.Context) (*Profile, bool) {
	p, ok := ctx.Value(profileKey{}).(*Profile)
	return p, ok && p != nil
}

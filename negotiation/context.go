package negotiation

import (
	"context"

	"github.com/contentneg/contentneg/internal/ctxkey"
)

// carrier is a context value that carries a profile, and perhaps more about
// the request: a front end puts one in the context under the key
// ctxkey.Carrier (package shaping's call does), so that one context value
// serves all. A front end may put the *Profile itself there.
type carrier interface {
	CarriedProfile() *Profile
}

// FromContext returns the profile of the client whose request ctx belongs
// to, and true; nil and false when it carries none. A nil profile answers
// every question as "not declared", so handlers may use the result without
// checking ok.
func FromContext(ctx context.Context) (*Profile, bool) {
	var p *Profile
	switch c := ctx.Value(ctxkey.Carrier{}).(type) {
	case *Profile:
		p = c
	case carrier:
		p = c.CarriedProfile()
	}
	return p, p != nil
}

package negotiation

import (
	"context"
	"slices"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/ctxkey"
)

// What the package's external tests name and its API does not export.

const (
	AudienceUnknown = audienceUnknown
	Decline         = Refusal(0)

	ReasonNotInteractive = reasonNotInteractive
	ReasonNoCapability   = reasonNoCapability
	ReasonTooManyTags    = reasonTooManyTags
	ReasonMalformed      = reasonMalformed

	Unknown = unknown
	Yes     = yes
	No      = no

	NotFound       = notFound
	InExtensions   = inExtensions
	InExperimental = inExperimental
)

type (
	Tristate = tristate
	Origin   = origin
)

var (
	ErrDefault       = errDefault
	ErrFormat        = errFormat
	ErrFormatName    = errFormatName
	ErrNotAcceptable = errNotAcceptable

	Lookup = lookup
)

// FromSettings is the profile of settings found for the extension, with
// the built-in formats only.
func FromSettings(settings any) *Profile { return fromSettings(settings, nil) }

// FromSettings is the profile of settings found for the extension, with
// n's formats.
func (n *Negotiator) FromSettings(settings any) *Profile { return fromSettings(settings, n.formats()) }

// FromAccept is the profile of an HTTP client's Accept header, with the
// built-in formats only.
func FromAccept(accept string) (*Profile, error) { return (*Negotiator)(nil).FromAccept(accept) }

// WithProfile returns ctx carrying p, as a front end's does.
func WithProfile(ctx context.Context, p *Profile) context.Context {
	return context.WithValue(ctx, ctxkey.Carrier{}, p)
}

// StoreLen returns the number of sessions a NewMemoryStore keeps.
func StoreLen(s Store) int {
	m := s.(*memoryStore)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len()
}

func (p *Profile) Format() format.Format {
	if p == nil {
		return format.Format{}
	}
	return p.format
}

func (p *Profile) Version() string {
	if !p.Declared() {
		return ""
	}
	return p.version
}

func (p *Profile) Interactive() Tristate {
	if p == nil {
		return unknown
	}
	return p.interactive
}

func (p *Profile) MCPCapable() Tristate {
	if p == nil {
		return unknown
	}
	return p.mcpCapable
}

func (p *Profile) Excludes(f format.Format) bool     { return p.excludes(f) }
func (p *Profile) MayElicit(hasCapability bool) bool { return p.mayElicit(hasCapability) }
func (p *Profile) Malformed() bool                   { return p.Declared() && p.malformed != "" }
func (p *Profile) Diagnostics() []featuretags.Diagnostic {
	if p == nil {
		return nil
	}
	return slices.Clone(p.diags)
}

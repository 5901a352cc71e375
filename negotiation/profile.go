package negotiation

import (
	"strings"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/tagspec"
)

// Profile is the parsed, reconciled view of one client: what it declared
// and which rendering it gets. Profiles are made by a [Negotiator] (the
// front ends') or [FromTags]; they are immutable and safe for concurrent
// use.
//
// A nil *Profile is valid and means "not declared": every method answers as
// for a client that did not declare the extension.
type Profile struct {
	declared    bool
	version     string
	tags        featuretags.Set
	audience    Audience
	format      format.Format // the explicit format; the zero Format when unset
	excluded    uint8         // bit r set: the built-in format of rendering r excluded
	verbosity   format.Verbosity
	interactive tristate
	malformed   string // why the settings are read as not interactive: a Reason, "" when they are not
	operator    bool   // the server's default tags, not the client's settings
	mcpCapable  tristate
	rendering   format.Rendering
	diags       []featuretags.Diagnostic
}

// Declared reports whether the client declared the extension with a major
// version this package knows (1).
func (p *Profile) Declared() bool { return p != nil && p.declared }

// Tags returns the client's valid feature tags, vendor and unknown ones
// included. It is empty when the extension is not declared.
func (p *Profile) Tags() featuretags.Set {
	if !p.Declared() {
		return featuretags.Set{}
	}
	return p.tags
}

// Audience returns who reads the results.
func (p *Profile) Audience() Audience {
	if p == nil {
		return audienceUnknown
	}
	return p.audience
}

// MediaType returns the media type of the rendering the client gets:
// one of a built-in format, the media type of a format
// the server registered, or "" for pass-through.
func (p *Profile) MediaType() string {
	r := p.Rendering()
	if r == format.RenderingCustom {
		return p.format.MediaType
	}
	b, _ := builtinByRendering(r)
	return b.MediaType
}

// excludes reports whether the client excluded the built-in format f with
// "format!=".
func (p *Profile) excludes(f format.Format) bool {
	b, builtin := builtinByName(f.Name)
	return p != nil && builtin && p.excluded&(1<<b.Rendering) != 0
}

// Verbosity returns the requested verbosity; the zero Verbosity (unset)
// when the client gave none.
func (p *Profile) Verbosity() format.Verbosity {
	if p == nil {
		return 0
	}
	return p.verbosity
}

// WantsHints reports whether results should carry reasoning hints for the
// client: it declared the "sampling" tag. A handler adds them with
// [AddHints]. This shapes content only; whether
// the server may send sampling requests is decided by the client's real
// capabilities.
func (p *Profile) WantsHints() bool { return p.Declared() && p.tags.Has(tagspec.Sampling) }

// Rendering returns how results are shaped for this client.
func (p *Profile) Rendering() format.Rendering {
	if p == nil {
		return format.RenderingPassThrough
	}
	return p.rendering
}

// mayElicit reports whether the server may put an elicitation request to
// this client: the one question behind the gate (contract section 6). Tags
// shape content, capabilities govern protocol actions: the answer is no
// unless hasCapability says the client's real capability object has
// "elicitation", whatever the tags say; and a client that declared
// "!interactive" gets no elicitation even when it has the capability, nor
// does one whose declaration is malformed (features past
// 64 tags, a tag or element the parse could not read, settings
// or features of the wrong JSON type: consent never rests on a declaration
// the server could not read). For a client that did not declare the
// extension it is the capability alone.
func (p *Profile) mayElicit(hasCapability bool) bool {
	return hasCapability && (p == nil || p.interactive != no && p.malformed == "")
}

// FromDefault reports whether the profile is the server's default tags
// ([Negotiator.Default]): the operator's choice for clients that declare
// nothing, not a client's own declaration (contract section 1). A
// format=json from it keeps the minified JSON mirror, since the client
// never said it reads structuredContent.
func (p *Profile) FromDefault() bool { return p != nil && p.operator }

// String summarizes the profile on one line, for logs and test failures:
// "v1.0 audience=agent format=json verbosity=compact rendering=structured".
func (p *Profile) String() string {
	if !p.Declared() {
		return "not declared"
	}
	var b strings.Builder
	if p.version == "" {
		b.WriteString("v?")
	} else {
		b.WriteString("v")
		b.WriteString(p.version)
	}
	for _, f := range [...]struct{ k, v string }{
		{"audience", p.audience.String()},
		{"format", p.formatWord()},
		{"verbosity", p.verbosity.String()},
		{"interactive", p.interactive.String()},
		{"mcp-capable", p.mcpCapable.String()},
		{"rendering", p.rendering.String()},
	} {
		b.WriteString(" ")
		b.WriteString(f.k)
		b.WriteString("=")
		b.WriteString(f.v)
	}
	if p.WantsHints() {
		b.WriteString(" hints")
	}
	if p.malformed != "" {
		b.WriteString(" malformed")
	}
	return b.String()
}

// formatWord is the explicit format in the profile's String and log line:
// "unset", a built-in format's name, or "custom" for a registered one.
func (p *Profile) formatWord() string {
	if p.format.Rendering == format.RenderingCustom {
		return "custom"
	}
	return p.format.String()
}

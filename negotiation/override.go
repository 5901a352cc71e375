package negotiation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/tagspec"
)

// errDefault reports default tags a server cannot start with: see
// [Negotiator.Default].
var errDefault = errors.New("invalid default tags")

// errFormatName reports a format name the server cannot render: see
// [Negotiator.WithFormat].
var errFormatName = errors.New("unknown format")

// Default returns the profile of the server's default tags (contract
// section 1, step 4 of the resolution order): the profile a client that
// declares nothing gets. Each feature may hold several tags separated by
// commas ("human, format=markdown"); white space around a tag is trimmed.
// The profile reports [Profile.FromDefault]. Anything else the parse would only note for a client (an invalid tag, an
// unknown value of a registry key such as "format=xml", a contradiction, a
// major version other than 1) is an error naming it: the operator's
// settings are checked when the server starts, not on every call. Settings
// without features give a nil profile and no error: no default.
func (n *Negotiator) Default(settings Settings) (*Profile, error) {
	var tags []string
	for _, f := range settings.Features {
		for t := range strings.SplitSeq(f, ",") {
			if t = strings.TrimSpace(t); t != "" {
				tags = append(tags, t)
			}
		}
	}
	if len(tags) == 0 {
		if settings.Version != "" {
			return nil, fmt.Errorf("%w: version %q without feature tags", errDefault, settings.Version)
		}
		return nil, nil
	}
	s := settings
	s.Features = tags
	p := fromTyped(s, n.formats())
	var problems []string
	for _, d := range p.diags {
		switch d.Problem {
		case tagspec.Trimmed, tagspec.MissingVersion:
			continue
		}
		problems = append(problems, d.String())
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s", errDefault, strings.Join(problems, "; "))
	}
	if !p.Declared() {
		return nil, fmt.Errorf("%w: not declared", errDefault)
	}
	p.operator = true
	return p, nil
}

// FormatNames returns the format names the server can render, in the order
// a model is offered them: the built-in json, markdown, text and toon, then
// the names registered with [Negotiator.AddFormat], in registration order.
// html is not among them: it is for people in a browser, not for a model
// choosing one call's format.
func (n *Negotiator) FormatNames() []string {
	names := []string{format.JSON.Name, format.Markdown.Name, format.Text.Name, format.TOON.Name}
	if f := n.formats(); f != nil {
		names = append(names, f.names...)
	}
	return names
}

// WithFormat returns p with its format replaced by the format name (any
// case): the profile of one call whose format was chosen for it (contract
// section 1, the per-call format argument). Every other tag of p stays; its
// "format=" and "format!=" tags go. For a client that did not declare the
// extension (p nil or not declared) it is the profile of a client that
// declared only "format=name". A name the server cannot render is an error
// that lists the names it can (see [Negotiator.FormatNames]).
func (n *Negotiator) WithFormat(p *Profile, name string) (*Profile, error) {
	lname := strings.ToLower(name)
	known := false
	names := n.FormatNames()
	for _, f := range names {
		if f == lname {
			known = true
			break
		}
	}
	if !known {
		return nil, fmt.Errorf("%w %q; choose one of %s", errFormatName, clipName(name), strings.Join(names, ", "))
	}
	tags := []string{tagspec.Format + "=" + lname}
	version, malformed, operator := defaultVersion, "", false
	if p.Declared() {
		operator = p.operator
		// A malformed declaration never opens the gate: the client stays
		// not interactive whatever format the call chose.
		version, malformed = p.version, p.malformed
		if version == "" {
			version = defaultVersion
		}
		for t := range p.tags.All() {
			if strings.EqualFold(t.Name, tagspec.Format) {
				continue
			}
			tags = append(tags, t.String())
		}
	}
	f := n.formats()
	set, diags := featuretags.Parse(tags, f.tagValues()...)
	out := newProfile(version, set, diags, f)
	if out.malformed == "" {
		out.malformed = malformed
	}
	out.operator = operator
	return out, nil
}

// clipName cuts a name read from a request to a length fit for an error.
func clipName(s string) string {
	const max = 64
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

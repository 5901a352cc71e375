package negotiation

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/tagspec"
)

// ExtensionID is the key under which clients declare the extension and
// servers advertise it, in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/content-negotiation"

// defaultVersion is the version assumed when a client's settings give none,
// and the version [Settings.Map] writes when its Version is empty.
const defaultVersion = "1.0"

// maxVersionLen bounds the version string read from a client.
const maxVersionLen = 32

// Settings is the typed form of the extension's client settings:
// {"version": "1.0", "features": ["agent", "format=json"]}.
type Settings struct {
	Version  string   `json:"version,omitempty"`
	Features []string `json:"features,omitempty"`
}

// Map returns the settings as the SDKs' AddExtension methods take them, with
// the version defaulting to "1.0".
func (s Settings) Map() map[string]any {
	v := s.Version
	if v == "" {
		v = defaultVersion
	}
	features := make([]any, len(s.Features))
	for i, f := range s.Features {
		features[i] = f
	}
	return map[string]any{"version": v, "features": features}
}

// FromTags returns the profile of a client that declared version 1.0 with
// these feature tags. It is the short way to build a profile in tests and
// orchestrators.
func FromTags(tags ...string) *Profile { return fromTagList(nil, tags...) }

func fromTagList(f *formats, tags ...string) *Profile {
	set, diags := featuretags.Parse(tags, f.tagValues()...)
	return newProfile(defaultVersion, set, diags, f)
}

// fromSettings turns the extension's settings, as found under
// capabilities.extensions[ExtensionID], into a profile, with the formats f
// registered. It never fails and never panics: whatever is wrong ends up in
// the profile's diagnostics.
//
// settings may be what the SDKs decode from JSON (a map[string]any whose
// "features" is a []any), a [Settings] or *Settings, or the JSON text as a
// json.RawMessage. nil means the client did not declare the extension. A
// major version other than 1 gives a profile that is not declared.
//
// Malformed settings close the gate (contract section 2): settings that
// are present but not an object, or whose version is not a version
// string, give a declared profile with no tags (pass-through) whose
// elicitation gate is closed; so does a declaration with any tag or
// element the parse could not read (see featuretags.Problem.Malformed).
func fromSettings(settings any, f *formats) *Profile {
	switch s := settings.(type) {
	case nil:
		return &Profile{}
	case map[string]any:
		return fromMap(s, f)
	case Settings:
		return fromTyped(s, f)
	case *Settings:
		if s == nil {
			return &Profile{}
		}
		return fromTyped(*s, f)
	case json.RawMessage:
		var v any
		if err := json.Unmarshal(s, &v); err != nil {
			return unreadable(featuretags.Diagnostic{Index: -1, Related: -1, Problem: tagspec.NotAnObject, Detail: "invalid JSON"})
		}
		if v == nil {
			return &Profile{}
		}
		return fromSettings(v, f)
	default:
		return unreadable(featuretags.Diagnostic{Index: -1, Related: -1, Problem: tagspec.NotAnObject, Detail: tagspec.JSONType(settings)})
	}
}

func fromTyped(s Settings, f *formats) *Profile {
	m := map[string]any{"features": s.Features}
	if s.Version != "" {
		m["version"] = s.Version
	}
	return fromMap(m, f)
}

func fromMap(m map[string]any, f *formats) *Profile {
	version, vdiag, ok := readVersion(m)
	switch {
	case !ok && vdiag.Problem == tagspec.BadVersion:
		return unreadable(vdiag)
	case !ok:
		return notDeclared(vdiag)
	}
	set, diags := featuretags.ParseValue(m["features"], f.tagValues()...)
	if vdiag.Problem != 0 {
		diags = append([]featuretags.Diagnostic{vdiag}, diags...)
	}
	return newProfile(version, set, diags, f)
}

// readVersion returns the version to use, a diagnostic (zero when there is
// nothing to say) and whether the major version is one this package knows.
func readVersion(m map[string]any) (string, featuretags.Diagnostic, bool) {
	raw, present := m["version"]
	if !present || raw == nil {
		return defaultVersion, featuretags.Diagnostic{Index: -1, Related: -1, Problem: tagspec.MissingVersion}, true
	}
	v, isString := raw.(string)
	if !isString {
		return "", featuretags.Diagnostic{Index: -1, Related: -1, Problem: tagspec.BadVersion, Detail: tagspec.JSONType(raw)}, false
	}
	major, valid := majorVersion(v)
	switch {
	case !valid:
		return "", featuretags.Diagnostic{Index: -1, Related: -1, Problem: tagspec.BadVersion, Tag: clipVersion(v)}, false
	case major != 1:
		return "", featuretags.Diagnostic{Index: -1, Related: -1, Problem: tagspec.UnsupportedVersion, Tag: clipVersion(v)}, false
	}
	return v, featuretags.Diagnostic{}, true
}

// majorVersion reads the major number of "1", "1.0", "1.3.2".
func majorVersion(v string) (int, bool) {
	if len(v) > maxVersionLen {
		return 0, false
	}
	head, _, _ := strings.Cut(v, ".")
	if head == "" || strings.TrimLeft(head, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(head)
	if err != nil {
		return -1, true // digits past int: a major version, and not 1
	}
	return n, true
}

func clipVersion(v string) string {
	if len(v) > maxVersionLen {
		return v[:maxVersionLen]
	}
	return v
}

func notDeclared(d featuretags.Diagnostic) *Profile {
	return &Profile{diags: []featuretags.Diagnostic{d}}
}

// unreadable is the profile of settings that are present but could not be
// read at all (not an object, a version that is not a version string): the
// client declared the extension, so it is declared, with no tag read
// (pass-through), and the gate is closed for it.
func unreadable(d featuretags.Diagnostic) *Profile {
	return &Profile{declared: true, malformed: reasonMalformed, diags: []featuretags.Diagnostic{d}}
}

// malformedBy returns why the diagnostics close the gate: reasonTooManyTags
// when the parse stopped at 64 tags, reasonMalformed for any
// other part the parse could not read, "" when it read everything.
func malformedBy(diags []featuretags.Diagnostic) string {
	reason := ""
	for _, d := range diags {
		switch {
		case d.Problem == tagspec.TooMany:
			return reasonTooManyTags
		case d.Problem.Malformed():
			reason = reasonMalformed
		}
	}
	return reason
}

// newProfile derives every field of a declared profile from the tag set.
func newProfile(version string, set featuretags.Set, diags []featuretags.Diagnostic, f *formats) *Profile {
	p := &Profile{declared: true, version: version, tags: set, diags: diags}
	agent, human := set.Has(tagspec.Agent), set.Has(tagspec.Human)
	switch {
	case agent && !human:
		p.audience = Agent
	case human && !agent:
		p.audience = Human
	}
	if v, ok := set.Value(tagspec.Format); ok {
		if b, builtin := builtinByName(v); builtin {
			p.format = b
		} else if r, registered := f.byName(v); registered {
			p.format = r
		}
	}
	for _, b := range builtin {
		if set.Excludes(tagspec.Format, b.Name) {
			p.excluded |= 1 << b.Rendering
		}
	}
	if v, ok := set.Value(tagspec.Verbosity); ok {
		p.verbosity, _ = format.ParseVerbosity(v)
	}
	p.interactive = flag(set, tagspec.Interactive)
	// Malformed declarations close the gate (contract section 2): a client
	// whose features run past the limits, or hold a tag the parse could not
	// read, may have said "!interactive" in the part not read (or in a
	// look-alike), so the gate treats it as not interactive
	// ([Profile.ElicitationGate]).
	p.malformed = malformedBy(diags)
	p.mcpCapable = flag(set, tagspec.MCPCapable)
	p.rendering = p.choose()
	return p
}

// choose applies the table of SPEC section 4: an explicit format wins; else
// the audience, else the verbosity, gives an order of preference, and the
// first rendering the client did not exclude is used.
func (p *Profile) choose() format.Rendering {
	if p.format != (format.Format{}) {
		return p.format.Rendering
	}
	var prefs [3]format.Rendering
	switch {
	case p.audience == Agent:
		prefs = [3]format.Rendering{format.RenderingStructured, format.RenderingText, format.RenderingMarkdown}
	case p.audience == Human:
		prefs = [3]format.Rendering{format.RenderingMarkdown, format.RenderingText, format.RenderingStructured}
	case p.verbosity == format.Compact:
		prefs = [3]format.Rendering{format.RenderingText, format.RenderingStructured, format.RenderingMarkdown}
	case p.verbosity == format.Verbose:
		prefs = [3]format.Rendering{format.RenderingMarkdown, format.RenderingText, format.RenderingStructured}
	default:
		return format.RenderingPassThrough
	}
	for _, r := range prefs {
		if b, _ := builtinByRendering(r); !p.excludes(b) {
			return r
		}
	}
	return format.RenderingPassThrough
}

func flag(set featuretags.Set, name string) tristate {
	switch {
	case set.Negated(name):
		return no
	case set.Has(name):
		return yes
	default:
		return unknown
	}
}

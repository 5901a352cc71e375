package featuretags

import (
	"slices"
	"strings"

	"github.com/contentneg/contentneg/internal/tagspec"
)

// Limits on what a parse reads. They bound its cost whatever the input.
const (
	// maxTags is the number of elements read from a features array; the rest
	// are ignored with one TooMany diagnostic.
	maxTags = 64
	// maxTagLen is the longest tag, in bytes, before trimming; a longer one
	// is ignored with a TooLong diagnostic.
	maxTagLen = 128
)

// Parse parses a list of feature tags. It never fails: invalid tags are
// dropped and reported in the diagnostics, which are nil when there is
// nothing to report. At most 64 elements are read, and a tag longer than
// 128 bytes is invalid.
//
// Duplicates are kept once. A tag and its negation: the negation wins. Two
// values for a registry key: the first valid one wins. Exclusions
// ("format!=markdown") remove that value from what the client accepts.
//
// formats are further values "format=" takes beside the registry's json,
// text, markdown, toon and html: the names of the formats a server added,
// in lower case ("csv"). Without them "format=csv" is an unknown value,
// ignored with a diagnostic.
func Parse(tags []string, formats ...string) (Set, []Diagnostic) {
	p := parser{formats: formats, strs: tags}
	p.start(len(tags))
	for i, raw := range tags {
		if i == maxTags {
			p.tooMany(i, raw)
			break
		}
		p.add(i, raw)
	}
	return p.finish()
}

// ParseValue parses the features value as the SDKs decode it from JSON: a
// []any whose elements should be strings, or a []string; formats are as
// for [Parse]. An element that is not a string is skipped with a
// diagnostic. A string is read as a comma-separated list ("human,
// !interactive": white space around each tag trimmed, empty ones skipped)
// with a diagnostic that says so, whose other diagnostics index that list.
// A value of any other type gives an empty set and a diagnostic; nil (no
// features) gives an empty set and no diagnostic. Either way the cost is
// bounded as Parse's is.
func ParseValue(features any, formats ...string) (Set, []Diagnostic) {
	switch list := features.(type) {
	case nil:
		return Set{}, nil
	case []string:
		return Parse(list, formats...)
	case string:
		set, diags := Parse(commaList(list), formats...)
		return set, append([]Diagnostic{{Index: -1, Related: -1, Problem: tagspec.CommaList}}, diags...)
	case []any:
		p := parser{formats: formats, anys: list}
		p.start(len(list))
		for i, el := range list {
			s, isString := el.(string)
			if i == maxTags {
				p.tooMany(i, s)
				break
			}
			if !isString {
				p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.NotAString, Detail: tagspec.JSONType(el)})
				continue
			}
			p.add(i, s)
		}
		return p.finish()
	default:
		return Set{}, []Diagnostic{{Index: -1, Related: -1, Problem: tagspec.NotAList, Detail: tagspec.JSONType(features)}}
	}
}

// commaList splits a features string at its commas, trims ASCII white
// space around each tag and skips empty ones. It keeps at most maxTags+1
// tags, enough for Parse to see that the list runs past the limit, so its
// cost is linear in the string and its memory bounded.
func commaList(s string) []string {
	var tags []string
	for s != "" && len(tags) <= maxTags {
		var tag string
		tag, s, _ = strings.Cut(s, ",")
		if tag = trimASCIISpace(tag); tag != "" {
			tags = append(tags, tag)
		}
	}
	return tags
}

// parser holds the state of one parse.
type parser struct {
	entries []entry
	diags   []Diagnostic
	formats []string // format values beyond the registry's
	// The input, one of the two: the text of a tag is read from it again
	// for the diagnostics of finish, rather than kept in every entry.
	strs []string
	anys []any
	// What finish has to resolve: negations and exclusions that may
	// contradict a tag, values of registry keys that may conflict, and the
	// two audiences. Without them the valid tags stand as they are.
	negations    int
	flags        uint32 // the registered flags read: bit 2*index for presence, 2*index+1 for negation
	keys         uint8  // the registry keys given a value: 1 format, 2 verbosity
	conflict     bool   // a registry key given a value twice
	human, agent bool
}

func (p *parser) start(n int) {
	if n > maxTags {
		n = maxTags
	}
	if n > 0 {
		p.entries = make([]entry, 0, n)
	}
}

func (p *parser) report(d Diagnostic) { p.diags = append(p.diags, d) }

func (p *parser) tooMany(i int, raw string) {
	p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.TooMany, Tag: clip(raw)})
}

// add reads one tag: limits, white space, syntax, registry, duplicates.
func (p *parser) add(i int, raw string) {
	if len(raw) > maxTagLen {
		p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.TooLong, Tag: clip(raw)})
		return
	}
	s := trimASCIISpace(raw)
	if len(s) != len(raw) {
		p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.Trimmed, Tag: raw})
	}
	name, value, op, ok := split(s)
	if !ok {
		p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.Invalid, Tag: raw})
		return
	}
	ri := lookupIndex(name)
	if ri >= 0 {
		r := &registry[ri]
		name = r.name
		switch {
		case r.kind == flag && (op == Equality || op == Inequality),
			r.kind == key && (op == Presence || op == Negation):
			p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.WrongForm, Tag: raw})
			return
		case r.kind == key:
			if value = p.canonicalValue(r, value); value == "" {
				p.report(Diagnostic{Index: i, Related: -1, Problem: tagspec.UnknownValue, Tag: raw})
				return
			}
		}
	} else {
		name = lowerASCII(name)
	}
	t := Tag{Name: name, Value: value, Op: op}
	if p.duplicate(ri, t) {
		return // the same tag twice is kept once, silently
	}
	n := len(p.entries)
	p.entries = p.entries[:n+1]
	e := &p.entries[n]
	e.Tag, e.index = t, i
	switch {
	case op == Negation || op == Inequality:
		p.negations++
	case op == Equality && (name == tagspec.Format || name == tagspec.Verbosity):
		bit := uint8(1)
		if name == tagspec.Verbosity {
			bit = 2
		}
		p.conflict = p.conflict || p.keys&bit != 0
		p.keys |= bit
	case op == Presence && name == tagspec.Human:
		p.human = true
	case op == Presence && name == tagspec.Agent:
		p.agent = true
	}
}

// raw returns the text of the tag at input position i.
func (p *parser) raw(i int) string {
	if p.strs != nil {
		return p.strs[i]
	}
	s, _ := p.anys[i].(string)
	return s
}

// duplicate reports whether t was read before; ri is its name's registry
// index, or -1. A registered flag and a first value of a registry key are
// settled with bits, without looking at the tags read so far.
func (p *parser) duplicate(ri int, t Tag) bool {
	switch {
	case ri >= 0 && registry[ri].kind == flag && (t.Op == Presence || t.Op == Negation):
		bit := uint32(1) << (2*ri + int(t.Op)) // Presence is 0, Negation 1
		seen := p.flags&bit != 0
		p.flags |= bit
		return seen
	case t.Op == Equality && (t.Name == tagspec.Format && p.keys&1 == 0 || t.Name == tagspec.Verbosity && p.keys&2 == 0):
		return false
	}
	for _, e := range p.entries {
		if e.Tag == t {
			return true
		}
	}
	return false
}

// canonicalValue returns the spelling of a registry key's value, from the
// registry or, for "format", the grammar's own format names; "" when the
// value is unknown.
func (p *parser) canonicalValue(r *registered, value string) string {
	if v := r.canonicalValue(value); v != "" || r.name != tagspec.Format {
		return v
	}
	for _, f := range p.formats {
		if len(f) == len(value) && strings.EqualFold(f, value) {
			return f
		}
	}
	return ""
}

// finish resolves contradictions and conflicts between the valid tags, in
// place, and returns the set and the diagnostics sorted by position.
func (p *parser) finish() (Set, []Diagnostic) {
	all := p.entries
	if p.negations == 0 && !p.conflict && !(p.human && p.agent) {
		// Nothing to resolve: the usual case.
		if len(p.diags) > 1 {
			slices.SortStableFunc(p.diags, func(a, b Diagnostic) int { return a.Index - b.Index })
		}
		return Set{entries: all}, p.diags
	}
	kept := all[:0]
	for _, e := range all {
		if by := contradiction(all, e.Tag); by >= 0 {
			p.report(Diagnostic{Index: e.index, Related: by, Problem: tagspec.Contradiction, Tag: p.raw(e.index)})
			continue
		}
		if e.Op == Equality && isRegistryKey(e.Name) {
			if first := findOp(kept, e.Name, Equality); first >= 0 {
				p.report(Diagnostic{Index: e.index, Related: first, Problem: tagspec.ConflictingValue, Tag: p.raw(e.index)})
				continue
			}
		}
		kept = append(kept, e)
	}
	if h := findOp(kept, tagspec.Human, Presence); h >= 0 {
		if a := findOp(kept, tagspec.Agent, Presence); a >= 0 {
			later := kept[max(entryAt(kept, a), entryAt(kept, h))]
			p.report(Diagnostic{Index: later.index, Related: min(a, h), Problem: tagspec.BothAudiences, Tag: p.raw(later.index)})
		}
	}
	if len(p.diags) > 1 {
		slices.SortStableFunc(p.diags, func(a, b Diagnostic) int { return a.Index - b.Index })
	}
	return Set{entries: kept}, p.diags
}

// contradiction returns the input position of the tag that negates t ("!X"
// for "X", "k!=v" for "k=v"), or -1. The entries are still unfiltered: a
// negation is never itself dropped, so looking at all of them is right.
func contradiction(all []entry, t Tag) int {
	var want Tag
	switch t.Op {
	case Presence:
		want = Tag{Name: t.Name, Op: Negation}
	case Equality:
		want = Tag{Name: t.Name, Value: t.Value, Op: Inequality}
	default:
		return -1
	}
	for _, e := range all {
		if e.Tag == want {
			return e.index
		}
	}
	return -1
}

// findOp returns the input position of the first entry with the name and
// form, or -1.
func findOp(entries []entry, name string, op Op) int {
	for _, e := range entries {
		if e.Op == op && e.Name == name {
			return e.index
		}
	}
	return -1
}

// entryAt returns the slice index of the entry at input position index.
func entryAt(entries []entry, index int) int {
	return slices.IndexFunc(entries, func(e entry) bool { return e.index == index })
}

// split matches s against the grammar: inequality, negation, equality,
// presence. Name and value are substrings of s.
func split(s string) (name, value string, op Op, ok bool) {
	if strings.HasPrefix(s, "!") {
		name = s[1:]
		return name, "", Negation, isName(name)
	}
	n := nameLen(s)
	if n == 0 {
		return "", "", 0, false
	}
	name, rest := s[:n], s[n:]
	switch {
	case rest == "":
		return name, "", Presence, true
	case strings.HasPrefix(rest, "!="):
		value = rest[2:]
		return name, value, Inequality, isValue(value)
	case rest[0] == '=':
		value = rest[1:]
		return name, value, Equality, isValue(value)
	default:
		return "", "", 0, false
	}
}

// nameLen returns the length of the longest name at the start of s, or 0.
func nameLen(s string) int {
	if s == "" || !isAlpha(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	return i
}

func isName(s string) bool { n := nameLen(s); return n > 0 && n == len(s) }

func isValue(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isNameByte(c) && c != '+' && c != ':' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isNameByte(c byte) bool {
	return isAlpha(c) || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimASCIISpace(s string) string {
	for s != "" && isASCIISpace(s[0]) {
		s = s[1:]
	}
	for s != "" && isASCIISpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// lowerASCII lower-cases an ASCII name, copying only when it has capitals.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

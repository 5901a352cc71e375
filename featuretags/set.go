package featuretags

import (
	"iter"
	"strings"

	"github.com/contentneg/contentneg/internal/tagspec"
)

// Set is the result of a parse: the valid tags, once each, in the order the
// client gave them, after contradictions and conflicts were resolved. The
// zero Set is empty. A Set is immutable and safe for concurrent use; its
// queries allocate nothing.
//
// Queries take names in any case. Values of the registry keys ("format",
// "verbosity") compare case-insensitively, all other values exactly.
type Set struct {
	entries []entry
}

// entry is a valid tag with the position it had in the input.
type entry struct {
	Tag
	index int
}

// Len returns the number of tags in the set.
func (s Set) Len() int { return len(s.entries) }

// All yields the tags in the order the client gave them.
func (s Set) All() iter.Seq[Tag] {
	return func(yield func(Tag) bool) {
		for _, e := range s.entries {
			if !yield(e.Tag) {
				return
			}
		}
	}
}

// Has reports whether the bare name is present ("agent"). A name that is
// also negated is not present: the negation wins.
func (s Set) Has(name string) bool { return s.find(name, "", Presence) }

// Negated reports whether the negation of name is present ("!interactive").
func (s Set) Negated(name string) bool { return s.find(name, "", Negation) }

// Value returns the value of the first "name=value" tag. For a registry key
// it is the registry's lower-case spelling, and never a value the client
// also excluded.
func (s Set) Value(name string) (string, bool) {
	for _, e := range s.entries {
		if e.Op == Equality && strings.EqualFold(e.Name, name) {
			return e.Value, true
		}
	}
	return "", false
}

// Values yields the value of every "name=value" tag, in order. A registry
// key has at most one; vendor and unknown keys may have several.
func (s Set) Values(name string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, e := range s.entries {
			if e.Op == Equality && strings.EqualFold(e.Name, name) && !yield(e.Value) {
				return
			}
		}
	}
}

// Excludes reports whether the client excluded value for name ("format!=markdown").
func (s Set) Excludes(name, value string) bool { return s.find(name, value, Inequality) }

func (s Set) find(name, value string, op Op) bool {
	for _, e := range s.entries {
		if e.Op == op && strings.EqualFold(e.Name, name) && sameValue(e.Name, e.Value, value) {
			return true
		}
	}
	return false
}

// sameValue compares values the way the registry says: case-insensitively
// for the registry keys, exactly for everything else.
func sameValue(name, a, b string) bool {
	if name == tagspec.Format || name == tagspec.Verbosity {
		return strings.EqualFold(a, b)
	}
	return a == b
}

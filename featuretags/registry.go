package featuretags

import (
	"strings"

	"github.com/contentneg/contentneg/internal/tagspec"
)

// kind says how the registry treats a name.
type kind uint8

const (
	unregistered kind = iota // unknown or vendor name: any form, no built-in effect
	flag                     // presence or negation only
	key                      // equality or inequality only, with a value from the registry
)

type registered struct {
	name   string
	kind   kind
	values []string
}

// registry lists the v1.0 names. It is read-only.
var registry = [...]registered{
	{tagspec.Agent, flag, nil},
	{tagspec.Human, flag, nil},
	{tagspec.Interactive, flag, nil},
	{tagspec.MCPCapable, flag, nil},
	{tagspec.Sampling, flag, nil},
	{tagspec.Elicitation, flag, nil},
	{tagspec.Roots, flag, nil},
	{tagspec.Tasks, flag, nil},
	{tagspec.Format, key, []string{tagspec.JSON, tagspec.Text, tagspec.Markdown, tagspec.TOON, tagspec.HTML}},
	{tagspec.Verbosity, key, []string{tagspec.Compact, tagspec.Standard, tagspec.Verbose}},
}

// lookup finds name in the registry, ignoring case. It returns nil for a
// name the registry does not know.
func lookup(name string) *registered {
	if i := lookupIndex(name); i >= 0 {
		return &registry[i]
	}
	return nil
}

// lookupIndex returns the index of name in the registry, ignoring case, or
// -1.
func lookupIndex(name string) int {
	// The usual spelling first: a switch on the exact name compiles to a
	// few comparisons of lengths and bytes.
	switch name {
	case tagspec.Agent:
		return 0
	case tagspec.Human:
		return 1
	case tagspec.Interactive:
		return 2
	case tagspec.MCPCapable:
		return 3
	case tagspec.Sampling:
		return 4
	case tagspec.Elicitation:
		return 5
	case tagspec.Roots:
		return 6
	case tagspec.Tasks:
		return 7
	case tagspec.Format:
		return 8
	case tagspec.Verbosity:
		return 9
	}
	if !hasUpper(name) {
		return -1
	}
	for i := range registry {
		r := &registry[i]
		if len(r.name) == len(name) && strings.EqualFold(r.name, name) {
			return i
		}
	}
	return -1
}

// canonicalValue returns the registry's own spelling of value, or "" when
// value is not one of the values r takes.
func (r *registered) canonicalValue(value string) string {
	for _, v := range r.values {
		if v == value {
			return v
		}
	}
	if !hasUpper(value) {
		return ""
	}
	for _, v := range r.values {
		if len(v) == len(value) && strings.EqualFold(v, value) {
			return v
		}
	}
	return ""
}

// isRegistryKey reports whether name (in any case) is a registry key, whose
// values compare case-insensitively: "format" or "verbosity".
func isRegistryKey(name string) bool {
	r := lookup(name)
	return r != nil && r.kind == key
}

// hasUpper reports whether s has an ASCII capital letter: names and values
// without one can only match the registry's own spelling.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

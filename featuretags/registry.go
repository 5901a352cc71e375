package featuretags

import "strings"

// The names of the v1.0 tag registry.
const (
	Agent       = "agent"       // the client is an AI agent
	Human       = "human"       // a person reads the results
	Interactive = "interactive" // the client can present UI to a person
	MCPCapable  = "mcp-capable" // the client understands MCP tool and resource names
	Sampling    = "sampling"    // the client samples; it wants reasoning hints
	Elicitation = "elicitation" // the client claims the elicitation capability
	Roots       = "roots"       // the client claims the roots capability
	Tasks       = "tasks"       // the client claims the tasks capability
	Format      = "format"      // key: json, text, markdown, toon or html
	Verbosity   = "verbosity"   // key: compact, standard or verbose
)

// The values the registry keys take.
const (
	ValueJSON     = "json"
	ValueText     = "text"
	ValueMarkdown = "markdown"
	ValueTOON     = "toon" // Token-Oriented Object Notation, text/toon
	ValueHTML     = "html" // the markdown rendering as HTML, text/html
	ValueCompact  = "compact"
	ValueStandard = "standard"
	ValueVerbose  = "verbose"
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
	{Agent, flag, nil},
	{Human, flag, nil},
	{Interactive, flag, nil},
	{MCPCapable, flag, nil},
	{Sampling, flag, nil},
	{Elicitation, flag, nil},
	{Roots, flag, nil},
	{Tasks, flag, nil},
	{Format, key, []string{ValueJSON, ValueText, ValueMarkdown, ValueTOON, ValueHTML}},
	{Verbosity, key, []string{ValueCompact, ValueStandard, ValueVerbose}},
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
	case Agent:
		return 0
	case Human:
		return 1
	case Interactive:
		return 2
	case MCPCapable:
		return 3
	case Sampling:
		return 4
	case Elicitation:
		return 5
	case Roots:
		return 6
	case Tasks:
		return 7
	case Format:
		return 8
	case Verbosity:
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

// IsRegistryKey reports whether name (in any case) is a registry key, whose
// values compare case-insensitively: "format" or "verbosity".
func IsRegistryKey(name string) bool {
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

// Package featuretags parses the feature tags of the MCP content-negotiation
// extension ("agent", "!interactive", "format=json", "format!=markdown",
// "x-acme=Terse", ...) into a [Set] that can be queried, plus a list of
// [Diagnostic] values saying what was wrong with the input:
//
//	set, diags := featuretags.Parse([]string{"agent", "format=json"})
//	set.Has("agent"); set.Negated("interactive"); set.Value("format"); set.Excludes("format", "markdown")
//
// [ParseValue] reads the features value as an SDK decodes it from JSON.
//
// The package is the grammar only: it knows the v1.0 tag registry (which
// names exist and which values "format" and "verbosity" take), but nothing
// about MCP, profiles or renderings, and it does no I/O. Package
// negotiation turns a client's whole settings into a profile.
//
// Parsing is total. Parse never fails, never panics and never returns an
// error: invalid tags are dropped with a diagnostic. Its cost is bounded
// whatever the input: at most 64 tags are read, and a tag longer than 128
// bytes is invalid.
//
// # Grammar
//
//	tag        = inequality / negation / equality / presence   ; tried in this order
//	presence   = name
//	negation   = "!" name
//	equality   = name "=" value
//	inequality = name "!=" value
//	name       = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." )
//	value      = 1*( ALPHA / DIGIT / "-" / "_" / "." / "+" / ":" )
//
// Names, and the values of the registry keys "format" and "verbosity",
// compare case-insensitively and are stored in lower case. Values of other
// keys, vendor ("x-") keys among them, keep their case.
//
// # The v1.0 registry
//
// Flags, given bare or negated: agent, human, interactive, mcp-capable,
// sampling, elicitation, roots, tasks. Keys, given "=" or "!=" a value:
// format (json, text, markdown, toon, html, and the names passed to Parse)
// and verbosity (compact, standard, verbose). A registry name in a form it
// does not take, or a key with a value it does not take, is dropped with a
// diagnostic; any other name is free, and "x-" names are for vendors.
package featuretags

// Package featuretags parses the feature tags of the MCP content-negotiation
// extension ("agent", "!interactive", "format=json", "format!=markdown",
// "x-acme=Terse", ...) into a [Set] that can be queried, plus a list of
// [Diagnostic] values saying what was wrong with the input.
//
// The package is the grammar only: it knows the v1.0 tag registry (which
// names exist and which values "format" and "verbosity" take), but nothing
// about MCP, profiles or renderings, and it does no I/O.
//
// Parsing is total. [Parse] never fails, never panics and never returns an
// error: invalid tags are dropped with a diagnostic. Its cost is bounded by
// [MaxTags] and [MaxTagLen] whatever the input.
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
package featuretags

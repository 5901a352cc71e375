// Package format is the vocabulary of what a client gets (contract section
// 4): a [Format] is a name a client asks for with "format=", the media type
// it is served as, and the [Rendering] that produces it; [Verbosity] is how
// much a rendering says. Every package of the module speaks of formats in
// these words: negotiation chooses one, renderers produce one, shaping and
// the front ends serve one.
//
//	format.Markdown.MediaType             // "format=markdown" is served as text/markdown
//	p.Rendering() == format.RenderingText // how a profile's results are shaped
//	format.ParseVerbosity("compact")      // a "verbosity=" value: Compact
//
// The package decides nothing: negotiation lists the formats a server can
// choose (the built-in ones, here, and those it registers, of
// [RenderingCustom]) and chooses among them. It sits under negotiation and
// renderers.
package format

import "github.com/contentneg/contentneg/internal/tagspec"

// Rendering is how a result is shaped for a client.
type Rendering uint8

const (
	// RenderingPassThrough: the handler's result, unchanged.
	RenderingPassThrough Rendering = iota
	// RenderingStructured: structuredContent, with its JSON mirrored in one text block.
	RenderingStructured
	// RenderingMarkdown: one markdown text block.
	RenderingMarkdown
	// RenderingText: one plain-text block with no markup at all.
	RenderingText
	// RenderingCustom: one text block of a media type the server registered,
	// such as text/csv.
	RenderingCustom
	// RenderingTOON: one text block of TOON (text/toon), the value in
	// Token-Oriented Object Notation.
	RenderingTOON
	// RenderingHTML: one text block of HTML (text/html): the markdown rendering
	// converted by goldmark, every data value escaped, no HTML from data.
	RenderingHTML
)

// String returns "pass-through", "structured", "markdown", "text", "custom",
// "toon" or "html".
func (r Rendering) String() string {
	switch r {
	case RenderingStructured:
		return "structured"
	case RenderingMarkdown:
		return "markdown"
	case RenderingText:
		return "text"
	case RenderingCustom:
		return "custom"
	case RenderingTOON:
		return "toon"
	case RenderingHTML:
		return "html"
	default:
		return "pass-through"
	}
}

// Format is one output format: the name a client asks for ("format=json"),
// the media type it is served as, and the rendering that makes it. The zero
// Format is no format ("unset"). A format a server registers has
// [RenderingCustom].
type Format struct {
	// Name is the value of "format=", lower case.
	Name string
	// MediaType is the media type, lower case, without parameters.
	MediaType string
	// Rendering makes it.
	Rendering Rendering
}

// String returns the format's name, or "unset" for the zero Format.
func (f Format) String() string {
	if f.Name == "" {
		return "unset"
	}
	return f.Name
}

// The built-in formats, in the order a server offers them. Their names are
// the values the tag registry lists for "format".
var (
	// JSON is "format=json": structuredContent, application/json.
	JSON = Format{"json", "application/json", RenderingStructured}
	// Markdown is "format=markdown": text/markdown.
	Markdown = Format{"markdown", "text/markdown", RenderingMarkdown}
	// Text is "format=text": text/plain with no markup at all.
	Text = Format{"text", "text/plain", RenderingText}
	// TOON is "format=toon": text/toon, the value in Token-Oriented Object
	// Notation.
	TOON = Format{"toon", "text/toon", RenderingTOON}
	// HTML is "format=html": text/html, the markdown rendering as HTML with
	// every data value escaped.
	HTML = Format{"html", "text/html", RenderingHTML}
)

// Verbosity is how much a rendering says. The zero Verbosity is unset: the
// client gave no usable "verbosity=" tag, and renderers treat it as
// Standard.
type Verbosity uint8

const (
	// Compact drops explanatory text and empty fields.
	Compact Verbosity = iota + 1
	// Standard is the default.
	Standard
	// Verbose adds field descriptions, units and hints.
	Verbose
)

// String returns "unset", "compact", "standard" or "verbose".
func (v Verbosity) String() string {
	switch v {
	case Compact:
		return tagspec.Compact
	case Standard:
		return tagspec.Standard
	case Verbose:
		return tagspec.Verbose
	default:
		return "unset"
	}
}

// ParseVerbosity reads a value of "verbosity=" ("compact", "standard",
// "verbose", lower case, as the tag grammar stores it); ok is false for any
// other string.
func ParseVerbosity(name string) (v Verbosity, ok bool) {
	switch name {
	case tagspec.Compact:
		return Compact, true
	case tagspec.Standard:
		return Standard, true
	case tagspec.Verbose:
		return Verbose, true
	}
	return 0, false
}

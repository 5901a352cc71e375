// Package format is the vocabulary of what a client gets (contract section
// 4): a [Format] is a name a client asks for with "format=", the media type
// it is served as, and the [Rendering] that produces it; [Verbosity] is how
// much a rendering says. Every package of the module speaks of formats in
// these words: negotiation chooses one, renderers produce one, shaping and
// the front ends serve one.
//
// The package decides nothing. It sits under negotiation and renderers, and
// imports only featuretags, whose registry spells the names.
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

// The media types of the built-in formats.
const (
	// MediaJSON is the structured rendering: structuredContent.
	MediaJSON = "application/json"
	// MediaMarkdown is the markdown rendering.
	MediaMarkdown = "text/markdown"
	// MediaText is the plain-text rendering.
	MediaText = "text/plain"
	// MediaTOON is the TOON rendering: Token-Oriented Object Notation.
	MediaTOON = "text/toon"
	// MediaHTML is the HTML rendering: the markdown rendering as HTML,
	// every data value escaped.
	MediaHTML = "text/html"
)

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

// The built-in formats.
var (
	// JSON is "format=json": structuredContent, application/json.
	JSON = Format{tagspec.JSON, MediaJSON, RenderingStructured}
	// Markdown is "format=markdown": text/markdown.
	Markdown = Format{tagspec.Markdown, MediaMarkdown, RenderingMarkdown}
	// Text is "format=text": text/plain with no markup.
	Text = Format{tagspec.Text, MediaText, RenderingText}
	// TOON is "format=toon": text/toon.
	TOON = Format{tagspec.TOON, MediaTOON, RenderingTOON}
	// HTML is "format=html": text/html.
	HTML = Format{tagspec.HTML, MediaHTML, RenderingHTML}
)

// builtin is the table the lookups read: a copy, which a change to the
// exported variables cannot reach.
var builtin = [...]Format{JSON, Markdown, Text, TOON, HTML}

// Builtin returns the built-in formats, in the order a server offers them:
// json, markdown, text, toon, html.
func Builtin() [5]Format { return builtin }

// ByName returns the built-in format named name (lower case, as the tag
// grammar stores it).
func ByName(name string) (Format, bool) {
	for i := range builtin {
		if builtin[i].Name == name {
			return builtin[i], true
		}
	}
	return Format{}, false
}

// ByMediaType returns the built-in format served as mediaType (lower case,
// without parameters).
func ByMediaType(mediaType string) (Format, bool) {
	for i := range builtin {
		if builtin[i].MediaType == mediaType {
			return builtin[i], true
		}
	}
	return Format{}, false
}

// ByRendering returns the built-in format that r makes; false for
// pass-through and custom renderings, which have none.
func ByRendering(r Rendering) (Format, bool) {
	for i := range builtin {
		if builtin[i].Rendering == r {
			return builtin[i], true
		}
	}
	return Format{}, false
}

// Verbosity is how much a rendering says.
type Verbosity uint8

const (
	// VerbosityUnset: no usable "verbosity=" tag. Renderers treat it as Standard.
	VerbosityUnset Verbosity = iota
	// Compact drops explanatory text and empty fields.
	Compact
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

// OrStandard returns v, or Standard when v is unset.
func (v Verbosity) OrStandard() Verbosity {
	if v == VerbosityUnset {
		return Standard
	}
	return v
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
	return VerbosityUnset, false
}

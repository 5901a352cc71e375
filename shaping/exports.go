package shaping

import (
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

// What front ends need of the packages below the core, so that they import
// the core alone and no decision can be written in a front end twice.

// ExtensionID is the extension's identifier, the key of its settings in a
// client's capabilities.
const ExtensionID = negotiation.ExtensionID

// Negotiator chooses a profile from a client's settings or an HTTP Accept
// header: see [Shaper.Negotiator] for a shaper's, which knows the formats
// added with [Shaper.AddFormat].
type Negotiator = negotiation.Negotiator

// RenderGeneric renders a JSON value with the generic renderer of
// mediaType (markdown, plain text, TOON): what a front end gives for values
// no tool produced, such as listings.
func RenderGeneric(value []byte, mediaType string) (string, error) {
	return renderers.Generic{}.Render(value, renderers.Options{MediaType: mediaType})
}

// The built-in formats a front end names.
var (
	// JSON is application/json: structuredContent, and every body of the
	// REST binding that is not a rendering.
	JSON = format.JSON
	// Markdown is text/markdown.
	Markdown = format.Markdown
	// Text is text/plain.
	Text = format.Text
	// HTML is text/html, which the REST binding serves browsers.
	HTML = format.HTML
)

// ParseVerbosity reads a verbosity name ("compact", "standard",
// "verbose", lower case): see [format.ParseVerbosity].
func ParseVerbosity(name string) (format.Verbosity, bool) { return format.ParseVerbosity(name) }

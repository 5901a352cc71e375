package shaping

import (
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

// NewNegotiator returns a negotiator of the built-in formats.
func NewNegotiator() *Negotiator { return negotiation.New(nil) }

// RenderGeneric renders a JSON value with the generic renderer of
// mediaType (markdown, plain text, TOON): what a front end gives for values
// no tool produced, such as listings.
func RenderGeneric(value []byte, mediaType string) (string, error) {
	return renderers.Generic{}.Render(value, renderers.Options{MediaType: mediaType})
}

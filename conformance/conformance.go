// Package conformance holds the conformance kit of the content-negotiation
// extension as data any implementation can use, in any language:
// profiles.json (feature-tag and profile vectors, SPEC sections 2-4),
// renderings.json (what a server must put on the wire for each client
// profile, SPEC sections 4-6) and values.json (which tool results have a
// canonical value, and what the structured rendering makes of it, SPEC
// section 5). This package embeds the three and decodes the last two;
// package conformance/check runs them against a live server, and
// cmd/contentneg-conformance is its command line. It never contacts a
// server itself.
package conformance

import (
	_ "embed" // the vectors
	"encoding/json"
	"fmt"
)

// ProfilesJSON is profiles.json: feature-tag and profile vectors.
//
//go:embed profiles.json
var ProfilesJSON []byte

// RenderingsJSON is renderings.json: the rendering expectations.
//
//go:embed renderings.json
var RenderingsJSON []byte

// ValuesJSON is values.json: the canonical-value vectors.
//
//go:embed values.json
var ValuesJSON []byte

// Rendering names what a server must give a client for a successful call.
type Rendering string

// The renderings of SPEC section 4.
const (
	PassThrough Rendering = "pass-through"
	Structured  Rendering = "structured"
	Markdown    Rendering = "markdown"
	Text        Rendering = "text"
	TOON        Rendering = "toon"
)

// Case is one client of renderings.json and what it must get.
type Case struct {
	// Name names the case in reports.
	Name string `json:"name"`
	// Settings is the value under capabilities.extensions[ID]; nil means
	// the extension is not declared.
	Settings map[string]any `json:"settings,omitempty"`
	// Elicitation says whether the client declares the elicitation
	// capability; nil means it does.
	Elicitation *bool `json:"elicitation,omitempty"`
	// Rendering is what the server must give the client.
	Rendering Rendering `json:"rendering"`
	// ExplicitJSON marks a structured rendering asked for with format=json.
	ExplicitJSON bool `json:"explicitJSON,omitempty"`
	// Mirror marks a structured rendering chosen by audience alone.
	Mirror bool `json:"mirror,omitempty"`
	// Interactive is false for a client the server must never elicit
	// from; nil means the case says nothing about it.
	Interactive *bool `json:"interactive,omitempty"`
	// Hints says whether the client may receive hint blocks.
	Hints bool `json:"hints,omitempty"`
	// Checks names the checks the case feeds.
	Checks []string `json:"checks"`
}

// DeclaresElicitation reports whether the case's client declares the
// elicitation capability.
func (c Case) DeclaresElicitation() bool { return c.Elicitation == nil || *c.Elicitation }

// NotInteractive reports whether the server must never elicit from the
// case's client.
func (c Case) NotInteractive() bool { return c.Interactive != nil && !*c.Interactive }

// Renderings decodes renderings.json.
func Renderings() ([]Case, error) {
	var doc struct {
		Cases []Case `json:"cases"`
	}
	if err := json.Unmarshal(RenderingsJSON, &doc); err != nil {
		return nil, fmt.Errorf("conformance: decode renderings.json: %w", err)
	}
	return doc.Cases, nil
}

// Value is one case of values.json: a tool result and its canonical value.
type Value struct {
	// Name names the case.
	Name string `json:"name"`
	// Result is a successful tools/call result as the handler gives it.
	Result json.RawMessage `json:"result"`
	// Canonical is the result's canonical value; nil when it has none.
	Canonical json.RawMessage `json:"canonical,omitempty"`
	// Mirror is the text block beside structuredContent for a client that
	// gets the structured rendering by its audience alone ("agent").
	Mirror string `json:"mirror,omitempty"`
}

// Values decodes values.json.
func Values() ([]Value, error) {
	var doc struct {
		Cases []Value `json:"cases"`
	}
	if err := json.Unmarshal(ValuesJSON, &doc); err != nil {
		return nil, fmt.Errorf("conformance: decode values.json: %w", err)
	}
	return doc.Cases, nil
}

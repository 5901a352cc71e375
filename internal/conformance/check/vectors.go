package check

import (
	"encoding/json"
	"fmt"

	"github.com/contentneg/contentneg/conformance"
)

// Case is one client of renderings.json and what it must get
// (conformance/README.md describes the fields).
type Case struct {
	// Name names the case in reports.
	Name string `json:"name"`
	// Settings is the value under capabilities.extensions[ID]; nil means
	// the extension is not declared.
	Settings map[string]any `json:"settings,omitempty"`
	// Elicitation says whether the client declares the elicitation
	// capability; nil means it does.
	Elicitation *bool `json:"elicitation,omitempty"`
	// Rendering is what the server must give the client: "pass-through",
	// "structured", "markdown", "text" or "toon" (SPEC section 4).
	Rendering string `json:"rendering"`
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
	if err := json.Unmarshal(conformance.RenderingsJSON, &doc); err != nil {
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
	if err := json.Unmarshal(conformance.ValuesJSON, &doc); err != nil {
		return nil, fmt.Errorf("conformance: decode values.json: %w", err)
	}
	return doc.Cases, nil
}

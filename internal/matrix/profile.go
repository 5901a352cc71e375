package matrix

import (
	"strings"

	"github.com/contentneg/contentneg/featuretags"
)

// Profile is one client of the matrix: a name and the feature tags it
// declares.
type Profile struct {
	// Name labels the profile in the output.
	Name string `json:"name"`
	// Tags are the features the client declares. nil means the client does
	// not declare the extension at all; an empty, non-nil slice declares it
	// with no features.
	Tags []string `json:"tags"`
}

// Declared reports whether the profile declares the extension.
func (p Profile) Declared() bool { return p.Tags != nil }

// TagList returns the tags for display: "(not declared)" for nil tags,
// "(no features)" for an empty list, else the tags joined by ", ".
func (p Profile) TagList() string {
	switch {
	case p.Tags == nil:
		return "(not declared)"
	case len(p.Tags) == 0:
		return "(no features)"
	}
	return strings.Join(p.Tags, ", ")
}

// Warnings returns what the feature-tag grammar says about the profile's
// tags (invalid, contradictory, unknown ...). A profile with warnings is
// still run: how a server treats such tags is worth seeing.
func (p Profile) Warnings() []string {
	if p.Tags == nil {
		return nil
	}
	_, diags := featuretags.Parse(p.Tags)
	if len(diags) == 0 {
		return nil
	}
	out := make([]string, len(diags))
	for i, d := range diags {
		out[i] = d.String()
	}
	return out
}

// Presets returns the four built-in profiles, in this order: "undeclared"
// (no extension), "agent" (agent, format=json, verbosity=compact), "human"
// (human, format=markdown) and "terminal" (format=text, verbosity=compact).
func Presets() []Profile {
	return []Profile{
		{Name: "undeclared"},
		{Name: "agent", Tags: []string{"agent", "format=json", "verbosity=compact"}},
		{Name: "human", Tags: []string{"human", "format=markdown"}},
		{Name: "terminal", Tags: []string{"format=text", "verbosity=compact"}},
	}
}

// Package conformance holds the conformance kit of the content-negotiation
// extension as data any implementation can use, in any language, embedded
// for Go programs: profiles.json (feature-tag and profile vectors, SPEC
// sections 2-4), renderings.json (what a server must put on the wire for
// each client profile, SPEC sections 4-6) and values.json (which tool
// results have a canonical value, and what the structured rendering makes
// of it, SPEC section 5). README.md beside the files describes their
// fields; cmd/contentneg-conformance runs them against a live server. The
// package never contacts a server itself.
package conformance

import _ "embed" // the vectors

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

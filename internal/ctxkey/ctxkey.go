// Package ctxkey holds the context keys the core's packages share, so that
// none of them is an exported, reassignable variable.
package ctxkey

// Carrier is the key of a context value that carries a client's profile
// (package negotiation's Carrier): package shaping's call answers it, and
// negotiation.FromContext asks it.
type Carrier struct{}

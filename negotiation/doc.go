// Package negotiation turns what an MCP client declared for the
// content-negotiation extension into a [Profile], and decides from it how
// results are rendered: structured, markdown, text, TOON, HTML, a format the
// server added, or passed through.
//
// A handler served through one of the module's front ends reads the
// profile of its client from its context, and may attach reasoning hints
// for clients that want them:
//
//	p, _ := negotiation.FromContext(ctx) // nil (not declared) is a valid profile
//	if p.Audience() == negotiation.Agent { ... }
//	if p.WantsHints() {
//		negotiation.AddHints(ctx, "It will rain: suggest an umbrella.")
//	}
//
// The front ends (package shaping, under the SDK adapters) make the
// profiles with a [Negotiator] and keep them per session, in a [Store] for
// transports that do not; [FromTags] makes one for a test. The package
// imports no MCP SDK, so every decision is made here once.
//
// Tags shape content; capabilities govern protocol actions. A profile never
// allows a request to the client on its own: [Profile.ElicitationGate] takes
// the client's real capability.
package negotiation

// Package shaping decides what a negotiated result carries on the wire: for
// a client's profile and a handler's result, which text block replaces the
// handler's, whether structuredContent stays, and where hints go (contract
// sections 5 and 7).
//
// It works on SDK-neutral descriptions of results ([Result], [Resource]) and
// returns a [Plan]; the SDK front ends translate their types to and from it,
// so a second front end is a thin file, not a copy. It also bounds the
// elicitations front ends wait on ([Shaper.Question]: a timeout, the
// session's end, [Shaper.Close] at shutdown) and words a recovered panic
// ([Shaper.Recovered]). It never imports an MCP SDK and never chooses the
// rendering: the profile does.
package shaping

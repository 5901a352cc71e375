// Package shaping is the core of content negotiation: it owns every call.
// [ServeTool], [ServeResource], [ServePrompt], [Serve] and [Send] take one
// request through the contract's decisions: whose profile it is
// ([Shaper.Resolve]), whether the elicitation gate stands between the
// handler and the client ([Call], [Gate]), what the result becomes
// ([Shaper.Tool], [Shaper.ReadResource], [Shaper.Prompt]), what "not found"
// is ([NotFound]) and what a panicking handler is ([Options.Recover]).
//
// A front end (an SDK's middleware, the REST binding) gives it a port
// ([ToolPort], [ResourcePort], [PromptPort], [SendPort]) that answers what
// needs the SDK's types: the request's facts, running the handler with
// given answers, what a result holds, and rebuilding it from the planned
// blocks. Ports never decide, and front ends import no other package of
// the core: [Options] are every front end's options. It also bounds the
// elicitations front ends wait on ([Shaper.Question]: a timeout, the
// session's end, [Shaper.Close] at shutdown). It never imports an MCP SDK
// and never chooses the rendering: the profile does.
package shaping

// Package shaping is the core of content negotiation: it owns every call a
// front end serves (an SDK's middleware, the REST binding, the gateway), and
// makes every decision of the contract in one place. It never imports an
// MCP SDK and never chooses the rendering: the client's profile does.
//
// # One call
//
// A front end hands each tools/call to [ServeTool], with its [Shaper] and a
// port (the example of ServeTool serves calls through a toy front end).
// ServeTool then:
//
//  1. resolves the client's profile from the request's facts, a [Request]
//     the port gives: its own _meta capabilities ([Capabilities]), the
//     session's initialize capabilities, the profile store, the operator's
//     default tags; a format argument the model gave ([Argument], taken out
//     of the arguments with [Shaper.TakeArgument]) overrides it for the call;
//  2. passes a client that did not declare the extension straight through:
//     the handler's result comes back as it is, at no allocation;
//  3. runs the handler with the profile in its context
//     (negotiation.FromContext), behind the elicitation gate: a client that
//     cannot answer is never asked, and the handler gets the gate's refusal
//     ([Refused]); a handler's helper that would ask asks [GateClosed] and
//     answers with [Refuse];
//  4. plans what the result becomes for the profile (structured, markdown,
//     text, TOON, HTML or a registered format, with hints for the
//     assistant) and has the port rebuild it from [Block]s;
//  5. with [Options].Recover, turns a panicking handler into a tool error.
//
// [ServeResource] serves resources/read the same way, its contents
// described as [Content] and rebuilt from [ContentPlan]s; every form of
// "not found" ([ErrNotFound] on the handler's side) becomes the contract's
// error. [ServePrompt] serves prompts/get, [Serve] any other request (the
// profile in the context, recovery), and [Send] sends the legacy era's
// elicitation/create through the gate.
//
// # Ports
//
// A front end answers what needs its SDK's types through a port:
// [ToolPort], [ResourcePort], [PromptPort], all built on [Port], and
// [SendPort]. A port gives the request's facts, runs the handler, says
// what a result holds and rebuilds it from the plan; it never decides.
//
// # A server
//
// A server makes one Shaper with [New]. Its [Options] say how each tool
// renders ([Tool], by name), what clients that declare nothing get (the
// default tags), whether the model may pick a call's format (the format
// argument), what a format=json client gets beside structuredContent, and
// whether a panicking handler is recovered. It may add renderers
// ([Shaper.Register], [Shaper.Handle]) and formats ([Shaper.AddFormat]),
// then checks its options ([Shaper.Check]) before serving.
//
// # Sessions and questions
//
// A legacy-era session's profile is negotiated once ([Shaper.Initialize])
// and forgotten when the connection ends ([Shaper.EndSession]). Send bounds
// the elicitations a handler waits on: a timeout
// ([Options].QuestionTimeout), the session's end ([Shaper.EndQuestions]),
// the server's shutdown ([Shaper.Close]).
//
// # What front ends need of the packages below
//
// Front ends import no other package of the core, so that no decision can
// be written in one twice: [ExtensionID] names the extension, the
// [Negotiator] ([Shaper.Negotiator]) picks a format from an HTTP Accept
// header, [RenderGeneric] renders values no tool produced, and [JSON],
// [Markdown], [Text], [HTML] and [ParseVerbosity] are the formats and
// verbosities the REST binding names.
package shaping

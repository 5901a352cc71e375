// Package shaping is the core of content negotiation: it owns every call a
// front end serves (an SDK's middleware, the REST binding, the gateway), and
// makes every decision of the contract in one place.
//
// # A server
//
// A server makes one [Shaper] with [New]: its [Options] say how each tool
// renders ([Tool]), what clients that declare nothing get (the operator's
// default tags), whether the model may pick a call's format (the format
// argument) and whether a panicking handler is recovered. It may add
// renderers ([Shaper.Register], [Shaper.Handle]) and formats
// ([Shaper.AddFormat]), then checks its defaults ([Shaper.Check]) before
// serving.
//
// # One call
//
// A front end serves each tools/call with [ServeTool], each resources/read
// with [ServeResource], each prompts/get with [ServePrompt], any other
// request with [Serve] ([KindOf] tells which), and sends each
// elicitation/create with [Send]. ServeTool, for one tools/call:
//
//  1. resolves the client's profile from the request's facts (a [Request]):
//     its own _meta capabilities, the session's initialize capabilities,
//     the profile store, the default tags; the format argument, when the
//     model gave one ([Shaper.TakeArgument]), overrides it for the call;
//  2. runs the handler with the profile in its context
//     (negotiation.FromContext; [CallFrom] for the handler's helpers),
//     behind the elicitation gate: a client that cannot answer is never
//     asked, and the handler gets the gate's refusal ([Refused]);
//  3. plans what the result becomes for the profile (structured, markdown,
//     text, TOON, HTML or a registered format, with hints for the
//     assistant) and has the front end rebuild it ([Block]);
//  4. with [Options.Recover], turns a panicking handler into a tool error.
//
// A client that did not declare the extension gets the handler's result as
// it is, and costs no allocation. The example of [ServeTool] serves calls
// through a toy front end.
//
// # Ports
//
// A front end answers what needs its SDK's types through a port
// ([ToolPort], [ResourcePort], [PromptPort], [SendPort], all built on
// [Port]): the request's facts, running the handler, what a result holds
// ([Content] for resources), and rebuilding it from the plan ([Block],
// [ContentPlan]). Ports never decide, and front ends import no other
// package of the core: [Options] are every front end's options, and
// [ExtensionID], [Settings], [Negotiator] and [RenderGeneric] are what they
// need of the packages below.
//
// # Sessions and questions
//
// A legacy-era session's profile is negotiated once ([Shaper.Initialize])
// and forgotten when the connection ends ([Shaper.EndSession]). [Send]
// bounds the elicitations a handler waits on: a timeout
// ([Options.QuestionTimeout]), the session's end ([Shaper.EndQuestions]),
// the server's shutdown ([Shaper.Close]). A resource that does not exist is
// [ErrNotFound] on the handler's side and [NotFoundCode] on the wire, in
// every form a handler may say it ([NotFound]).
//
// The package never imports an MCP SDK and never chooses the rendering:
// the profile does.
package shaping

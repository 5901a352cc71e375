package shaping

import (
	"context"
	"errors"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/ctxkey"
	"github.com/contentneg/contentneg/internal/notfound"
)

// A front end serves tools/call, resources/read and prompts/get through
// [ServeTool], [ServeResource] and [ServePrompt]: the core owns the call
// (resolution, the gate, recovery from panics, what becomes of the result)
// and the front end answers the questions it cannot answer without its
// SDK's types, through a port. A port is long-lived (one per front end and
// server); what belongs to one request travels as Req, a value, so that
// serving a client that did not declare the extension allocates nothing.

// Port is what every kind of call needs of a front end. Req is the front
// end's description of one request (the SDK's request and what runs its
// handler), Res the SDK's result.
type Port[Req, Res any] interface {
	// Facts returns what the SDK knows of the request's client (see
	// [Request]) and what the request is about: the tool or prompt name,
	// or the resource URI. It may leave facts.SessionKey nil when making
	// the key costs something: the core then asks [Port.SessionKey] when it
	// needs the key.
	Facts(req Req) (facts Request, name string)
	// SessionKey returns the request's connection key (see
	// Request.SessionKey), nil for none.
	SessionKey(req Req) (key any)
	// Run runs the handler once in ctx: with the request as it came when
	// refused is the zero [Refused], else with refused's answers laid over
	// the request's own input responses, and its request state.
	Run(ctx context.Context, req Req, refused Refused) (res Res, err error)
	// Answered returns the ids of the elicitation answers the request
	// carries in its own input responses, and its request state.
	Answered(req Req) (ids []string, state string)
	// Asked returns the ids of the elicitation input requests a result
	// carries (the stateless era's questions), and its request state.
	Asked(res Res) (ids []string, state string)
	// Internal returns the protocol error of a failed request with text.
	Internal(text string) error
}

// Refused is what the elicitation gate answers in the client's place when
// it runs a handler again (contract section 6): a client whose gate is
// closed is never asked, and its handler gets the refusal instead.
type Refused struct {
	// IDs are the ids of the elicitations answered with Action, laid over
	// the request's own input responses; nil when the request runs as it
	// came.
	IDs []string
	// Action is the gate's refusal: "decline" or "cancel" ([Options].Refusal).
	Action string
	// State is the request state to pass back with the answers.
	State string
}

// ToolPort is a front end's side of tools/call.
type ToolPort[Req, Res any] interface {
	Port[Req, Res]
	// Status says whether a result is a tool error or asks for input;
	// ok is false for a nil result, which is left to the SDK.
	Status(res Res) (isError, needsInput, ok bool)
	// Value returns structuredContent as JSON, nil when the result has
	// none; ok is false when it cannot be encoded (the result then stays as
	// it is).
	Value(res Res) (value []byte, ok bool)
	// Struct reports whether the result's structuredContent is a Go struct
	// value, or a pointer to one, so that the JSON of Value has the
	// struct's field order, which wins over the output schema's (contract
	// section 5, "Order and identity").
	Struct(res Res) bool
	// TextIsValue reports whether the result's content is one text block
	// whose text is exactly value (a typed tool's JSON text), so that the
	// core need not ask for the texts.
	TextIsValue(res Res, value []byte) bool
	// Blocks says, for each content block of the result, whether it is a
	// text block, and returns the text of the text blocks in order.
	Blocks(res Res) (isText []bool, texts []string)
	// Schema identifies the tool's registration (any comparable value that
	// changes when the tool is registered again) and returns its output
	// schema's JSON lazily: doc is called once per registration, and
	// returns nil when the tool declares none. found is false when the
	// front end does not know the tool.
	Schema(req Req, tool string) (identity any, doc func() []byte, found bool)
	// Rebuild returns a new result holding blocks, in order,
	// without structuredContent when drop, with structuredContent set to
	// the JSON structured when it is not nil; res itself is not changed.
	Rebuild(res Res, blocks []Block, drop bool, structured []byte) Res
	// Failed returns a tool error result with text.
	Failed(text string) Res
}

// ServeTool serves one tools/call (contract sections 1, 5, 6 and 9), in
// this order:
//
//  1. the request's facts ([Port] Facts) give the client's profile, in the
//     contract's order: the request's own _meta capabilities, the session's
//     initialize capabilities ([Shaper.Initialize]), the profile store by
//     session id, the operator's default tags ([Options].Default);
//  2. a format argument the model gave ([Request].Argument) overrides the
//     profile's format for this call; an invalid one is a tool error;
//  3. a client that did not declare the extension gets the handler's result
//     as it is, and the call costs no allocation;
//  4. for the others the handler runs ([Port] Run) with the profile in its
//     context (negotiation.FromContext, and [GateClosed] and [Refuse] for
//     the handler's helpers), behind the elicitation gate: a client that cannot answer is
//     never asked, the answers it carries are replaced by the gate's refusal
//     ([Refused]), and a handler that keeps asking gets a tool error;
//  5. the result is planned for the profile and rebuilt by the port
//     ([ToolPort] Rebuild): the structured rendering keeps
//     structuredContent with its minified JSON as the text (or what
//     [Options.Mirror] says for a client's own format=json); markdown,
//     text, TOON, HTML or a registered format replace the text blocks with
//     one rendered block ([Shaper.Register], [Shaper.Handle]), and
//     structuredContent stays only when the tool declares an output schema
//     (read from the port only when the rendering needs it); a result that
//     is one text block of JSON is treated as its value; hints for the
//     assistant go in a block of their own. Tool errors and results asking
//     for input stay as they are, and a renderer that fails gives the
//     structured rendering.
//
// With [Options.Recover], a panicking handler is a tool error for every
// client: one error log line with the stack, the panic's value never sent.
func ServeTool[Req, Res any](ctx context.Context, s *Shaper, port ToolPort[Req, Res], req Req) (res Res, err error) {
	facts, name := port.Facts(req)
	if s.recover {
		defer func() {
			if v := recover(); v != nil {
				res, err = port.Failed(s.recovered("tools/call", name, v)), nil
			}
		}()
	}
	who := resolvePort(s, Port[Req, Res](port), req, &facts)
	if facts.Argument.Given {
		// The model chose this call's format (contract section 1): it
		// overrides the profile's, for this call only.
		p, failed := s.withArgument(who.Profile, facts.Argument)
		if failed != "" {
			return port.Failed(failed), nil
		}
		who.Profile = p
		if facts.SessionKey == nil {
			facts.SessionKey = port.SessionKey(req)
		}
	}
	if !who.Profile.Declared() {
		return port.Run(ctx, req, Refused{})
	}
	call := s.begin(who, facts.SessionKey, "tools/call", name)
	call.argument = facts.Argument.Given
	defer call.end()
	ctx = call.withContext(ctx)
	res, err = gated(ctx, call, Port[Req, Res](port), req)
	if err != nil {
		if still, ok := stillAsking(err); ok {
			return port.Failed(still.Error()), nil
		}
		return res, err
	}
	return rewriteTool(s, call, port, req, res), nil
}

// stillAsking returns the *StillAskingError err is, if it is one.
func stillAsking(err error) (*stillAskingError, bool) {
	if err == nil {
		return nil, false
	}
	var still *stillAskingError
	ok := errors.As(err, &still)
	return still, ok
}

// gated runs the handler behind the elicitation gate: the answers the
// request carries are replaced by the refusal when forged, and the
// handler's elicitation input requests are answered with it.
func gated[Req, Res any](ctx context.Context, call *call, port Port[Req, Res], req Req) (Res, error) {
	if !call.closed {
		return port.Run(ctx, req, Refused{})
	}
	refusal := call.s.refusal.String()
	var forged []string
	ids, state := port.Answered(req)
	forged = call.forged(ids)
	return gate(call, func(refused []string, st string) (Res, error) {
		switch {
		case refused != nil:
			return port.Run(ctx, req, Refused{IDs: append(refused, forged...), Action: refusal, State: st})
		case forged != nil:
			return port.Run(ctx, req, Refused{IDs: forged, Action: refusal, State: state})
		}
		return port.Run(ctx, req, Refused{})
	}, port.Asked)
}

// rewriteTool rewrites a result as planTool plans it.
func rewriteTool[Req, Res any](s *Shaper, call *call, port ToolPort[Req, Res], req Req, res Res) Res {
	isError, needsInput, ok := port.Status(res)
	if !ok || isError || needsInput {
		return res // the handler's error or question stands as it is, hints included
	}
	p := call.client.Profile
	in := toolResult{Tool: call.name, Hints: call.handlerHints(), FormatArgument: call.argument}
	rendering := p.Rendering()
	if rendering == format.RenderingPassThrough && len(in.Hints) == 0 {
		return res
	}
	value, ok := port.Value(res)
	if !ok {
		return res // not JSON: nothing can be rendered
	}
	var isText []bool
	if value == nil {
		// Only a result without a value needs its texts.
		isText, in.Texts = port.Blocks(res)
		in.NonText = len(isText) - len(in.Texts)
	} else {
		in.Value, in.MirrorsValue, in.FromStruct = value, port.TextIsValue(res, value), port.Struct(res)
		if s.needsSchema(p, in.FormatArgument) {
			info := portSchema(s, port, req, call.name)
			in.HasOutputSchema, in.Schema = info.HasOutputSchema, info.Schema
		}
	}
	plan := s.planTool(p, in)
	if plan.unchanged() {
		return res
	}
	if isText == nil {
		isText, _ = port.Blocks(res)
	}
	return port.Rebuild(res, plan.blocks(isText), plan.DropStructured, plan.Structured)
}

// toolInfo returns what is known of the tool's output schema, parsed once
// per registration (see outputSchema).
func portSchema[Req, Res any](s *Shaper, port ToolPort[Req, Res], req Req, name string) schemaInfo {
	identity, doc, found := port.Schema(req, name)
	if !found {
		return schemaInfo{}
	}
	return s.outputSchema(identity, doc)
}

// ResourcePort is a front end's side of resources/read.
type ResourcePort[Req, Res any] interface {
	Port[Req, Res]
	// Code returns the JSON-RPC error code err carries, 0 when none.
	Code(err error) int64
	// Empty reports whether a result has an empty list of contents and asks
	// for no input.
	Empty(res Res) bool
	// Contents describes a result's contents; ok is false for a result the
	// core leaves to the SDK (nil, asking for input, or holding a content
	// of a kind it does not know).
	Contents(res Res) (contents []Content, ok bool)
	// Exact reports whether the server registers a resource under exactly
	// uri, rather than serving it through a URI template (see
	// [ServeResource]); false when the front end cannot tell.
	Exact(req Req, uri string) bool
	// Rebuild returns a new result holding the contents plans describe.
	Rebuild(res Res, plans []ContentPlan) Res
	// NotFound returns the outcome that tells the client the resource uri
	// does not exist (contract section 7, SEP-2093): the JSON-RPC error
	// -32602 with the message "Resource not found" and the data
	// {"uri": uri} where the SDK can carry it, the handler's own outcome
	// (res, err) where it cannot.
	NotFound(uri string, res Res, err error) (Res, error)
}

// ServeResource serves one resources/read (contract section 7): for every
// client, every form of "not found" ([ErrNotFound], fs.ErrNotExist, the
// earlier specifications' -32002, an empty list of contents) becomes the
// front end's not-found error ([ResourcePort] NotFound); for a client that declared the extension, the profile
// goes into the handler's context, the elicitation gate stands between the
// handler and the client, and the contents are narrowed and rendered for
// the profile: of format alternatives (contents sharing a URI) the one that
// matches the rendering is kept; JSON is rendered as markdown or text by
// the renderer registered under the URI or, for a resource served through
// a URI template ([ResourcePort] Exact false), under the first template
// that matches it; markdown becomes plain text for the text rendering;
// blobs never change. With [Options.Recover], a panicking handler is an
// internal error.
func ServeResource[Req, Res any](ctx context.Context, s *Shaper, port ResourcePort[Req, Res], req Req) (res Res, err error) {
	facts, uri := port.Facts(req)
	if s.recover {
		defer recoverInternal(s, Port[Req, Res](port), "resources/read", uri, &res, &err)
	}
	who := resolvePort(s, Port[Req, Res](port), req, &facts)
	if !who.Profile.Declared() {
		return notFound(port, uri)(port.Run(ctx, req, Refused{}))
	}
	call := s.begin(who, facts.SessionKey, "resources/read", uri)
	defer call.end()
	ctx = call.withContext(ctx)
	res, err = gatedInternal(ctx, call, Port[Req, Res](port), req)
	if res, err = notFound(port, uri)(res, err); err != nil {
		return res, err
	}
	contents, ok := port.Contents(res)
	if !ok {
		return res, nil
	}
	plans := s.planResource(call.client.Profile, uri, port.Exact(req, uri), contents)
	if plans == nil {
		return res, nil
	}
	return port.Rebuild(res, plans), nil
}

// notFound returns a function that turns a resources/read outcome that
// means "not found" into the port's not-found error.
func notFound[Req, Res any](port ResourcePort[Req, Res], uri string) func(Res, error) (Res, error) {
	return func(res Res, err error) (Res, error) {
		var code int64
		if err != nil {
			code = port.Code(err)
		}
		if notfound.Outcome(err, code, err == nil && port.Empty(res)) {
			return port.NotFound(uri, res, err)
		}
		return res, err
	}
}

// PromptPort is a front end's side of prompts/get.
type PromptPort[Req, Res any] interface {
	Port[Req, Res]
	// Texts returns the text of each text message of a result, in order;
	// ok is false for a result the core leaves to the SDK (nil, or asking
	// for input).
	Texts(res Res) (texts []string, ok bool)
	// Rebuild returns a new result whose text messages hold texts, one for
	// one.
	Rebuild(res Res, texts []string) Res
}

// ServePrompt serves one prompts/get (contract section 7): for a client
// that declared the extension, the profile goes into the handler's
// context, the elicitation gate stands between the handler and the client,
// and markdown texts become plain text for the text rendering (escaped
// HTML for the HTML rendering). With [Options.Recover], a panicking handler
// is an internal error.
func ServePrompt[Req, Res any](ctx context.Context, s *Shaper, port PromptPort[Req, Res], req Req) (res Res, err error) {
	facts, name := port.Facts(req)
	if s.recover {
		defer recoverInternal(s, Port[Req, Res](port), "prompts/get", name, &res, &err)
	}
	who := resolvePort(s, Port[Req, Res](port), req, &facts)
	if !who.Profile.Declared() {
		return port.Run(ctx, req, Refused{})
	}
	call := s.begin(who, facts.SessionKey, "prompts/get", name)
	defer call.end()
	ctx = call.withContext(ctx)
	res, err = gatedInternal(ctx, call, Port[Req, Res](port), req)
	if err != nil {
		return res, err
	}
	texts, ok := port.Texts(res)
	if !ok {
		return res, nil
	}
	converted := s.planPrompt(call.client.Profile, texts)
	if converted == nil {
		return res, nil
	}
	return port.Rebuild(res, converted), nil
}

// SendPort is a front end's side of the legacy era's elicitation/create,
// the one request a server sends that the contract gates.
type SendPort[Req, Res any] interface {
	// Session identifies the connection the request goes to: a key (nil
	// for none) and the transport's session id ("" for none).
	Session(req Req) (key any, id string)
	// Send sends the request and waits for the answer in ctx.
	Send(ctx context.Context, req Req) (Res, error)
	// Answer returns the elicitation result with action ("decline",
	// "cancel").
	Answer(action string) Res
}

// Send sends one elicitation/create (contract section 6): to a client whose
// gate is closed it is never sent, and the gate's refusal
// ([Options].Refusal) is the answer; otherwise the answer is awaited, and the
// question ends as "cancel" when its time is up ([Options.QuestionTimeout]),
// its session ends ([Shaper.EndQuestions], [Shaper.EndSession]) or the
// shaper is closed ([Shaper.Close]).
func Send[Req, Res any](ctx context.Context, s *Shaper, port SendPort[Req, Res], req Req) (Res, error) {
	key, id := port.Session(req)
	if s.gateSending(ctx, key) {
		return port.Answer(s.refusal.String()), nil
	}
	qctx, done := s.questionContext(ctx, key, id)
	defer done()
	res, err := port.Send(qctx, req)
	if err != nil && unanswered(qctx) != nil {
		return port.Answer("cancel"), nil
	}
	return res, err
}

// Serve serves any other request (tools/list, completion, ...):
// the handler gets the profile of a client that declared the extension in
// its context, and the result goes back as it is. With [Options.Recover],
// a panicking handler is an internal error.
func Serve[Req, Res any](ctx context.Context, s *Shaper, port Port[Req, Res], req Req, method string) (res Res, err error) {
	facts, name := port.Facts(req)
	if s.recover {
		defer recoverInternal(s, Port[Req, Res](port), method, name, &res, &err)
	}
	who := resolvePort(s, port, req, &facts)
	if who.Profile.Declared() {
		ctx = context.WithValue(ctx, ctxkey.Carrier{}, who.Profile) // for negotiation.FromContext
	}
	return port.Run(ctx, req, Refused{})
}

// resolvePort resolves the client of a request (Shaper.resolve), asking the
// port for the connection key only when a kept session or the store may
// know the client, or the client declared the extension.
func resolvePort[Req, Res any](s *Shaper, port Port[Req, Res], req Req, facts *Request) client {
	if facts.SessionKey == nil && !facts.HasMeta && !facts.Stateless &&
		(!facts.HasSession || facts.Session.declares() || s.sessions.store != nil) {
		facts.SessionKey = port.SessionKey(req)
	}
	who := s.resolve(facts)
	if who.Profile.Declared() && facts.SessionKey == nil {
		facts.SessionKey = port.SessionKey(req)
	}
	return who
}

// recoverInternal, deferred by a Serve function when [Options.Recover] is
// on, turns a panic of the handler serving method for name into the port's
// internal error (contract section 9: a failed call, the panic value never
// sent, one error log line).
func recoverInternal[Req, Res any](s *Shaper, port Port[Req, Res], method, name string, res *Res, err *error) {
	if v := recover(); v != nil {
		var zero Res
		*res, *err = zero, port.Internal(s.recovered(method, name, v))
	}
}

// gatedInternal is [gated] for the requests whose failures are internal
// errors (resources/read, prompts/get): a handler that keeps asking becomes
// the port's internal error.
func gatedInternal[Req, Res any](ctx context.Context, call *call, port Port[Req, Res], req Req) (Res, error) {
	res, err := gated(ctx, call, port, req)
	if still, ok := stillAsking(err); ok {
		var zero Res
		return zero, port.Internal(still.Error())
	}
	return res, err
}

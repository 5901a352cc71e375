package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/contentneg/contentneg/internal/gostruct"
	"github.com/contentneg/contentneg/shaping"
)

// toolMiddleware is the tool handler middleware: every call goes through
// shaping.ServeTool, which, for a client that declared the extension, puts
// the profile in the handler's context, keeps elicitations away from a
// client that cannot answer them (inputRequests are answered with the
// gate's refusal, and answers the client made up are replaced by it), and
// renders the result; with Options.Recover, a panicking handler is a tool
// error. Other clients' calls go to next untouched.
func (a *Adapter) toolMiddleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req, arg := takeCarried(req)
		return shaping.ServeTool(ctx, a.shaper, &a.tool, toolCall{ctx: ctx, next: next, req: req, arg: arg})
	}
}

// toolCall is one tools/call as the tool port sees it.
type toolCall struct {
	ctx  context.Context
	next server.ToolHandlerFunc
	req  mcp.CallToolRequest
	arg  shaping.Argument // the per-call format argument, taken out of req
}

// toolPort is mcp-go's side of tools/call.
type toolPort struct{}

var _ shaping.ToolPort[toolCall, *mcp.CallToolResult] = (*toolPort)(nil)

func (*toolPort) Facts(x toolCall) (shaping.Request, string) {
	r := facts(x.ctx, x.req.Params.Meta)
	r.Argument = x.arg
	return r, x.req.Params.Name
}

func (*toolPort) SessionKey(x toolCall) any { return sessionKeyOf(x.ctx) }

func (*toolPort) Run(ctx context.Context, x toolCall, refused shaping.Refused) (*mcp.CallToolResult, error) {
	req := x.req
	if refused.IDs != nil {
		req.Params.MultiRoundTripParams = answered(req.Params.MultiRoundTripParams, refused.IDs, refused.Action, refused.State)
	}
	return x.next(ctx, req)
}

func (*toolPort) Answered(x toolCall) ([]string, string) {
	return answeredIDs(x.req.Params.MultiRoundTripParams)
}

func (*toolPort) Asked(r *mcp.CallToolResult) ([]string, string) {
	if r == nil {
		return nil, ""
	}
	return asked(r.NeedsInput(), r.MultiRoundTripResult)
}

func (*toolPort) Internal(text string) error { return errors.New(text) }

func (*toolPort) Status(r *mcp.CallToolResult) (isError, needsInput, ok bool) {
	if r == nil {
		return false, false, false
	}
	return r.IsError, r.NeedsInput() || len(r.InputRequests) > 0, true
}

// Value returns structuredContent as JSON; RawStructuredContent wins over
// StructuredContent on the wire.
func (*toolPort) Value(r *mcp.CallToolResult) ([]byte, bool) {
	switch {
	case len(r.RawStructuredContent) > 0:
		return r.RawStructuredContent, true
	case r.StructuredContent != nil:
		v, err := json.Marshal(r.StructuredContent)
		return v, err == nil
	}
	return nil, true
}

// Struct reports whether the value is a Go struct, encoded in its fields'
// order (mcp.NewToolResultStructuredOnly(v)); RawStructuredContent wins.
func (*toolPort) Struct(r *mcp.CallToolResult) bool {
	return len(r.RawStructuredContent) == 0 && gostruct.Is(r.StructuredContent)
}

func (*toolPort) TextIsValue(r *mcp.CallToolResult, value []byte) bool {
	if len(r.Content) != 1 {
		return false
	}
	t, ok := mcp.AsTextContent(r.Content[0])
	return ok && t.Text == string(value)
}

func (*toolPort) Blocks(r *mcp.CallToolResult) ([]bool, []string) {
	isText := make([]bool, len(r.Content))
	var texts []string
	for i, c := range r.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			isText[i] = true
			texts = append(texts, t.Text)
		}
	}
	return isText, texts
}

// Schema finds the tool with the server's own lookup, srv.GetTool.
func (*toolPort) Schema(x toolCall, name string) (any, func() []byte, bool) {
	srv := server.ServerFromContext(x.ctx)
	if srv == nil {
		return nil, nil, false
	}
	t := srv.GetTool(name)
	if t == nil {
		return nil, nil, false
	}
	key := toolKey{srv: srv, name: name}
	schema := []byte(t.Tool.RawOutputSchema)
	switch {
	case len(schema) > 0:
		key.raw = &schema[0]
	case t.Tool.OutputSchema.Type != "":
		schema, _ = json.Marshal(t.Tool.OutputSchema)
		key.schema = string(schema)
	default:
		schema = nil
	}
	return key, func() []byte { return schema }, true
}

func (*toolPort) Rebuild(r *mcp.CallToolResult, blocks []shaping.Block, drop bool, structured []byte) *mcp.CallToolResult {
	out := *r
	out.Content = make([]mcp.Content, 0, len(blocks))
	for _, b := range blocks {
		switch {
		case b.ForAssistant:
			hint := mcp.NewTextContent(b.Text)
			hint.Annotations = &mcp.Annotations{Audience: []mcp.Role{mcp.RoleAssistant}}
			out.Content = append(out.Content, hint)
		case b.From < 0:
			out.Content = append(out.Content, mcp.NewTextContent(b.Text))
		case b.Replaced:
			converted, _ := mcp.AsTextContent(r.Content[b.From])
			converted.Text = b.Text
			out.Content = append(out.Content, *converted)
		default:
			out.Content = append(out.Content, r.Content[b.From])
		}
	}
	if drop {
		// RawStructuredContent wins over StructuredContent on the wire.
		out.StructuredContent, out.RawStructuredContent = nil, nil
	}
	if structured != nil {
		out.StructuredContent, out.RawStructuredContent = nil, json.RawMessage(structured)
	}
	return &out
}

func (*toolPort) Failed(text string) *mcp.CallToolResult { return mcp.NewToolResultError(text) }

// toolKey identifies a tool registration: its server, name and output
// schema, by the address of the schema's bytes (stable across GetTool's
// copies, new when the tool is registered again) or, for a schema given as
// a struct, by its JSON.
type toolKey struct {
	srv    *server.MCPServer
	name   string
	raw    *byte
	schema string
}

// answeredIDs returns the ids of the elicitation answers among the input
// responses, and the request state. An input response is an elicitation
// answer when it decodes as one with an action.
func answeredIDs(p mcp.MultiRoundTripParams) ([]string, string) {
	var ids []string
	for id, r := range p.InputResponses {
		if r.Elicitation == nil && r.DecodeFor(mcp.MethodElicitationCreate) != nil {
			continue
		}
		if r.Elicitation != nil && r.Elicitation.Action != "" {
			ids = append(ids, id)
		}
	}
	return ids, p.RequestState
}

// answered returns the request's input responses with the refusal laid
// over the ids given, and the request state.
func answered(p mcp.MultiRoundTripParams, ids []string, action, state string) mcp.MultiRoundTripParams {
	out := maps.Clone(p.InputResponses)
	if out == nil {
		out = make(mcp.InputResponses, len(ids))
	}
	for _, id := range ids {
		out[id] = answer(action)
	}
	return mcp.MultiRoundTripParams{InputResponses: out, RequestState: state}
}

// answer is an elicitation answer with action.
func answer(action string) mcp.InputResponse {
	return mcp.NewElicitationInputResponse(mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseAction(action),
	}})
}

// asked describes a result's elicitation input requests for the core's
// elicitation gate (shaping.ToolPort's Asked).
func asked(needsInput bool, r mcp.MultiRoundTripResult) (ids []string, state string) {
	state = r.RequestState
	if !needsInput {
		return ids, state
	}
	for id, in := range r.InputRequests {
		if in.Method == mcp.MethodElicitationCreate {
			ids = append(ids, id)
		}
	}
	return ids, state
}

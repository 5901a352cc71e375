package middleware

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/gostruct"
	"github.com/contentneg/contentneg/internal/notfound"
	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/shaping"
)

// exchange is one request as the ports see it: the SDK's request and the
// handler below the middleware that serves it.
type exchange struct {
	next   mcp.MethodHandler
	method string
	req    mcp.Request
	arg    shaping.Argument // the per-call format argument, taken out of req
}

// port is what the three kinds of call share: the go-sdk's answers to
// shaping.Port.
type port struct{}

func (port) Facts(x exchange) (shaping.Request, string) {
	facts := sdk.RequestFacts(x.req)
	facts.Argument = x.arg
	return facts, sdk.RequestName(x.req)
}

// Run runs the handlers below the middleware, with the gate's answers laid
// over the request's own. When the gate is closed, the SDK's legacy-era
// bridge's refusal to ask a client without the capability becomes the
// result that asked, for the gate to answer.
func (port) Run(ctx context.Context, x exchange, refused shaping.Refused) (mcp.Result, error) {
	req := x.req
	if refused.IDs != nil {
		req = retryWith(req, refusals(refused.IDs, refused.Action), refused.State)
	}
	res, err := x.next(ctx, x.method, req)
	if err == nil {
		return res, nil
	}
	if closed, _ := shaping.GateClosed(ctx); closed {
		if id, ok := sdk.BridgeRefusal(err); ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{id: &mcp.ElicitParams{}}}, nil
		}
	}
	return res, err
}

func (port) Answered(x exchange) ([]string, string) {
	responses, state := inputResponsesOf(x.req)
	var ids []string
	for id, r := range responses {
		if _, isElicit := r.(*mcp.ElicitResult); isElicit {
			ids = append(ids, id)
		}
	}
	return ids, state
}

func (port) Asked(res mcp.Result) (ids []string, state string) {
	var inputs mcp.InputRequestMap
	switch r := res.(type) {
	case *mcp.CallToolResult:
		if r != nil {
			inputs, state = r.InputRequests, r.RequestState
		}
	case *mcp.GetPromptResult:
		if r != nil {
			inputs, state = r.InputRequests, r.RequestState
		}
	case *mcp.ReadResourceResult:
		if r != nil {
			inputs, state = r.InputRequests, r.RequestState
		}
	}
	for id, in := range inputs {
		if _, isElicit := in.(*mcp.ElicitParams); isElicit {
			ids = append(ids, id)
		}
	}
	return ids, state
}

// Internal is the protocol error of a failed request.
func (port) Internal(text string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: text}
}

// toolPort is the go-sdk's side of tools/call.
type toolPort struct {
	port
	tools *catalog
}

var _ shaping.ToolPort[exchange, mcp.Result] = (*toolPort)(nil)

func (*toolPort) Status(res mcp.Result) (isError, needsInput, ok bool) {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil {
		return false, false, false
	}
	return r.IsError, len(r.InputRequests) > 0 || r.NeedsInput(), true
}

// Value returns structuredContent as JSON: typed tools give a
// json.RawMessage as is; any other value is encoded as the SDK would.
func (*toolPort) Value(res mcp.Result) ([]byte, bool) {
	r := res.(*mcp.CallToolResult)
	switch v := r.StructuredContent.(type) {
	case nil:
		return nil, true
	case json.RawMessage:
		return v, true
	}
	v, err := json.Marshal(r.StructuredContent)
	return v, err == nil
}

// Struct reports whether structuredContent is a Go struct (a plain handler's
// own value; typed tools give a json.RawMessage, in sorted order).
func (*toolPort) Struct(res mcp.Result) bool {
	return gostruct.Is(res.(*mcp.CallToolResult).StructuredContent)
}

func (*toolPort) TextIsValue(res mcp.Result, value []byte) bool {
	content := res.(*mcp.CallToolResult).Content
	if len(content) != 1 {
		return false
	}
	t, ok := content[0].(*mcp.TextContent)
	return ok && t != nil && t.Text == string(value)
}

func (*toolPort) Blocks(res mcp.Result) ([]bool, []string) {
	content := res.(*mcp.CallToolResult).Content
	isText := make([]bool, len(content))
	var texts []string
	for i, c := range content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			isText[i] = true
			texts = append(texts, t.Text)
		}
	}
	return isText, texts
}

// Schema finds the tool as the SDK keeps its registration
// (sdk.RegisteredTool) or, where that cannot be read or the server serves
// tools it does not register (a gateway's mirror), in the server's
// tools/list results seen so far: the go-sdk has no public lookup of a
// registered tool, and the middleware makes no request of its own.
func (p *toolPort) Schema(x exchange, name string) (any, func() []byte, bool) {
	ss, _ := x.req.GetSession().(*mcp.ServerSession)
	tool, found, readable := sdk.RegisteredTool(ss, name)
	if !readable || !found {
		tool, found = p.tools.tool(name)
	}
	if !found {
		return nil, nil, false
	}
	return tool, func() []byte {
		if tool.OutputSchema == nil {
			return nil
		}
		doc, _ := json.Marshal(tool.OutputSchema)
		return doc
	}, true
}

func (*toolPort) Rebuild(res mcp.Result, blocks []shaping.Block, drop bool, structured []byte) mcp.Result {
	r := res.(*mcp.CallToolResult)
	out := *r
	out.Content = make([]mcp.Content, 0, len(blocks))
	for _, b := range blocks {
		switch {
		case b.ForAssistant:
			out.Content = append(out.Content, &mcp.TextContent{Text: b.Text, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}})
		case b.From < 0:
			out.Content = append(out.Content, &mcp.TextContent{Text: b.Text})
		case b.Replaced:
			converted := *r.Content[b.From].(*mcp.TextContent)
			converted.Text = b.Text
			out.Content = append(out.Content, &converted)
		default:
			out.Content = append(out.Content, r.Content[b.From])
		}
	}
	if drop {
		out.StructuredContent = nil
	}
	if structured != nil {
		out.StructuredContent = json.RawMessage(structured)
	}
	return &out
}

func (*toolPort) Failed(text string) mcp.Result {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// resourcePort is the go-sdk's side of resources/read.
type resourcePort struct{ port }

var _ shaping.ResourcePort[exchange, mcp.Result] = (*resourcePort)(nil)

func (*resourcePort) Code(err error) int64 {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		return wire.Code
	}
	return 0
}

func (*resourcePort) Empty(res mcp.Result) bool {
	r, _ := res.(*mcp.ReadResourceResult)
	return r != nil && r.Contents != nil && len(r.Contents) == 0 && len(r.InputRequests) == 0
}

func (*resourcePort) Contents(res mcp.Result) ([]shaping.Content, bool) {
	r, ok := res.(*mcp.ReadResourceResult)
	if !ok || r == nil || len(r.InputRequests) > 0 {
		return nil, false
	}
	contents := make([]shaping.Content, 0, len(r.Contents))
	for _, rc := range r.Contents {
		if rc == nil {
			return nil, false // a result the SDK would not send either; leave it to the SDK
		}
		contents = append(contents, shaping.Content{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Blob: rc.Blob != nil})
	}
	return contents, true
}

// Exact tells a resource registered under its own URI from one a URI
// template serves, as the SDK keeps them (sdk.ExactResource).
func (*resourcePort) Exact(x exchange, uri string) bool {
	exact, _ := sdk.ExactResource(x.req, uri)
	return exact
}

func (*resourcePort) Rebuild(res mcp.Result, plans []shaping.ContentPlan) mcp.Result {
	r := res.(*mcp.ReadResourceResult)
	out := *r
	out.Contents = make([]*mcp.ResourceContents, len(plans))
	for i, plan := range plans {
		rc := *r.Contents[plan.From]
		if plan.Changed {
			rc.MIMEType, rc.Text = plan.MIMEType, plan.Text
		}
		out.Contents[i] = &rc
	}
	return &out
}

func (*resourcePort) NotFound(uri string, _ mcp.Result, _ error) (mcp.Result, error) {
	return nil, &jsonrpc.Error{Code: notfound.Code, Message: notfound.Message, Data: notfound.Data(uri)}
}

// promptPort is the go-sdk's side of prompts/get.
type promptPort struct{ port }

var _ shaping.PromptPort[exchange, mcp.Result] = (*promptPort)(nil)

func (*promptPort) Texts(res mcp.Result) ([]string, bool) {
	r, ok := res.(*mcp.GetPromptResult)
	if !ok || r == nil || len(r.InputRequests) > 0 {
		return nil, false
	}
	var texts []string
	for _, msg := range r.Messages {
		if t, ok := textOf(msg); ok {
			texts = append(texts, t.Text)
		}
	}
	return texts, true
}

func (*promptPort) Rebuild(res mcp.Result, converted []string) mcp.Result {
	r := res.(*mcp.GetPromptResult)
	out := *r
	out.Messages = make([]*mcp.PromptMessage, len(r.Messages))
	i := 0
	for j, msg := range r.Messages {
		out.Messages[j] = msg
		if t, ok := textOf(msg); ok {
			content, message := *t, *msg
			content.Text = converted[i]
			i++
			message.Content = &content
			out.Messages[j] = &message
		}
	}
	return &out
}

func textOf(msg *mcp.PromptMessage) (*mcp.TextContent, bool) {
	if msg == nil {
		return nil, false
	}
	t, ok := msg.Content.(*mcp.TextContent)
	return t, ok && t != nil
}

// refusals answers each id with action.
func refusals(ids []string, action string) mcp.InputResponseMap {
	out := make(mcp.InputResponseMap, len(ids))
	for _, id := range ids {
		out[id] = &mcp.ElicitResult{Action: action}
	}
	return out
}

func inputResponsesOf(req mcp.Request) (mcp.InputResponseMap, string) {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if p != nil {
			return p.InputResponses, p.RequestState
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.InputResponses, p.RequestState
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.InputResponses, p.RequestState
		}
	}
	return nil, ""
}

// retryWith returns a copy of req whose input responses are the request's
// own with answers laid over them, and whose request state is state. req
// itself is not changed; a request of another kind is returned as it is.
func retryWith(req mcp.Request, answers mcp.InputResponseMap, state string) mcp.Request {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	merge := func(own mcp.InputResponseMap) mcp.InputResponseMap {
		out := maps.Clone(own)
		if out == nil {
			out = make(mcp.InputResponseMap, len(answers))
		}
		maps.Copy(out, answers)
		return out
	}
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.CallToolRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}
	case *mcp.GetPromptParams:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.GetPromptRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}
	case *mcp.ReadResourceParams:
		cp := *p
		cp.InputResponses, cp.RequestState = merge(p.InputResponses), state
		return &mcp.ReadResourceRequest{Session: ss, Params: &cp, Extra: req.GetExtra()}
	}
	return req
}

func (port) SessionKey(x exchange) any { return sdk.RequestFacts(x.req).SessionKey }

// completeTemplate is a tools/call result whose resultType is "complete":
// the SDK keeps resultType unexported, and only decoding sets it.
var completeTemplate = func() mcp.CallToolResult {
	var r mcp.CallToolResult
	_ = json.Unmarshal([]byte(`{"content":[],"resultType":"complete"}`), &r)
	return r
}()

// complete returns a tool error result of a stateless-era request with
// resultType "complete", as the SDK gives the results of tool handlers: a
// tool error the core made (a format argument it cannot render, a
// recovered panic, a handler that keeps asking) never reaches the SDK's
// handler, which sets it, and a 2026-07-28 client refuses a result
// without it. Other results are returned as they are.
func complete(req mcp.Request, res mcp.Result) mcp.Result {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil || !r.IsError || r.NeedsInput() || len(r.InputRequests) > 0 || !sdk.RequestFacts(req).Stateless {
		return res
	}
	out := completeTemplate
	out.Meta, out.Content, out.StructuredContent, out.IsError, out.RequestState = r.Meta, r.Content, r.StructuredContent, true, r.RequestState
	if err := r.GetError(); err != nil {
		out.SetError(err)
	}
	return &out
}

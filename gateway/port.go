package gateway

import (
	"context"

	"github.com/contentneg/contentneg/internal/notfound"
	"github.com/contentneg/contentneg/internal/rawjson"
	"github.com/contentneg/contentneg/shaping"
)

// The gateway is a front end like the SDKs' middleware: it answers the
// core's questions about a request and its result from their JSON, and the
// core (package shaping) decides. Req is *exchange, Res the result's bytes.

// exchange is one request of a client's as the ports see it.
type exchange struct {
	ctx    context.Context // for the lists the ports may need to read
	s      *session
	m      *message
	params []byte // the params to forward: the format argument taken out
	facts  shaping.Request
	name   string // the tool or prompt name, or the resource URI
}

// exchange describes a request for the core.
func (s *session) exchange(ctx context.Context, m *message) *exchange {
	x := &exchange{ctx: ctx, s: s, m: m, params: m.params}
	member := "name"
	if m.method == "resources/read" {
		member = "uri"
	}
	if v, ok := rawjson.Get(m.params, member); ok {
		x.name, _ = rawjson.String(v)
	}
	if _, ok := rawjson.Path(m.params, "_meta", "io.modelcontextprotocol/clientCapabilities"); ok {
		x.facts.Meta, x.facts.HasMeta = capabilitiesOf(m.params, "_meta", "io.modelcontextprotocol/clientCapabilities"), true
	}
	if _, ok := rawjson.Path(m.params, "_meta", "io.modelcontextprotocol/protocolVersion"); ok {
		x.facts.Stateless = true
	}
	s.mu.Lock()
	x.facts.Session, x.facts.HasSession = s.caps, s.hasCaps
	s.mu.Unlock()
	x.facts.SessionID = s.id
	x.facts.Unreadable = s.stateless && !x.facts.HasMeta && !x.facts.Stateless
	if s.down != nil {
		x.facts.SessionKey = s
	}
	if m.method == "tools/call" && s.g.shaper.FormatArgument() != "" {
		if args, ok := rawjson.Get(m.params, "arguments"); ok {
			rest, arg := s.g.shaper.TakeArgument(func() []byte {
				t, _ := s.tool(ctx, x.name)
				return t.input
			}, args)
			if arg.Given || arg.Invalid {
				x.facts.Argument = arg
				x.params = rawjson.Set(m.params, "arguments", rest)
			}
		}
	}
	return x
}

type port struct{}

func (port) Facts(x *exchange) (shaping.Request, string) { return x.facts, x.name }

func (port) SessionKey(x *exchange) any { return x.facts.SessionKey }

// Run forwards the request, with the gate's answers laid over the
// client's own input responses.
func (port) Run(ctx context.Context, x *exchange, refused shaping.Refused) ([]byte, error) {
	params := x.params
	if refused.IDs != nil {
		params = withAnswers(params, refused.IDs, refused.Action, refused.State)
	}
	return x.s.forward(ctx, x.m.method, params)
}

// withAnswers returns params whose inputResponses answer each id with
// action, and whose requestState is state.
func withAnswers(params []byte, ids []string, action, state string) []byte {
	responses, ok := rawjson.Get(params, "inputResponses")
	if !ok || len(responses) == 0 || responses[0] != '{' {
		responses = []byte("{}")
	}
	answer := rawjson.Object([]string{"action"}, [][]byte{rawjson.Quote(action)})
	for _, id := range ids {
		responses = rawjson.Set(responses, id, answer)
	}
	if params == nil {
		params = []byte("{}")
	}
	params = rawjson.Set(params, "inputResponses", responses)
	if state != "" {
		params = rawjson.Set(params, "requestState", rawjson.Quote(state))
	}
	return params
}

func (port) Answered(x *exchange) ([]string, string) {
	var ids []string
	if responses, ok := rawjson.Get(x.params, "inputResponses"); ok {
		members, _ := rawjson.Members(responses)
		for _, m := range members {
			if _, isElicit := rawjson.Get(m.Value, "action"); isElicit {
				ids = append(ids, m.Key)
			}
		}
	}
	var state string
	if v, ok := rawjson.Get(x.params, "requestState"); ok {
		state, _ = rawjson.String(v)
	}
	return ids, state
}

func (port) Asked(res []byte) (ids []string, state string) {
	if requests, ok := rawjson.Get(res, "inputRequests"); ok {
		members, _ := rawjson.Members(requests)
		for _, m := range members {
			if v, ok := rawjson.Get(m.Value, "method"); ok {
				if method, _ := rawjson.String(v); method == "elicitation/create" {
					ids = append(ids, m.Key)
				}
			}
		}
	}
	if v, ok := rawjson.Get(res, "requestState"); ok {
		state, _ = rawjson.String(v)
	}
	return ids, state
}

func (port) Internal(text string) error { return newRPCError(codeInternalError, text) }

// toolPort is the gateway's side of tools/call.
type toolPort struct{ port }

var toolPortV shaping.ToolPort[*exchange, []byte] = toolPort{}

func (toolPort) Status(res []byte) (isError, needsInput, ok bool) {
	if _, ok := rawjson.Members(res); !ok {
		return false, false, false
	}
	if v, ok := rawjson.Get(res, "isError"); ok && string(v) == "true" {
		isError = true
	}
	if v, ok := rawjson.Get(res, "inputRequests"); ok && string(v) != "null" && string(v) != "{}" {
		needsInput = true
	}
	if v, ok := rawjson.Get(res, "resultType"); ok && string(v) == `"input_required"` {
		needsInput = true
	}
	return isError, needsInput, true
}

// Value returns structuredContent's bytes as the upstream sent them.
func (toolPort) Value(res []byte) ([]byte, bool) {
	v, ok := rawjson.Get(res, "structuredContent")
	if !ok || string(v) == "null" {
		return nil, true
	}
	return v, true
}

// Struct is false: the upstream's value has its own order, the wire's.
func (toolPort) Struct([]byte) bool { return false }

func (toolPort) TextIsValue(res, value []byte) bool {
	_, texts := blocks(res)
	content, _ := rawjson.Get(res, "content")
	elems, _ := rawjson.Elements(content)
	return len(elems) == 1 && len(texts) == 1 && texts[0] == string(value)
}

func (toolPort) Blocks(res []byte) ([]bool, []string) { return blocks(res) }

// blocks says which content blocks are text, and returns their texts.
func blocks(res []byte) ([]bool, []string) {
	content, _ := rawjson.Get(res, "content")
	elems, _ := rawjson.Elements(content)
	isText := make([]bool, len(elems))
	var texts []string
	for i, e := range elems {
		if t, ok := rawjson.Get(e, "type"); !ok || string(t) != `"text"` {
			continue
		}
		v, ok := rawjson.Get(e, "text")
		if !ok {
			continue
		}
		text, ok := rawjson.String(v)
		if !ok {
			continue
		}
		isText[i] = true
		texts = append(texts, text)
	}
	return isText, texts
}

// Schema returns the output schema the upstream lists for the tool, its
// bytes as written (so the core renders in the schema's own order); the
// schema's text identifies it.
func (toolPort) Schema(x *exchange, name string) (any, func() []byte, bool) {
	t, ok := x.s.tool(x.ctx, name)
	if !ok {
		return nil, nil, false
	}
	out := t.output
	return string(out), func() []byte { return out }, true
}

// Rebuild returns the result with the planned content, every other member
// as the upstream sent it.
func (toolPort) Rebuild(res []byte, planned []shaping.Block, drop bool, structured []byte) []byte {
	content, _ := rawjson.Get(res, "content")
	elems, _ := rawjson.Elements(content)
	out := make([][]byte, 0, len(planned))
	for _, b := range planned {
		switch {
		case b.ForAssistant:
			out = append(out, rawjson.Object([]string{"type", "text", "annotations"}, [][]byte{[]byte(`"text"`), rawjson.Quote(b.Text), []byte(`{"audience":["assistant"]}`)}))
		case b.From < 0 || b.From >= len(elems):
			out = append(out, rawjson.Object([]string{"type", "text"}, [][]byte{[]byte(`"text"`), rawjson.Quote(b.Text)}))
		case b.Replaced:
			out = append(out, rawjson.Set(elems[b.From], "text", rawjson.Quote(b.Text)))
		default:
			out = append(out, elems[b.From])
		}
	}
	res = rawjson.Set(res, "content", rawjson.Array(out))
	if drop {
		res = rawjson.Delete(res, "structuredContent")
	}
	if structured != nil {
		res = rawjson.Set(res, "structuredContent", structured)
	}
	return res
}

// Failed is a tool error made by the core: the stateless era's result
// says it is complete.
func (toolPort) Failed(text string) []byte {
	return rawjson.Object([]string{"content", "isError"}, [][]byte{
		rawjson.Array([][]byte{rawjson.Object([]string{"type", "text"}, [][]byte{[]byte(`"text"`), rawjson.Quote(text)})}),
		[]byte("true"),
	})
}

// resourcePort is the gateway's side of resources/read.
type resourcePort struct{ port }

var resourcePortV shaping.ResourcePort[*exchange, []byte] = resourcePort{}

func (resourcePort) Code(err error) int64 {
	if err == nil {
		return 0
	}
	return errorOf(err).Code
}

func (resourcePort) Empty(res []byte) bool {
	contents, ok := rawjson.Get(res, "contents")
	if !ok {
		return false
	}
	elems, ok := rawjson.Elements(contents)
	if !ok || len(elems) != 0 {
		return false
	}
	_, asks := rawjson.Get(res, "inputRequests")
	return !asks
}

func (resourcePort) Contents(res []byte) ([]shaping.Content, bool) {
	if _, asks := rawjson.Get(res, "inputRequests"); asks {
		return nil, false
	}
	list, ok := rawjson.Get(res, "contents")
	if !ok {
		return nil, false
	}
	elems, ok := rawjson.Elements(list)
	if !ok {
		return nil, false
	}
	out := make([]shaping.Content, 0, len(elems))
	for _, e := range elems {
		var c shaping.Content
		if v, ok := rawjson.Get(e, "uri"); ok {
			c.URI, _ = rawjson.String(v)
		}
		if v, ok := rawjson.Get(e, "mimeType"); ok {
			c.MIMEType, _ = rawjson.String(v)
		}
		if v, ok := rawjson.Get(e, "text"); ok {
			if c.Text, ok = rawjson.String(v); !ok {
				return nil, false
			}
		} else if _, ok := rawjson.Get(e, "blob"); ok {
			c.Blob = true
		} else {
			return nil, false // a content of a kind the core does not know
		}
		out = append(out, c)
	}
	return out, true
}

func (resourcePort) Exact(x *exchange, uri string) bool { return x.s.isExact(x.ctx, uri) }

func (resourcePort) Rebuild(res []byte, plans []shaping.ContentPlan) []byte {
	list, _ := rawjson.Get(res, "contents")
	elems, _ := rawjson.Elements(list)
	out := make([][]byte, len(plans))
	for i, p := range plans {
		e := elems[p.From]
		if p.Changed {
			e = rawjson.Set(e, "mimeType", rawjson.Quote(p.MIMEType))
			e = rawjson.Set(e, "text", rawjson.Quote(p.Text))
		}
		out[i] = e
	}
	return rawjson.Set(res, "contents", rawjson.Array(out))
}

func (resourcePort) NotFound(uri string, _ []byte, _ error) ([]byte, error) {
	return nil, &jsonRPCError{Code: notfound.Code, Message: notfound.Message, Raw: errorObject(notfound.Code, notfound.Message, notfound.Data(uri))}
}

// promptPort is the gateway's side of prompts/get.
type promptPort struct{ port }

var promptPortV shaping.PromptPort[*exchange, []byte] = promptPort{}

func (promptPort) Texts(res []byte) ([]string, bool) {
	if _, asks := rawjson.Get(res, "inputRequests"); asks {
		return nil, false
	}
	list, ok := rawjson.Get(res, "messages")
	if !ok {
		return nil, false
	}
	elems, _ := rawjson.Elements(list)
	var texts []string
	for _, e := range elems {
		if t, ok := promptText(e); ok {
			texts = append(texts, t)
		}
	}
	return texts, true
}

// promptText returns the text of a prompt message holding text.
func promptText(msg []byte) (string, bool) {
	c, ok := rawjson.Get(msg, "content")
	if !ok {
		return "", false
	}
	if t, ok := rawjson.Get(c, "type"); !ok || string(t) != `"text"` {
		return "", false
	}
	v, ok := rawjson.Get(c, "text")
	if !ok {
		return "", false
	}
	return rawjson.String(v)
}

func (promptPort) Rebuild(res []byte, converted []string) []byte {
	list, _ := rawjson.Get(res, "messages")
	elems, _ := rawjson.Elements(list)
	i := 0
	for j, e := range elems {
		if _, ok := promptText(e); ok && i < len(converted) {
			c, _ := rawjson.Get(e, "content")
			elems[j] = rawjson.Set(e, "content", rawjson.Set(c, "text", rawjson.Quote(converted[i])))
			i++
		}
	}
	return rawjson.Set(res, "messages", rawjson.Array(elems))
}

// question is an elicitation/create of the upstream's, for the gate.
type question struct {
	s *session
	m *message
}

type askPort struct{}

var askPortV shaping.SendPort[*question, []byte] = askPort{}

func (askPort) Session(q *question) (any, string) { return q.s, q.s.id }

func (askPort) Send(ctx context.Context, q *question) ([]byte, error) { return q.s.ask(ctx, q.m) }

func (askPort) Answer(action string) []byte {
	return rawjson.Object([]string{"action"}, [][]byte{rawjson.Quote(action)})
}

// complete gives a stateless-era tool error the core made the resultType
// that era's clients require: the upstream's own results carry one.
func complete(x *exchange, res []byte) []byte {
	if !x.facts.Stateless || res == nil {
		return res
	}
	if _, ok := rawjson.Get(res, "resultType"); ok {
		return res
	}
	if v, ok := rawjson.Get(res, "isError"); !ok || string(v) != "true" {
		return res
	}
	return rawjson.Set(res, "resultType", []byte(`"complete"`))
}

package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/shaping"
)

// toolItem is a tool as the seed shows it.
type toolItem struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Links        links           `json:"_links,omitempty"`
}

func (h *handler) toolItem(t Tool) toolItem {
	return toolItem{
		ID: t.Name, Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: t.Annotations,
		Links: links{
			"self":    {Href: h.href("tools", t.Name)},
			"execute": {Href: h.href("tools", t.Name, "execute"), Method: http.MethodPost},
			"schema":  {Href: h.href("tools", t.Name, "schema")},
		},
	}
}

func (h *handler) tools(ctx context.Context) ([]Tool, *Error) {
	ts, err := load(h, &h.catalogs.tools, h.backend.Tools, ctx)
	if err != nil {
		return nil, h.backendError(err, "list tools")
	}
	return ts, nil
}

func (h *handler) findTool(ctx context.Context, name string) (Tool, *Error) {
	ts, e := h.tools(ctx)
	if e != nil {
		return Tool{}, e
	}
	for _, t := range ts {
		if t.Name == name {
			return t, nil
		}
	}
	return Tool{}, notFound("no tool named " + strconvQuote(name))
}

func (h *handler) listTools(q *request) *Error {
	ts, e := h.tools(q.ctx)
	if e != nil {
		return e
	}
	return serveList(h, q, "tools", ts, func(t Tool) string { return t.Name }, func(t Tool) any { return h.toolItem(t) })
}

func (h *handler) getTool(q *request) *Error {
	t, e := h.findTool(q.ctx, q.args[0])
	if e != nil {
		return e
	}
	return serveItem(q, h.toolItem(t), time.Time{})
}

func (h *handler) getSchema(q *request) *Error {
	t, e := h.findTool(q.ctx, q.args[0])
	if e != nil {
		return e
	}
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return serveItem(q, schema, time.Time{})
}

// execution is the seed's execution body.
type execution struct {
	ID                string          `json:"id"`
	Status            string          `json:"status"`
	Content           json.RawMessage `json:"content,omitempty"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	Links             links           `json:"_links"`
}

func (h *handler) execute(q *request) *Error {
	name := q.args[0]
	tool, e := h.findTool(q.ctx, name)
	if e != nil {
		return e
	}
	if form, ok, e := h.readForm(q); e != nil {
		return e
	} else if ok {
		return h.executeForm(q, tool, form)
	}
	mt, format, e := negotiate(q, h.neg)
	if e != nil {
		return e
	}
	fields, e := fieldsParam(q, mt)
	if e != nil {
		return e
	}
	args, e := h.readArguments(q)
	if e != nil {
		return e
	}
	if args == nil {
		args = json.RawMessage(`{}`)
	}
	if h.argument != nil {
		var e *Error
		if args, mt, format, e = h.takeArgument(tool, args, mt, format); e != nil {
			return e
		}
	}
	if e := h.validateArguments(tool.InputSchema, args); e != nil {
		return e
	}
	res, err := h.backend.CallTool(q.ctx, name, args, q.features(format))
	if err != nil {
		return h.backendError(err, "call tool "+name)
	}
	switch {
	case res.IsError:
		return newError(http.StatusUnprocessableEntity, codeToolError, res.Text)
	case res.NeedsInput:
		return newError(http.StatusUnprocessableEntity, codeInputRequired,
			"the tool asks the client for input (sampling or roots) that a REST client cannot give")
	}
	if mt != shaping.JSON.MediaType {
		servePOST(q, mt, []byte(res.Text))
		return nil
	}
	content := res.Content
	if len(content) == 0 {
		content = json.RawMessage("[]")
	}
	body := execution{
		ID: "exec-" + q.id, Status: "success", Content: content, StructuredContent: res.Structured,
		Links: h.execLinks.get(name, func() links {
			return links{
				"self": {Href: h.href("tools", name, "execute"), Method: http.MethodPost},
				"tool": {Href: h.href("tools", name)},
			}
		}),
	}
	if fields != nil {
		if len(res.Structured) == 0 {
			return invalid("fields needs a structured result, and this one has none", Detail{Field: "fields", Error: "no structured value"})
		}
		proj, missing := project(res.Structured, fields)
		if missing != nil {
			return unknownFields(missing)
		}
		// The content mirrors the whole value: a projection drops it.
		body.Content, body.StructuredContent = nil, proj
	}
	servePOST(q, shaping.JSON.MediaType, marshal(body))
	return nil
}

// linksCache keeps the _links of an execution per tool name: they depend
// on the base path and the name only, and are never changed once made
// (shared by the responses, read-only). Bounded: emptied when full.
type linksCache struct {
	mu sync.Mutex
	m  map[string]links
}

const maxCachedLinks = 1024

func (c *linksCache) get(name string, make func() links) links {
	c.mu.Lock()
	l, ok := c.m[name]
	c.mu.Unlock()
	if ok {
		return l
	}
	l = make()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedLinks {
		c.m = map[string]links{}
	}
	c.m[name] = l
	c.mu.Unlock()
	return l
}

// backendError maps a backend's error to the error body.
func (h *handler) backendError(err error, what string) *Error {
	switch {
	case errors.Is(err, ErrNotFound):
		return notFound(err.Error())
	case errors.Is(err, ErrInvalidArguments):
		return invalid(err.Error())
	case errors.Is(err, ErrUnavailable):
		return newError(http.StatusServiceUnavailable, codeUnavailable, what+": the server's session ended; try again")
	case errors.Is(err, context.DeadlineExceeded):
		return newError(http.StatusGatewayTimeout, codeTimeout, what+": the server did not answer in time")
	case errors.Is(err, context.Canceled):
		// The request's context ended: its client went away (no one reads
		// this), or the server is stopping and ended the calls under way.
		return newError(http.StatusServiceUnavailable, codeUnavailable, what+": the call was cancelled (the server is stopping); try again")
	}
	h.log.Error("backend failed", zap.String("what", what), zap.Error(err))
	return newError(http.StatusInternalServerError, codeInternal, what+": the server failed")
}

// serveItem answers a GET of one item: JSON (with fields=), or the item
// rendered as markdown or text by the generic renderers.
func serveItem(q *request, item any, modtime time.Time) *Error {
	mt, _, e := negotiate(q, builtin)
	if e != nil {
		return e
	}
	raw, ok := item.(json.RawMessage)
	if !ok {
		raw = marshal(item)
	}
	if mt != shaping.JSON.MediaType {
		out, err := shaping.RenderGeneric(raw, mt)
		if err != nil {
			return newError(http.StatusInternalServerError, codeInternal, "rendering failed")
		}
		serveGET(q, mt, []byte(out), modtime)
		return nil
	}
	fields, e := fieldsParam(q, mt)
	if e != nil {
		return e
	}
	if fields != nil {
		proj, missing := project(raw, fields)
		if missing != nil {
			return unknownFields(missing)
		}
		raw = append(proj, '\n')
	}
	serveGET(q, mt, raw, modtime)
	return nil
}

// serveList answers a GET of a paged list under key ("tools"), with
// fields= applied to every item (a field is unknown when no item has it).
func serveList[T any](h *handler, q *request, key string, all []T, id func(T) string, item func(T) any, extra ...any) *Error {
	mt, _, e := negotiate(q, builtin)
	if e != nil {
		return e
	}
	v := q.query()
	limit, after, e := pageParams(v)
	if e != nil {
		return e
	}
	fields, e := fieldsParam(q, mt)
	if e != nil {
		return e
	}
	items, next := page(all, id, limit, after)
	raws := make([]json.RawMessage, len(items))
	found := make(map[string]bool, len(fields))
	for i, it := range items {
		raws[i] = marshal(item(it))
		if fields != nil {
			proj, missing := project(raws[i], fields)
			raws[i] = proj
			for _, f := range fields {
				found[f] = found[f] || !contains(missing, f)
			}
		}
	}
	if fields != nil && len(items) > 0 {
		var missing []string
		for _, f := range fields {
			if !found[f] {
				missing = append(missing, f)
			}
		}
		if missing != nil {
			return unknownFields(missing)
		}
	}
	body := listBody{key: key, items: raws, next: next, links: listLinks(h.href(key), v, next)}
	if len(extra) == 2 {
		body.extraKey, body.extra = extra[0].(string), marshal(extra[1])
	}
	raw := body.marshal()
	if mt != shaping.JSON.MediaType {
		out, err := shaping.RenderGeneric(raw, mt)
		if err != nil {
			return newError(http.StatusInternalServerError, codeInternal, "rendering failed")
		}
		raw = []byte(out)
	}
	serveGET(q, mt, raw, time.Time{})
	return nil
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// listBody is a page: {"<key>": [...], "<extraKey>"?: ..., "nextCursor"?, "_links"}.
type listBody struct {
	key      string
	items    []json.RawMessage
	extraKey string
	extra    []byte
	next     string
	links    links
}

func (b listBody) marshal() []byte {
	var out []byte
	k, _ := json.Marshal(b.key)
	out = append(out, '{')
	out = append(out, k...)
	out = append(out, ":["...)
	for i, it := range b.items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, trimNL(it)...)
	}
	out = append(out, ']')
	if b.extraKey != "" {
		ek, _ := json.Marshal(b.extraKey)
		out = append(out, ',')
		out = append(out, ek...)
		out = append(out, ':')
		out = append(out, trimNL(b.extra)...)
	}
	if b.next != "" {
		nc, _ := json.Marshal(b.next)
		out = append(out, `,"nextCursor":`...)
		out = append(out, nc...)
	}
	out = append(out, `,"_links":`...)
	out = append(out, trimNL(marshal(b.links))...)
	return append(out, "}\n"...)
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	return b
}

// takeArgument takes the format argument (Options.FormatArgument) out of a
// tool execution's arguments; when the call set it, its format replaces the
// one Accept or ?format= chose, as the MCP front ends let it override the
// profile's.
func (h *handler) takeArgument(tool Tool, args json.RawMessage, mt, format string) (json.RawMessage, string, string, *Error) {
	rest, arg := h.argument.TakeArgument(func() []byte { return tool.InputSchema }, args)
	if !arg.Given {
		return rest, mt, format, nil
	}
	names := make([]string, 0, 8)
	for _, m := range h.neg.MediaTypes() {
		names = append(names, h.neg.FormatName(m))
	}
	if !arg.Invalid {
		f := strings.ToLower(arg.Value)
		for _, m := range h.neg.MediaTypes() {
			if h.neg.FormatName(m) == f {
				return rest, m, f, nil
			}
		}
	}
	return nil, "", "", newError(http.StatusUnprocessableEntity, codeToolError,
		"argument "+strconv.Quote(h.argument.FormatArgument())+" must be one of "+strings.Join(names, ", "))
}

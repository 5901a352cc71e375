package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"github.com/contentneg/contentneg/shaping"
)

// promptItem is a prompt as the seed shows it.
type promptItem struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	Arguments   []promptArgDoc `json:"arguments,omitempty"`
	Links       links          `json:"_links,omitempty"`
}

type promptArgDoc struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

func (h *handler) promptItem(p Prompt) promptItem {
	args := make([]promptArgDoc, len(p.Arguments))
	for i, a := range p.Arguments {
		args[i] = promptArgDoc(a)
	}
	return promptItem{
		ID: p.Name, Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args,
		Links: links{
			"self":   {Href: h.href("prompts", p.Name)},
			"render": {Href: h.href("prompts", p.Name, "render"), Method: http.MethodPost},
		},
	}
}

func (h *handler) prompts(ctx context.Context) ([]Prompt, *Error) {
	ps, err := load(h, &h.catalogs.prompts, h.backend.Prompts, ctx)
	if err != nil {
		return nil, h.backendError(err, "list prompts")
	}
	return ps, nil
}

func (h *handler) findPrompt(ctx context.Context, name string) (Prompt, *Error) {
	ps, e := h.prompts(ctx)
	if e != nil {
		return Prompt{}, e
	}
	for _, p := range ps {
		if p.Name == name {
			return p, nil
		}
	}
	return Prompt{}, notFound("no prompt named " + strconvQuote(name))
}

func (h *handler) listPrompts(q *request) *Error {
	ps, e := h.prompts(q.ctx)
	if e != nil {
		return e
	}
	return serveList(h, q, "prompts", ps, func(p Prompt) string { return p.Name }, func(p Prompt) any { return h.promptItem(p) })
}

func (h *handler) getPrompt(q *request) *Error {
	p, e := h.findPrompt(q.ctx, q.args[0])
	if e != nil {
		return e
	}
	return serveItem(q, h.promptItem(p), time.Time{})
}

// rendered is the seed's body of a rendered prompt.
type rendered struct {
	Description string          `json:"description,omitempty"`
	Messages    json.RawMessage `json:"messages"`
	Links       links           `json:"_links"`
}

func (h *handler) renderPrompt(q *request) *Error {
	p, e := h.findPrompt(q.ctx, q.args[0])
	if e != nil {
		return e
	}
	mt, format, e := negotiate(q, builtin)
	if e != nil {
		return e
	}
	raw, e := h.readArguments(q)
	if e != nil {
		return e
	}
	args, e := promptArguments(p, raw)
	if e != nil {
		return e
	}
	res, err := h.backend.GetPrompt(q.ctx, p.Name, args, q.features(format))
	if err != nil {
		return h.backendError(err, "render prompt "+p.Name)
	}
	if mt != shaping.JSON.MediaType {
		servePOST(q, mt, []byte(res.Text))
		return nil
	}
	servePOST(q, mt, marshal(rendered{
		Description: res.Description, Messages: res.Messages,
		Links: links{
			"self":   {Href: h.href("prompts", p.Name, "render"), Method: http.MethodPost},
			"prompt": {Href: h.href("prompts", p.Name)},
		},
	}))
	return nil
}

// promptArguments checks a prompt's arguments: strings only, each one the
// prompt takes, every required one given; a 400 names each field wrong.
func promptArguments(p Prompt, raw json.RawMessage) (map[string]string, *Error) {
	m, err := members(raw)
	if err != nil {
		return nil, membersError("arguments", err)
	}
	takes := make(map[string]bool, len(p.Arguments))
	var details []Detail
	for _, a := range p.Arguments {
		takes[a.Name] = true
		if _, ok := m[a.Name]; a.Required && !ok {
			details = append(details, Detail{Field: a.Name, Error: "required"})
		}
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		var s string
		switch {
		case !takes[k]:
			details = append(details, Detail{Field: k, Error: "the prompt takes no such argument"})
		case json.Unmarshal(v, &s) != nil:
			details = append(details, Detail{Field: k, Error: "must be a string"})
		default:
			out[k] = s
		}
	}
	if details != nil {
		sort.Slice(details, func(i, j int) bool { return details[i].Field < details[j].Field })
		return nil, invalid("invalid prompt arguments", details...)
	}
	return out, nil
}

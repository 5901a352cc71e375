package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/elnormous/contenttype"

	"github.com/contentneg/contentneg/internal/uritmpl"
	"github.com/contentneg/contentneg/shaping"
)

// resourceItem is a resource as the seed shows it; its id is its URI.
type resourceItem struct {
	ID          string          `json:"id"`
	URI         string          `json:"uri"`
	Name        string          `json:"name,omitempty"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MIMEType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Links       links           `json:"_links,omitempty"`
}

// templateItem is a resource template: its content link is templated.
type templateItem struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Links       links  `json:"_links"`
}

func (h *handler) resourceItem(r Resource) resourceItem {
	return resourceItem{
		ID: r.URI, URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
		MIMEType: r.MIMEType, Size: r.Size, Annotations: r.Annotations,
		Links: links{
			"self":    {Href: h.href("resources", r.URI)},
			"content": {Href: h.href("resources", r.URI, "content")},
		},
	}
}

func (h *handler) templateItem(t ResourceTemplate) templateItem {
	return templateItem{
		URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType,
		Links: links{"content": {Href: h.href("resources") + "/{uri}/content", Templated: true}},
	}
}

func (h *handler) resources(ctx context.Context) ([]Resource, []ResourceTemplate, *Error) {
	rs, err := load(h, &h.catalogs.resources, h.backend.Resources, ctx)
	if err != nil {
		return nil, nil, h.backendError(err, "list resources")
	}
	ts, err := load(h, &h.catalogs.templates, h.backend.ResourceTemplates, ctx)
	if err != nil {
		return nil, nil, h.backendError(err, "list resource templates")
	}
	return rs, ts, nil
}

func (h *handler) listResources(q *request) *Error {
	rs, ts, e := h.resources(q.ctx)
	if e != nil {
		return e
	}
	var extra []any
	if q.query().Get("cursor") == "" && len(ts) > 0 {
		items := make([]templateItem, len(ts))
		for i, t := range ts {
			items[i] = h.templateItem(t)
		}
		extra = []any{"resourceTemplates", items}
	}
	return serveList(h, q, "resources", rs, func(r Resource) string { return r.URI },
		func(r Resource) any { return h.resourceItem(r) }, extra...)
}

// findResource returns the listed resource with uri; for a URI that only a
// template matches, found is false and known true.
func (h *handler) findResource(ctx context.Context, uri string) (r Resource, found, known bool, e *Error) {
	rs, ts, e := h.resources(ctx)
	if e != nil {
		return r, false, false, e
	}
	for _, r := range rs {
		if r.URI == uri {
			return r, true, true, nil
		}
	}
	for _, t := range ts {
		if uritmpl.Matches(t.URITemplate, uri) {
			return Resource{URI: uri, MIMEType: t.MIMEType}, false, true, nil
		}
	}
	return r, false, false, nil
}

func (h *handler) getResource(q *request) *Error {
	uri := q.args[0]
	r, found, known, e := h.findResource(q.ctx, uri)
	if e != nil {
		return e
	}
	if !known {
		return notFound("no resource " + strconvQuote(uri))
	}
	if !found {
		// A URI of a template: read it to learn whether it exists, and what it is.
		contents, err := h.backend.ReadResource(q.ctx, uri, q.features("json"))
		if err != nil {
			return h.backendError(err, "read resource")
		}
		if len(contents) == 0 {
			return notFound("no resource " + strconvQuote(uri))
		}
		c := contents[0]
		r.MIMEType = c.MIMEType
		size := int64(len(c.Text))
		if c.IsBlob {
			size = int64(len(c.Blob))
		}
		r.Size = &size
	}
	return serveItem(q, h.resourceItem(r), time.Time{})
}

func (h *handler) getContent(q *request) *Error {
	uri := q.args[0]
	mt, format, e := negotiate(q, h.neg)
	if e != nil {
		return e
	}
	r, found, known, e := h.findResource(q.ctx, uri)
	if e != nil {
		return e
	}
	contents, err := h.backend.ReadResource(q.ctx, uri, q.features(format))
	if err != nil && !known && errors.Is(err, ErrInvalidArguments) {
		// A URI the server does not offer, refused as invalid params (as
		// the TypeScript SDK does) rather than as not found: unknown, 404.
		// An unlisted URI the server reads is still served.
		return notFound(err.Error())
	}
	if err != nil {
		return h.backendError(err, "read resource")
	}
	if len(contents) == 0 {
		return notFound("no resource " + strconvQuote(uri))
	}
	c := contents[0]
	ct := c.MIMEType
	switch {
	case ct == "" && c.IsBlob:
		ct = mediaOctetStream
	case ct == "":
		ct = shaping.Text.MediaType
	}
	// The server renders what it can; a resource it cannot render as asked
	// (a blob, plain text) is served as it is, if the client accepts that.
	if accept := strings.Join(q.r.Header.Values("Accept"), ", "); q.query().Get("format") == "" && accept != "" && !strings.HasPrefix(ct, mt) {
		if _, _, err := contenttype.GetAcceptableMediaTypeFromHeader(accept, []contenttype.MediaType{contenttype.NewMediaType(ct)}); err != nil {
			base, _, _ := strings.Cut(ct, ";")
			return newError(http.StatusNotAcceptable, codeNotAcceptable,
				"this resource is only available as "+base, Detail{MediaType: base})
		}
	}
	body := []byte(c.Text)
	if c.IsBlob {
		body = c.Blob
	}
	var modtime time.Time
	if found {
		modtime = r.LastModified
	}
	serveGET(q, ct, body, modtime)
	return nil
}

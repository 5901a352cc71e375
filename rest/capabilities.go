package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/contentneg/contentneg/shaping"
)

type serverInfo struct {
	Name            string `json:"name"`
	Title           string `json:"title,omitempty"`
	Version         string `json:"version"`
	ProtocolVersion string `json:"protocolVersion"`
}

type formatDoc struct {
	Format    string `json:"format"`
	MediaType string `json:"mediaType"`
}

type capabilitiesBody struct {
	ServerInfo   serverInfo      `json:"serverInfo"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	Instructions string          `json:"instructions,omitempty"`
	Formats      []formatDoc     `json:"formats"`
	Links        links           `json:"_links"`
}

// capabilities answers GET /capabilities (and the base path itself): the
// server's identity and capabilities, the formats it renders, and links to
// everything else.
func (h *handler) capabilities(q *request) *Error {
	s, err := h.backend.Server(q.ctx)
	if err != nil {
		return h.backendError(err, "describe the server")
	}
	var formats []formatDoc
	for _, mt := range h.neg.MediaTypes() {
		formats = append(formats, formatDoc{Format: h.neg.FormatName(mt), MediaType: mt})
	}
	return serveItem(q, capabilitiesBody{
		ServerInfo:   serverInfo{Name: s.Name, Title: s.Title, Version: s.Version, ProtocolVersion: s.ProtocolVersion},
		Capabilities: s.Capabilities,
		Instructions: s.Instructions,
		Formats:      formats,
		Links: links{
			"self":      {Href: h.href("capabilities")},
			"tools":     {Href: h.href("tools")},
			"resources": {Href: h.href("resources")},
			"prompts":   {Href: h.href("prompts")},
			"openapi":   {Href: h.href("openapi.json")},
		},
	}, time.Time{})
}

// root answers GET {base}/: the index page for a client that prefers HTML
// (a browser), else the capabilities.
func (h *handler) root(q *request) *Error {
	if mt, _, e := negotiate(q, h.neg); e == nil && mt == shaping.HTML.MediaType {
		return h.index(q)
	}
	return h.capabilities(q)
}

// healthz answers GET /healthz: 200 while the handler serves. It asks the
// backend nothing, so a probe costs nothing and says only that HTTP is
// served; a backend that fails shows in the other endpoints' 503s.
func (h *handler) healthz(q *request) *Error {
	hdr := q.w.Header()
	hdr.Set("Content-Type", shaping.JSON.MediaType)
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method != http.MethodHead {
		_, _ = q.w.Write([]byte("{\"status\":\"ok\"}\n"))
	}
	return nil
}

package negotiation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/elnormous/contenttype"
)

// errNotAcceptable reports an HTTP Accept header that accepts none of the
// media types the server can render (or cannot be read).
var errNotAcceptable = errors.New("no acceptable media type")

// FromAccept returns the profile of an HTTP client that sent this Accept
// header: the same profile as a client that declared "format=NAME" for the
// media type the header prefers (RFC 9110: q-values, q=0 excludes, the most
// specific range sets a type's quality, ties go to the server's order:
// application/json, text/markdown, text/plain, text/toon, text/html, then
// the registered formats).
// An empty header or "*/*" gives application/json. A header that accepts
// none of them, or cannot be parsed, gives an error and a nil profile (the
// REST binding answers 406).
func (n *Negotiator) FromAccept(accept string) (*Profile, error) {
	f := n.formats()
	if strings.TrimSpace(accept) == "" {
		return fromTagList(f, "format=json"), nil
	}
	available := n.MediaTypes()
	offered := make([]contenttype.MediaType, len(available))
	for i, mt := range available {
		// Text is served as UTF-8, so a range asking for that charset matches.
		offered[i] = contenttype.NewMediaType(mt)
		if offered[i].Type == "text" {
			offered[i].Parameters = contenttype.Parameters{"charset": "utf-8"}
		}
	}
	chosen, err := preferred(accept, offered)
	if err != nil {
		return nil, fmt.Errorf("%w: Accept %q: %v", errNotAcceptable, clipHeader(accept), err)
	}
	name := n.FormatName(chosen.MIME())
	return fromTagList(f, "format="+name), nil
}

// MediaTypes returns the media types the negotiator can choose, in the
// server's order: application/json, text/markdown, text/plain, text/toon, text/html,
// then the registered formats in registration order.
func (n *Negotiator) MediaTypes() []string {
	f := n.formats()
	out := make([]string, 0, len(builtin)+f.len())
	for _, b := range builtin {
		out = append(out, b.MediaType)
	}
	if f != nil {
		for _, r := range f.list {
			out = append(out, r.MediaType)
		}
	}
	return out
}

// FormatName returns the format name of a media type ("text/markdown" ->
// "markdown"), or "" when the negotiator has none for it.
func (n *Negotiator) FormatName(mediaType string) string {
	if b, ok := builtinByMediaType(mediaType); ok {
		return b.Name
	}
	r, _ := n.formats().byMediaType(mediaType)
	return r.Name
}

func clipHeader(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

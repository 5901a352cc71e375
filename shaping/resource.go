package shaping

import (
	"strings"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/markup"
	"github.com/contentneg/contentneg/internal/mediatype"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

// Content describes one content of a resources/read result in SDK-neutral
// terms.
type Content struct {
	URI      string
	MIMEType string
	Text     string
	Blob     bool // a binary content: never rendered, never changed
}

// ContentPlan says what becomes of one content the handler returned.
type ContentPlan struct {
	// From is the index of the handler's content this one comes from.
	From int
	// Changed says MIMEType and Text replace the handler's.
	Changed  bool
	MIMEType string
	Text     string
}

// planResource plans a resources/read result for the profile (contract section
// 7). It returns nil when the result stays as it is: pass-through, or
// nothing to change. Otherwise it returns the contents to send, in order:
//
//   - format alternatives (contents sharing a URI) are narrowed to the best
//     match for the rendering: application/json for structured,
//     text/markdown for markdown, text/plain for text; failing that, a JSON
//     alternative (rendered below); failing that, the first in the
//     handler's order;
//   - a JSON text content is rendered as markdown (text/markdown) or plain
//     text (text/plain), and kept as JSON for structured;
//   - a markdown text content becomes plain text for the text rendering;
//   - for the HTML rendering, a markdown text content is converted by
//     goldmark and any other text content (HTML included: no HTML from
//     data) is escaped in a <pre> element, both as text/html;
//   - blobs are never changed.
//
// uri selects the settings and renderer registered with [Shaper.Register]
// and [Shaper.Handle]; a renderer that fails leaves the content as JSON.
// exact says the server registers a resource under that very URI, rather
// than serving it through a URI template: an exact resource gets only what
// is registered under its own URI, else the generic renderers, never a
// template's renderer or settings, even when the template matches its URI
// (contract section 7: weather://cities beside weather://{city}).
func (s *Shaper) planResource(p *negotiation.Profile, uri string, exact bool, contents []Content) []ContentPlan {
	rendering := p.Rendering()
	if rendering == format.RenderingPassThrough || len(contents) == 0 {
		return nil
	}
	chosen := chooseAlternatives(contents, p.MediaType())
	plans := make([]ContentPlan, 0, len(chosen))
	changed := len(chosen) != len(contents)
	tab := s.registry.load()
	for _, i := range chosen {
		plan := s.content(tab, p, rendering, uri, exact, i, contents[i])
		changed = changed || plan.Changed
		plans = append(plans, plan)
	}
	if !changed {
		return nil
	}
	return plans
}

// content plans one content: JSON rendered, markdown made plain.
func (s *Shaper) content(tab *table, p *negotiation.Profile, rendering format.Rendering, uri string, exact bool, i int, c Content) ContentPlan {
	plan := ContentPlan{From: i}
	if c.Blob {
		return plan
	}
	switch {
	case isJSON(c.MIMEType) && rendering != format.RenderingStructured:
		t, r, ok := tab.resource(uri, exact, p.MediaType())
		opts := renderers.Options{Verbosity: p.Verbosity(), Title: t.Title, Units: t.Units}
		if !ok {
			return plan
		}
		out, err := s.render(r, []byte(c.Text), p.MediaType(), opts)
		if err != nil {
			s.log.Warn("renderer failed; resource left as JSON", zap.String("resource", uri), zap.String("mediaType", p.MediaType()), zap.Error(err))
			return plan
		}
		plan.Changed, plan.Text, plan.MIMEType = true, out, p.MediaType()
	case mediaType(c.MIMEType) == format.Markdown.MediaType && rendering == format.RenderingText && renderers.CheckPlain(c.Text) != nil:
		plan.Changed, plan.Text, plan.MIMEType = true, renderers.PlainText(c.Text), format.Text.MediaType
	case rendering == format.RenderingHTML && mediaType(c.MIMEType) == format.Markdown.MediaType:
		if out, err := markup.ToHTML(c.Text); err == nil {
			plan.Changed, plan.Text, plan.MIMEType = true, out, format.HTML.MediaType
		}
	case rendering == format.RenderingHTML && strings.HasPrefix(mediaType(c.MIMEType), "text/"):
		plan.Changed, plan.Text, plan.MIMEType = true, markup.Preformatted(c.Text), format.HTML.MediaType
	}
	return plan
}

// chooseAlternatives returns the indices of the contents to keep: one per
// URI, the best match for want among those sharing it, in the order the
// URIs first appear.
func chooseAlternatives(contents []Content, want string) []int {
	var order []string
	byURI := make(map[string][]int, len(contents))
	for i, c := range contents {
		if _, seen := byURI[c.URI]; !seen {
			order = append(order, c.URI)
		}
		byURI[c.URI] = append(byURI[c.URI], i)
	}
	out := make([]int, 0, len(order))
	for _, uri := range order {
		out = append(out, bestMatch(contents, byURI[uri], want))
	}
	return out
}

func bestMatch(contents []Content, candidates []int, want string) int {
	for _, i := range candidates {
		if mediaType(contents[i].MIMEType) == want {
			return i
		}
	}
	for _, i := range candidates {
		if isJSON(contents[i].MIMEType) && !contents[i].Blob {
			return i
		}
	}
	return candidates[0]
}

// mediaType is the one normaliser of media types (package mediatype).
func mediaType(mimeType string) string { return mediatype.Base(mimeType) }

// isJSON reports whether a MIME type is JSON: application/json or a +json
// suffix type.
func isJSON(mimeType string) bool {
	mt := mediaType(mimeType)
	return mt == format.JSON.MediaType || strings.HasSuffix(mt, "+json")
}

// Prompt plans the texts of a prompts/get result: for the text rendering,
// every text that holds markdown markup becomes plain text; for the HTML
// rendering, every text is escaped in a <pre> element (a prompt's text
// holds the caller's arguments, never guessed to be markdown). It returns
// the new texts, one for one, or nil when nothing changes.
func (s *Shaper) planPrompt(p *negotiation.Profile, texts []string) []string {
	switch p.Rendering() {
	case format.RenderingText:
		return plainTexts(texts)
	case format.RenderingHTML:
		return htmlTexts(toolPlan{}, texts, false).Texts
	}
	return nil
}

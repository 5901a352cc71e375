package renderers

import (
	"bytes"
	"fmt"
	"html"

	"github.com/contentneg/contentneg/format"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// htmlConverter converts markdown to HTML: GFM tables and strikethrough (what the markdown
// renderers write), and never raw HTML (goldmark without html.WithUnsafe omits it and drops
// links to dangerous URLs such as javascript:).
var htmlConverter = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// MarkdownToHTML converts markdown to an HTML fragment with goldmark. Raw HTML in the markdown is
// omitted, never copied, and links to javascript:, vbscript:, file: and data: (but for images)
// URLs lose their target, so the markdown renderers' output, which escapes every data value,
// gives HTML in which no element or attribute comes from data. It takes time linear in the input.
func MarkdownToHTML(markdown string) (string, error) {
	var b bytes.Buffer
	b.Grow(len(markdown) + len(markdown)/2 + 16)
	if err := htmlConverter.Convert([]byte(markdown), &b); err != nil {
		return "", fmt.Errorf("renderers: markdown to HTML: %w", err)
	}
	return b.String(), nil
}

// PreformattedHTML returns text, which is not markdown, as an HTML <pre> element with every
// character escaped: how the HTML rendering shows text it must not interpret.
func PreformattedHTML(text string) string {
	return "<pre>" + html.EscapeString(text) + "</pre>\n"
}

// HTMLOf returns a renderer of text/html from a markdown renderer: r's markdown, converted with
// [MarkdownToHTML]. A tool or resource with its own markdown renderer (a template) gets its HTML
// this way, so the HTML rendering always reads as the markdown one does.
func HTMLOf(r Renderer) Renderer {
	return Func(func(value []byte, opts Options) (string, error) {
		opts.MediaType = format.Markdown.MediaType
		md, err := r.Render(value, opts)
		if err != nil {
			return "", err
		}
		return MarkdownToHTML(md)
	})
}

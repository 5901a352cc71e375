package renderers

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCheckMarkdown(t *testing.T) {
	tests := []struct {
		name string
		give string
	}{
		{name: "list and table", give: "- **a:** 1\n\n| x |\n| --- |\n| 1 |\n"},
		{name: "escaped tag", give: `\<script>`},
		{name: "tag in code", give: "`<b>`"},
		{name: "empty", give: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireNoError(t, CheckMarkdown(tt.give))
		})
	}
}

func TestCheckMarkdownRawHTML(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{name: "html block", give: "x\n\n<div>\nhi\n</div>\n", want: "renderers: check markdown: raw HTML: HTMLBlock at line 3"},
		{name: "inline html", give: "a <b>c</b>", want: "renderers: check markdown: raw HTML: RawHTML at line 1"},
		{name: "comment", give: "<!-- x -->", want: "renderers: check markdown: raw HTML: HTMLBlock at line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckMarkdown(tt.give)
			if !errors.Is(err, errRawHTML) || err.Error() != tt.want {
				t.Errorf("CheckMarkdown(%q) = %v, want %q", tt.give, err, tt.want)
			}
		})
	}
}

func TestCheckPlain(t *testing.T) {
	tests := []struct {
		name string
		give string
	}{
		{name: "lines", give: "location: Bern\ndays[2]:\n  2026-11-20,8"},
		{name: "bare url", give: "see https://example.com"},
		{name: "inert star", give: "5 * 3"},
		{name: "intraword underscore", give: "feels_like_c"},
		{name: "quoted block syntax", give: `"# x"`},
		{name: "paragraphs", give: "a\n\nb"},
		{name: "entity", give: "&amp;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireNoError(t, CheckPlain(tt.give))
		})
	}
}

func TestCheckPlainMarkup(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{name: "heading", give: "# x", want: "Heading"},
		{name: "list", give: "a\n- b", want: "List"},
		{name: "ordered list", give: "1. a", want: "List"},
		{name: "code block", give: "    code", want: "CodeBlock"},
		{name: "fence", give: "```\nx\n```", want: "FencedCodeBlock"},
		{name: "quote", give: "> q", want: "Blockquote"},
		{name: "table", give: "a | b\n--|--", want: "Table"},
		{name: "thematic break", give: "***", want: "ThematicBreak"},
		{name: "setext heading", give: "a\n===", want: "Heading"},
		{name: "emphasis", give: "a *b*", want: "Emphasis"},
		{name: "strikethrough", give: "~~s~~", want: "Strikethrough"},
		{name: "code span", give: "`x`", want: "CodeSpan"},
		{name: "link", give: "[a](b)", want: "Link"},
		{name: "image", give: "![a](b)", want: "Image"},
		{name: "html", give: "a <b>", want: "RawHTML"},
		{name: "autolink", give: "<https://x.y>", want: "AutoLink"},
		{name: "link definition", give: "[a]: /u", want: "LinkReferenceDefinition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPlain(tt.give)
			if !errors.Is(err, errMarkup) || !strings.Contains(fmt.Sprint(err), ": "+tt.want+" at line") {
				t.Errorf("CheckPlain(%q) = %v, want %s", tt.give, err, tt.want)
			}
		})
	}
}

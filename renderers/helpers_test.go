package renderers

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// hostile holds strings that try to inject markdown; they seed the fuzz targets and
// the hostile-input tests.
var hostile = []string{
	"# x", "[a](javascript:alert(1))", "<script>alert(1)</script>", "a|b", "`code`", "```",
	"line\nbreak", "&amp;", "1. x", "---", "![i](u)", "**", `\`, "feels_like_c", "_x_", "__init__",
	"a*b*c", "~~s~~", "> q", "- x", "+ x", "=", "   lead", "trail  ", "\tx", "www.example.com",
	"https://example.com", "bob@example.com", "<https://x>", "x #", "&#10;", "[x]: /u", "| - |",
	":-:", "    code", "a\r\nb", "\\*", "AT&T", "&copy", "x\\", "1) y", "[ ] task",
}

// paragraphText parses md as GFM and returns the text of its only paragraph. It fails when md holds
// anything but one paragraph of plain text nodes (an empty document gives "").
func paragraphText(md string) (string, error) {
	src := []byte(md)
	doc := gfmParser().Parse(text.NewReader(src))
	if doc.ChildCount() == 0 {
		return "", nil
	}
	para := doc.FirstChild()
	if doc.ChildCount() != 1 || para.Kind() != ast.KindParagraph {
		return "", fmt.Errorf("want one paragraph, got %d blocks, first %s", doc.ChildCount(), para.Kind())
	}
	var b strings.Builder
	for n := para.FirstChild(); n != nil; n = n.NextSibling() {
		if l, ok := n.(*ast.AutoLink); ok { // an address, whose text is the address
			b.Write(l.Label(src))
			continue
		}
		t, ok := n.(*ast.Text)
		if !ok {
			return "", fmt.Errorf("paragraph holds %s", n.Kind())
		}
		b.WriteString(unescapeMarkdown(t.Segment.Value(src)))
		if t.SoftLineBreak() || t.HardLineBreak() {
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

// autolinkTag matches the tags of an autolinked address, whose text is the address.
var autolinkTag = regexp.MustCompile(`<a href="(?:https?://|ftp://|mailto:)[^"<>]*">|</a>`)

var gfmHTML = goldmark.New(goldmark.WithExtensions(extension.GFM))

// paragraphHTMLText renders md to HTML with goldmark and returns the text of its only paragraph,
// failing if the HTML holds any other tag. It is a second oracle, independent of unescapeMarkdown.
func paragraphHTMLText(md string) (string, error) {
	var buf bytes.Buffer
	if err := gfmHTML.Convert([]byte(md), &buf); err != nil {
		return "", err
	}
	out := buf.String()
	if out == "" {
		return "", nil
	}
	body, ok := strings.CutPrefix(out, "<p>")
	body, ok2 := strings.CutSuffix(body, "</p>\n")
	body = autolinkTag.ReplaceAllString(body, "") // an autolinked address reads as its text
	if !ok || !ok2 || strings.Contains(body, "<") {
		return "", fmt.Errorf("HTML is not one plain paragraph: %q", out)
	}
	return html.UnescapeString(body), nil
}

// markdownKinds lists what Generic markdown may contain (fenced code blocks hold preformatted
// text); everything else (links, images, code spans, HTML, quotes, thematic breaks,
// strikethrough, task boxes, emphasis other than the bold keys) would mean data changed the
// structure.
var markdownKinds = map[ast.NodeKind]bool{
	ast.KindDocument: true, ast.KindHeading: true, ast.KindParagraph: true, ast.KindList: true,
	ast.KindListItem: true, ast.KindTextBlock: true, ast.KindText: true, ast.KindString: true,
	ast.KindEmphasis: true, ast.KindFencedCodeBlock: true, east.KindTable: true, east.KindTableHeader: true,
	ast.KindAutoLink:  true, // an address in the data, autolinked by GFM: its text is the address
	east.KindTableRow: true, east.KindTableCell: true,
}

var errStructure = errors.New("unexpected markdown structure")

// checkStructure returns an error if md holds a node kind outside markdownKinds or emphasis other
// than bold.
func checkStructure(md string) error {
	src := []byte(md)
	doc := gfmParser().Parse(text.NewReader(src))
	var err error
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		e, isEmphasis := n.(*ast.Emphasis)
		if !markdownKinds[n.Kind()] || isEmphasis && e.Level != 2 {
			err = fmt.Errorf("%w: %s at line %d", errStructure, n.Kind(), lineOf(src, n))
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return err
}

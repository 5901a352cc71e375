package renderers

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// errRawHTML reports markdown that holds raw HTML; see [CheckMarkdown].
var errRawHTML = errors.New("raw HTML")

// errMarkup reports text in which a markdown parser finds markup; see [CheckPlain].
var errMarkup = errors.New("markdown markup")

// gfmParser parses markdown with the GFM extensions (tables, strikethrough, task lists, autolinks).
var gfmParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
})

// plainParser is the GFM parser without the autolink (linkify) extension: a bare URL in plain text is
// text, and it is the client's choice to link it.
var plainParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough,
		extension.TaskList)).Parser()
})

// CheckMarkdown parses md with goldmark (GFM) and returns an error, naming the node and its line,
// if it holds raw HTML (an HTML block or inline HTML). It is the check the tests and fuzzers apply
// to every markdown output, and that a template's output must pass; md always parses, as
// markdown has no syntax errors.
func CheckMarkdown(md string) error {
	if strings.IndexByte(md, '<') < 0 { // every kind of HTML starts with '<'
		return nil
	}
	src := []byte(md)
	doc := gfmParser().Parse(text.NewReader(src))
	var found ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && (n.Kind() == ast.KindHTMLBlock || n.Kind() == ast.KindRawHTML) {
			found = n
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if found != nil {
		return fmt.Errorf("renderers: check markdown: %w: %s at line %d", errRawHTML, found.Kind(),
			lineOf(src, found))
	}
	return nil
}

// CheckPlain returns an error, naming the node and its line, if a markdown parser finds anything but
// paragraphs and plain text in s: no heading, list, code, block quote, table, thematic break,
// emphasis, strikethrough, link, image, HTML, autolink or link reference definition. The parser is
// GFM without its bare-URL autolinks, so "https://example.com" in text is text; "<https://...>" is not.
func CheckPlain(s string) error {
	src := []byte(s)
	doc := plainParser().Parse(text.NewReader(src))
	n := firstMarkup(doc)
	if n != nil {
		return fmt.Errorf("renderers: check plain: %w: %s at line %d", errMarkup, n.Kind(), lineOf(src, n))
	}
	return nil
}

// firstMarkup returns the first node under doc that is not a paragraph or plain text, or nil.
func firstMarkup(doc ast.Node) ast.Node {
	var found ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindDocument, ast.KindParagraph, ast.KindText, ast.KindString:
			return ast.WalkContinue, nil
		}
		found = n
		return ast.WalkStop, nil
	})
	return found
}

// lineOf returns the 1-based line of src on which n starts, as far as the AST tells.
func lineOf(src []byte, n ast.Node) int {
	pos := nodePos(n)
	line := 1
	for i := 0; i < pos && i < len(src); i++ {
		if src[i] == '\n' {
			line++
		}
	}
	return line
}

// nodePos returns a byte offset at which n (or its first positioned descendant) starts.
func nodePos(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if p := n.Pos(); p >= 0 {
			return p
		}
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
		if t, ok := n.(*ast.Text); ok {
			return t.Segment.Start
		}
		if h, ok := n.(*ast.RawHTML); ok && h.Segments.Len() > 0 {
			return h.Segments.At(0).Start
		}
	}
	return 0
}

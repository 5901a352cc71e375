package check

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The parsers are built per check run; goldmark parsers are safe for
// concurrent use once built.
var (
	// gfm parses markdown as GitHub does.
	gfm = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
	// plain is GFM without bare-URL autolinks: a URL in plain text is text.
	plain = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()
)

// rawHTML returns a description of the first raw HTML (an HTML block or
// inline HTML) that goldmark with GFM finds in md, or "".
func rawHTML(md string) string {
	if !strings.Contains(md, "<") {
		return ""
	}
	return firstNode(gfm, md, md, func(n ast.Node) bool {
		return n.Kind() == ast.KindHTMLBlock || n.Kind() == ast.KindRawHTML
	})
}

// maxDataStrings bounds the data strings masked by markupOf.
const maxDataStrings = 10000

// markupOf returns a description of the first markup that a markdown parser
// finds in s once the strings of data are masked, or "": text is never
// escaped, so data such as "README_*draft*.md" may look like markup; only
// the renderer's own markup counts.
func markupOf(s string, data any) string {
	strs := dataStrings(data, maxDataStrings)
	sort.Slice(strs, func(i, j int) bool { return len(strs[i]) > len(strs[j]) })
	pairs := make([]string, 0, 2*len(strs))
	for _, d := range strs {
		if d == "" {
			continue
		}
		pairs = append(pairs, d, strings.Repeat("x", len(d))) // same offsets as s
	}
	masked := s
	if len(pairs) > 0 {
		masked = strings.NewReplacer(pairs...).Replace(s)
	}
	return firstNode(plain, masked, s, func(n ast.Node) bool {
		switch n.Kind() {
		case ast.KindDocument, ast.KindParagraph, ast.KindText, ast.KindString:
			return false
		}
		return true
	})
}

// firstNode parses src and describes the first node for which match holds:
// its kind and line, and the line itself as show has it (show is src
// before masking, with the same byte offsets).
func firstNode(p parser.Parser, src, show string, match func(ast.Node) bool) string {
	doc := p.Parse(text.NewReader([]byte(src)))
	source := []byte(show)
	var found ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && match(n) {
			found = n
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if found == nil {
		return ""
	}
	pos := position(found)
	if pos < 0 {
		return found.Kind().String()
	}
	line := bytes.Count(source[:pos], []byte("\n")) + 1
	start := bytes.LastIndexByte(source[:pos], '\n') + 1
	end := bytes.IndexByte(source[pos:], '\n')
	if end < 0 {
		end = len(source) - pos
	}
	excerpt := string(source[start : pos+end])
	if len(excerpt) > 80 {
		excerpt = excerpt[:80] + "..."
	}
	return fmt.Sprintf("%s at line %d: %q", found.Kind(), line, excerpt)
}

// position returns the offset in the source where n starts, or -1.
func position(n ast.Node) int {
	for c := n; c != nil; c = c.FirstChild() {
		if c.Type() == ast.TypeBlock {
			if lines := c.Lines(); lines != nil && lines.Len() > 0 {
				return lines.At(0).Start
			}
		}
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
		if r, ok := c.(*ast.RawHTML); ok && r.Segments.Len() > 0 {
			return r.Segments.At(0).Start
		}
	}
	return -1
}

package renderers

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Markup severities reported by markupLines.
const (
	inlineMarkup = 1 // a paragraph with inline markup: escaping its characters is enough
	blockMarkup  = 2 // a block other than a paragraph: the line must also be quoted
)

// neutralize returns s with the markup a markdown parser still finds in it neutralized. Text
// from PlainText can hold characters that pair into inline markup ("a*b*c", "__init__", "<div>",
// "`x`"); only the blocks where the parser finds markup are changed: their lines get the inline
// markup characters backslash-escaped (and are quoted, for a block that is not a paragraph). Should
// that not suffice, every line is quoted and escaped, which always gives plain text.
func neutralize(s string) string {
	bad := markupLines(s)
	if bad == nil {
		return s
	}
	fixed := rewriteLines(s, func(i int, line string) string {
		if bad[i] == 0 {
			return line
		}
		return neutralLine(line, bad[i] == blockMarkup)
	})
	if markupLines(fixed) == nil {
		return fixed
	}
	return rewriteLines(s, func(_ int, line string) string { return neutralLine(line, true) })
}

// neutralLine escapes the inline markup characters of line and, if quote is set, quotes it first.
func neutralLine(line string, quote bool) string {
	if line == "" {
		return line
	}
	if quote {
		var q strings.Builder
		writeQuoted(&q, line)
		line = q.String()
	}
	return escapeInlineMarkup(line)
}

// escapeInlineMarkup backslash-escapes the characters of line that can start inline markup: '`',
// '[', ']', '<' unless a blank follows, '*' and '~' unless blanks surround them, '_' unless blanks
// surround it or it is inside a word; and backslashes that precede ASCII punctuation.
func escapeInlineMarkup(line string) string {
	var b strings.Builder
	b.Grow(len(line) + 8)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case '`', '[', ']':
			b.WriteByte('\\')
		case '<':
			if i+1 < len(line) && !isBlank(line[i+1]) {
				b.WriteByte('\\')
			}
		case '*', '~', '_':
			if !inert(line, i) {
				b.WriteByte('\\')
			}
		case '\\':
			if i+1 < len(line) && isASCIIPunct(line[i+1]) {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// inert reports whether the delimiter character line[i] can neither open nor close emphasis or
// strikethrough: it has blanks (or the line's edges) on both sides, or, for '_', letters or digits.
func inert(line string, i int) bool {
	before, after := byte(' '), byte(' ')
	if i > 0 {
		before = line[i-1]
	}
	if i+1 < len(line) {
		after = line[i+1]
	}
	if isBlank(before) && isBlank(after) {
		return true
	}
	return line[i] == '_' && isAlnum(before) && isAlnum(after)
}

// markupLines maps the indexes of the lines of s that belong to a block in which a parser finds
// markup to the markup's severity; it returns nil when s is plain.
func markupLines(s string) map[int]int {
	src := []byte(s)
	doc := plainParser().Parse(text.NewReader(src))
	var bad map[int]int
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		severity := blockMarkup
		if n.Kind() == ast.KindParagraph {
			if firstMarkup(n) == nil {
				continue
			}
			severity = inlineMarkup
		}
		if bad == nil {
			bad = make(map[int]int)
		}
		start, end := blockRange(n, len(src))
		first, last := lineIndex(src, start), lineIndex(src, max(start, end-1))
		for i := first; i <= last; i++ {
			bad[i] = max(bad[i], severity)
		}
	}
	return bad
}

// blockRange returns the byte range of src covered by block n and its descendants, or all of src
// when the AST gives no position.
func blockRange(n ast.Node, size int) (start, end int) {
	start, end = size, 0
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if c.Type() == ast.TypeBlock {
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				start, end = min(start, lines.At(i).Start), max(end, lines.At(i).Stop)
			}
		}
		if t, ok := c.(*ast.Text); ok {
			start, end = min(start, t.Segment.Start), max(end, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	if start >= end {
		return 0, size
	}
	return start, end
}

// lineIndex returns the 0-based index of the line of src holding byte offset pos.
func lineIndex(src []byte, pos int) int {
	n := 0
	for i := 0; i < pos && i < len(src); i++ {
		if src[i] == '\n' {
			n++
		}
	}
	return n
}

// rewriteLines applies f to every line of s.
func rewriteLines(s string, f func(i int, line string) string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = f(i, line)
	}
	return strings.Join(lines, "\n")
}

func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isAlnum(c)
}

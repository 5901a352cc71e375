package renderers

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// cellSeparator separates table cells in PlainText output.
const cellSeparator = " | "

// PlainText converts markdown to plain text by walking the goldmark (GFM) AST: headings and
// paragraphs become lines, blocks are separated by a blank line, list items become lines without
// markers or indentation (a task item starts with ☑ or ☐), table rows become lines of cells
// separated by " | ", links become "text (url)" (just the URL when the text is the URL), images
// "alt (url)", code is kept as its text, emphasis is stripped and HTML is dropped.
//
// The result passes [CheckPlain] for any input. A line that would start with block syntax is
// quoted like a text value ("# not a heading"). Text that would itself parse as inline markup (for
// example "__init__" from a code span, which would read as emphasis) is neutralized only in the
// paragraphs where a parser finds markup, by backslash-escaping the characters that start it, so a
// markdown viewer shows the same characters as a terminal.
func PlainText(md string) string {
	src := []byte(validText(md))
	doc := gfmParser().Parse(text.NewReader(src))
	w := &plainWriter{src: src}
	w.blocks(doc)
	return neutralize(w.out.String())
}

// plainWriter collects the lines of PlainText.
type plainWriter struct {
	src      []byte
	out      strings.Builder
	line     strings.Builder // the line being built
	tight    int             // > 0 inside lists, where blocks are not separated by blank lines
	gap      bool            // a blank line is due before the next line
	hasLines bool            // a line has been written
}

// blocks writes the block children of n, separated by blank lines outside lists.
func (w *plainWriter) blocks(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if w.tight == 0 {
			w.gap = true
		}
		w.block(c)
	}
}

func (w *plainWriter) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading, *ast.Paragraph, *ast.TextBlock:
		w.text(inlineText(w.src, n))
		w.endLine()
	case *ast.List:
		w.tight++
		w.blocks(n)
		w.tight--
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			w.writeLine(strings.TrimRight(string(seg.Value(w.src)), "\r\n"))
		}
	case *east.Table:
		w.table(n)
	case *ast.HTMLBlock, *ast.ThematicBreak, *ast.LinkReferenceDefinition:
	default: // document, block quote, list item, extension blocks
		w.blocks(n)
	}
}

func (w *plainWriter) table(t *east.Table) {
	var b strings.Builder
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		b.Reset()
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			if cell != row.FirstChild() {
				b.WriteString(cellSeparator)
			}
			b.WriteString(strings.ReplaceAll(inlineText(w.src, cell), "\n", " "))
		}
		w.writeLine(b.String())
	}
}

// text appends s to the current line; a newline in s ends the line.
func (w *plainWriter) text(s string) {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			w.line.WriteString(s)
			return
		}
		w.line.WriteString(s[:i])
		w.endLine()
		s = s[i+1:]
	}
}

func (w *plainWriter) endLine() {
	w.writeLine(w.line.String())
	w.line.Reset()
}

// writeLine writes one output line. A blank line only marks a paragraph break; a line that markdown
// would read as block syntax is quoted.
func (w *plainWriter) writeLine(line string) {
	line = strings.TrimRight(line, " \t")
	if line == "" {
		w.gap = true
		return
	}
	if w.hasLines {
		w.out.WriteByte('\n')
		if w.gap {
			w.out.WriteByte('\n')
		}
	}
	paraStart := w.gap || !w.hasLines
	w.gap, w.hasLines = false, true
	if lineNeedsQuote(line, paraStart) {
		writeQuoted(&w.out, line)
		return
	}
	w.out.WriteString(line)
}

// lineNeedsQuote reports whether line must be quoted: it starts with block syntax, or it is indented
// by four columns or more where it would start a paragraph (an indented code block).
func lineNeedsQuote(line string, paraStart bool) bool {
	width, rest := indentWidth(line)
	if width >= 4 {
		return paraStart
	}
	return blockStart(rest)
}

// inlineText returns the plain text of the inline children of n; line breaks are "\n".
func inlineText(src []byte, n ast.Node) string {
	var b strings.Builder
	appendInlines(&b, src, n)
	return b.String()
}

func appendInlines(b *strings.Builder, src []byte, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		appendInline(b, src, c)
	}
}

func appendInline(b *strings.Builder, src []byte, n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(src)
		if n.IsRaw() {
			b.Write(v)
		} else {
			b.WriteString(unescapeMarkdown(v))
		}
		if n.SoftLineBreak() || n.HardLineBreak() {
			b.WriteByte('\n')
		}
	case *ast.String:
		b.Write(n.Value)
	case *ast.CodeSpan:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.WriteString(strings.ReplaceAll(string(t.Segment.Value(src)), "\n", " "))
			} else {
				appendInline(b, src, c)
			}
		}
	case *ast.Link:
		appendLink(b, src, n, string(n.Destination))
	case *ast.Image:
		appendLink(b, src, n, string(n.Destination))
	case *ast.AutoLink:
		b.Write(n.Label(src))
	case *east.TaskCheckBox:
		if n.IsChecked {
			b.WriteString("☑ ")
		} else {
			b.WriteString("☐ ")
		}
	case *ast.RawHTML:
	default: // emphasis, strikethrough and unknown inlines keep their text
		appendInlines(b, src, n)
	}
}

// appendLink writes "label (url)", or the label alone when it is the URL or the URL is empty.
func appendLink(b *strings.Builder, src []byte, n ast.Node, dest string) {
	label := inlineText(src, n)
	url := unescapeMarkdown([]byte(dest))
	b.WriteString(label)
	if url == "" || url == label {
		return
	}
	if label != "" {
		b.WriteByte(' ')
	}
	b.WriteByte('(')
	b.WriteString(url)
	b.WriteByte(')')
}

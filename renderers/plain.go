package renderers

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// cellSeparator separates table cells in PlainText output.
const cellSeparator = " | "

// PlainText converts markdown to plain text by walking the goldmark (GFM) AST: headings and
// paragraphs become lines, blocks are separated by a blank line, list items keep their markers
// ("- ", "* " or "+ " as written, "1. " numbered from the list's start; a task item "- ☑ " or
// "- ☐ ") with their content indented under them, table rows become lines of cells separated by
// " | ", links become "text (url)" (just the URL when the text is the URL), images "alt (url)",
// code spans are kept as their text, emphasis is stripped and HTML is dropped. The lines of a code
// block are kept exactly (a diff's "-" and "+" survive), indented as their list item is.
//
// Outside code blocks, the result holds no markup but the source's list markers: a line (or a list
// item's content) that would start with block syntax is quoted like a text value ("# not a
// heading"), and text that would itself parse as inline markup (for example "__init__" from a code
// span, which would read as emphasis) is neutralized only in the paragraphs where a parser finds
// markup, by backslash-escaping the characters that start it, so a markdown viewer shows the same
// characters as a terminal. A source without code blocks gives text that passes [CheckPlain] but
// for its lists.
func PlainText(md string) string {
	src := []byte(validText(md))
	doc := gfmParser().Parse(text.NewReader(src))
	w := &plainWriter{src: src}
	w.blocks(doc)
	return w.finish()
}

// plainLine is one line of PlainText's output.
type plainLine struct {
	prefix  string // a list marker, or the indentation of a list item's content
	content string // the line's text, neutralized at the end unless code
	code    bool   // a code block's line, kept exactly
}

// plainWriter collects the lines of PlainText.
type plainWriter struct {
	src      []byte
	lines    []plainLine
	line     strings.Builder // the line being built
	indent   string          // the indentation of the current list item's content
	marker   string          // the marker of a list item whose first line is still to come
	tight    int             // > 0 inside lists, where blocks are not separated by blank lines
	gap      bool            // a blank line is due before the next line
	hasLines bool            // a line has been written
}

// blocks writes the block children of n, separated by blank lines outside lists (but between two
// lists that follow each other in the source, as "- a" and "+ b" lines do).
func (w *plainWriter) blocks(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if w.tight == 0 && !w.adjacentLists(c) {
			w.gap = true
		}
		w.block(c)
	}
}

// adjacentLists reports whether c is a list that follows another list with no blank line between
// them in the source.
func (w *plainWriter) adjacentLists(c ast.Node) bool {
	prev := c.PreviousSibling()
	if prev == nil || c.Kind() != ast.KindList || prev.Kind() != ast.KindList {
		return false
	}
	_, end := blockRange(prev, len(w.src))
	start, _ := blockRange(c, len(w.src))
	between := w.src[min(end, start):start]
	return strings.Count(string(between), "\n") <= 1
}

func (w *plainWriter) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading, *ast.Paragraph, *ast.TextBlock:
		w.text(inlineText(w.src, n))
		w.endLine()
	case *ast.List:
		w.tight++
		number := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			marker := string(n.Marker) + " "
			if n.IsOrdered() {
				marker = strconv.Itoa(number) + ". "
				number++
			}
			w.item(item, marker)
		}
		w.tight--
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			w.codeLine(strings.TrimRight(string(seg.Value(w.src)), "\r\n"))
		}
	case *east.Table:
		w.table(n)
	case *ast.HTMLBlock, *ast.ThematicBreak, *ast.LinkReferenceDefinition:
	default: // document, block quote, list item, extension blocks
		w.blocks(n)
	}
}

// item writes a list item: marker before its first line, its other lines indented under it.
func (w *plainWriter) item(item ast.Node, marker string) {
	indent := w.indent
	if w.marker != "" {
		w.marker += marker // the first item of a list that starts its item: "- - a"
	} else {
		w.marker = indent + marker
	}
	w.indent = indent + strings.Repeat(" ", len(marker))
	w.blocks(item)
	if w.marker != "" { // an empty item: `""`, as a bare marker could underline a heading
		prefix := w.startLine()
		w.lines = append(w.lines, plainLine{prefix: prefix, content: `""`})
	}
	w.indent, w.marker = indent, ""
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

// startLine adds the blank line due before a new line and returns the new line's prefix: the
// pending list marker, else the list item's indentation.
func (w *plainWriter) startLine() string {
	if w.hasLines && w.gap {
		w.lines = append(w.lines, plainLine{})
	}
	w.gap, w.hasLines = false, true
	prefix := w.indent
	if w.marker != "" {
		prefix, w.marker = w.marker, ""
	}
	return prefix
}

// writeLine writes one output line. A blank line only marks a paragraph break; a line that markdown
// would read as block syntax is quoted.
func (w *plainWriter) writeLine(line string) {
	line = strings.TrimRight(line, " \t")
	if line == "" && w.marker == "" {
		w.gap = true
		return
	}
	paraStart := w.gap || !w.hasLines
	first := w.marker != ""
	prefix := w.startLine()
	// A line of white space would be a blank line, and a list marker with nothing after it could
	// underline a heading: both are quoted, as is block syntax.
	blank := strings.TrimSpace(line) == ""
	if blank && (line != "" || first) || !blank && lineNeedsQuote(line, paraStart || first) {
		var q strings.Builder
		writeQuoted(&q, line)
		line = q.String()
	}
	w.lines = append(w.lines, plainLine{prefix: prefix, content: line})
}

// codeLine writes one line of a code block exactly, after the list item's indentation.
func (w *plainWriter) codeLine(line string) {
	prefix := w.startLine()
	if line == "" {
		prefix = ""
	}
	w.lines = append(w.lines, plainLine{prefix: prefix, content: line, code: true})
}

// finish returns the output: the lines that are not code neutralized (see neutralize) as one text
// in which each code line is a blank line, then every line after its prefix.
func (w *plainWriter) finish() string {
	var text strings.Builder
	for i, l := range w.lines {
		if i > 0 {
			text.WriteByte('\n')
		}
		if !l.code {
			text.WriteString(l.content)
		}
	}
	neutral := strings.Split(neutralize(text.String()), "\n")
	var out strings.Builder
	for i, l := range w.lines {
		if i > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(l.prefix)
		if l.code {
			out.WriteString(l.content)
		} else if i < len(neutral) {
			out.WriteString(neutral[i])
		}
	}
	return strings.TrimRight(out.String(), " ")
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

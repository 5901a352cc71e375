package renderers

import (
	"strings"
	"unicode/utf8"
)

// This file holds what the text renderers and PlainText share: when the start of a line must be
// neutralized because markdown would read it as block syntax.

// blockStart reports whether rest, written at the start of a line (after at most three columns of
// indentation), could begin markdown block syntax: an ATX heading, block quote, list item, thematic
// break, setext underline, code fence, HTML block, table row or delimiter row, or link reference
// definition. The end of rest counts as the end of the line. It errs on the side of quoting.
func blockStart(rest string) bool {
	if rest == "" {
		return false
	}
	c := rest[0]
	switch c {
	case '>', '<', '|', '[':
		return true
	case '#':
		n := len(rest) - len(strings.TrimLeft(rest, "#"))
		return n <= 6 && (n == len(rest) || isBlank(rest[n]))
	case '-', '*', '+':
		return len(rest) == 1 || isBlank(rest[1]) || onlyOf(rest, c) || delimiterRow(rest)
	case '_':
		return onlyOf(rest, c)
	case '=':
		return strings.TrimRight(strings.TrimLeft(rest, "="), " \t") == ""
	case '`', '~':
		return strings.HasPrefix(rest, strings.Repeat(string(c), 3))
	case ':':
		return delimiterRow(rest)
	}
	if c >= '0' && c <= '9' {
		d := strings.TrimLeft(rest, "0123456789")
		return d != "" && (d[0] == '.' || d[0] == ')') && (len(d) == 1 || isBlank(d[1]))
	}
	return false
}

// onlyOf reports whether s holds only c, spaces and tabs (a thematic break or setext underline).
func onlyOf(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != c && !isBlank(s[i]) {
			return false
		}
	}
	return true
}

// delimiterRow reports whether s looks like a GFM table delimiter row: only '|', '-', ':' and blanks.
func delimiterRow(s string) bool {
	dash := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '-':
			dash = true
		case '|', ':', ' ', '\t':
		default:
			return false
		}
	}
	return dash
}

// indentWidth returns the indentation of line in columns (tabs to the next multiple of 4) and the
// rest of the line.
func indentWidth(line string) (int, string) {
	w := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w, line[i:]
		}
	}
	return w, ""
}

// validText returns s with invalid UTF-8 and NUL replaced by U+FFFD, as CommonMark reads them.
func validText(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
}

package renderers

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// This file holds how text values are quoted: when (needsQuote) and how (writeQuoted).

// quoteRule says what would make a text value ambiguous where it is written.
type quoteRule uint8

const (
	atLineStart    quoteRule = 1 << iota // it starts a line: markdown block syntax
	commaSeparated                       // it is one of comma-separated items: ','
	spaceSeparated                       // it is an aligned table cell: two spaces in a row
	keyChars                             // it is a key: '"', '=', ':', ',', '[', ']', '{', '}'
	pairSeparated                        // it is in a line of "k=v k=v" pairs (logfmt): ' '
	elementLine                          // it is a whole line in a list of elements: a final ':'
	headerKey                            // it is a key in a compact table header: '.'
)

// A data value is also quoted, whatever its place, when it could read as another kind of value
// (null, true, false, a JSON number, or JSON text starting with '[' or '{') or when it holds '"' or
// '=' (SPEC "Faithful": a value holding a quote or '=' is quoted).

// keyRules are the rules for keys, which always start their line.
const keyRules = atLineStart | keyChars

// needsQuote reports whether s must be quoted to be read back unambiguously where rule says it is.
func needsQuote(s string, rule quoteRule) bool {
	if s == "" || s[0] == '"' || isSpaceByte(s[0]) || isSpaceByte(s[len(s)-1]) {
		return true
	}
	if rule&keyChars == 0 && readsAsLiteral(s) {
		return true
	}
	if rule&atLineStart != 0 && blockStart(s) || rule&elementLine != 0 && s[len(s)-1] == ':' {
		return true
	}
	prevSpace := false
	for _, c := range s {
		switch {
		case needsEscapeRune(c), c == '"', c == '=',
			c == ',' && rule&(commaSeparated|keyChars) != 0,
			c == ' ' && prevSpace && rule&spaceSeparated != 0,
			c == ' ' && rule&pairSeparated != 0,
			rule&keyChars != 0 && strings.ContainsRune(`:[]{}`, c),
			c == '.' && rule&headerKey != 0:
			return true
		}
		prevSpace = c == ' '
	}
	return false
}

// readsAsLiteral reports whether s, written bare, would read as a value that is not a string: null,
// true, false, a JSON number, or JSON text (a value starting with '[' or '{').
func readsAsLiteral(s string) bool {
	switch {
	case s == "null", s == "true", s == "false", s[0] == '[', s[0] == '{':
		return true
	}
	return isJSONNumber(s)
}

// isJSONNumber reports whether s is a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i == len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// quotedWidth returns the display width of s as txtString writes it under rule: the columns a
// terminal gives it (East Asian wide characters and emoji two, combining marks none).
func quotedWidth(s string, rule quoteRule) int {
	if len(s) > 4*maxAlignedWidth {
		return len(s) // wider than any aligned cell whatever its characters: no need to measure
	}
	if !needsQuote(s, rule) {
		return uniseg.StringWidth(s)
	}
	var b strings.Builder
	writeQuoted(&b, s)
	return uniseg.StringWidth(b.String())
}

// needsEscapeRune reports whether r must be written as an escape inside a quoted text value: control
// characters (terminal escape sequences included), line and paragraph separators, and the bidi
// controls that can reorder what a terminal shows.
func needsEscapeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// writeQuoted writes s in double quotes with JSON-style escapes: \" \\ \n \r \t and \uXXXX for the
// other runes needsEscapeRune reports. Other characters, including non-ASCII ones, are kept; s must
// be valid UTF-8.
func writeQuoted(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case needsEscapeRune(r):
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[r>>shift&0xf])
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

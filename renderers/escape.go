package renderers

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EscapeMarkdown escapes s for use as inline markdown text, also inside a GFM table cell or at the
// start of a line: parsing the result (CommonMark with the GFM extensions) yields exactly s as text
// and no other node kind.
//
// It escapes what can change the parse where it stands and nothing more, so that a person reads
// the value as written. Always: '\' before punctuation, '`', '[', ']', '<' and '|'. In context:
// '*' and '~' unless their run stands alone between blanks ("3 * 4"), '_' unless it is inside a
// word (GFM never emphasizes an intraword '_', so feels_like_c stays as it is) or alone between
// blanks, '&' where it could start an entity, block syntax at the start ('#', '>', '+', '-', '=',
// ':', '*', "1." and "1)"), and a trailing "#" run. An address is written as it is
// ("zoe@example.ch", "https://example.ch/a_b", "www.example.ch"), which GFM may autolink, its
// text being the address, when the run of characters between blanks that holds it needs no
// escape; otherwise the autolink trigger is escaped too ("http\:", "www\.", '\@'), so that no
// autolink can start where an escape follows. Newlines,
// carriage returns, leading or trailing white space (Unicode's too, such as U+00A0) and a trailing
// backslash become numeric character references (&#10;, &#13;, &#32;, &#160;, &#92;), so a value
// never breaks a line, a table row or a bold label, and keeps its spaces.
// Other control characters (C0, DEL, C1) also become references, so raw markdown shown in a terminal
// cannot carry escape sequences. Invalid UTF-8 and NUL, which CommonMark replaces anyway, become
// U+FFFD.
func EscapeMarkdown(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8 + 8)
	writeEscaped(&b, s)
	return b.String()
}

// needsEscape reports whether writeEscaped would change s. It is a cheap conservative pre-check.
func needsEscape(s string) bool {
	if s == "" {
		return false
	}
	if isBlank(s[0]) || isBlank(s[len(s)-1]) {
		return true
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0, '\n', '\r', '\\', '`', '*', '_', '~', '[', ']', '<', '|', '&', '#', '>', '+', '-', '=',
			':', '.', ')', '@':
			return true
		}
		if s[i] < ' ' || s[i] == 0x7f || s[i] == 0xc2 {
			return true
		}
		ascii = ascii && s[i] < utf8.RuneSelf
	}
	if ascii {
		return false
	}
	if !utf8.ValidString(s) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(first) || unicode.IsSpace(last)
}

// writeEscaped writes EscapeMarkdown(s) to b.
func writeEscaped(b *strings.Builder, s string) {
	writeEscapedLinks(b, s, true)
}

// writeEscapedLinks is writeEscaped; with links false, it never escapes an autolink trigger (it
// then tells whether a run of characters needs another escape, see linkRun).
func writeEscapedLinks(b *strings.Builder, s string, links bool) {
	s = validText(s)
	runs := linkRun{start: -1, never: !links}
	lead, trail := spaceEdges(s)
	digits := len(s) - len(strings.TrimLeft(s, "0123456789")) // a leading digit run: "1." may be a list marker
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i < lead || i >= trail {
			// Leading and trailing white space (Unicode's included: U+00A0 after "**" stops bold
			// from opening) would be trimmed or change the parse; a reference keeps it.
			r, size := utf8.DecodeRuneInString(s[i:])
			writeNumericRef(b, r)
			i += size - 1
			continue
		}
		if isC1(s, i) {
			writeNumericRef(b, rune(s[i+1]))
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			b.WriteByte(c)
			continue
		}
		if c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			writeNumericRef(b, rune(c))
			continue
		}
		switch c {
		case '\n', '\r':
			writeNumericRef(b, rune(c))
			continue
		case '\\':
			if i == len(s)-1 {
				// A backslash that ends the value could escape whatever follows it where the value
				// is written (a table's '|', a label's '*'): a reference cannot.
				writeNumericRef(b, '\\')
				continue
			}
			if !literalAfterBackslash(s, i+1) {
				b.WriteByte('\\')
			}
		case '`', '[', ']', '<', '|':
			b.WriteByte('\\')
		case '*', '~':
			i = writeRun(b, s, i, false)
			continue
		case '_':
			i = writeRun(b, s, i, true)
			continue
		case '&':
			if entityLike(s, i+1) {
				b.WriteByte('\\')
			}
		case '#':
			if i == 0 || (isBlank(s[i-1]) && strings.TrimLeft(s[i:], "#") == "") {
				b.WriteByte('\\')
			}
		case '>', '+', '-', '=', ':':
			if i == 0 && opensBlock(c, s[1:]) {
				b.WriteByte('\\')
			}
		case '.', ')':
			if i == digits && i > 0 && (i+1 == len(s) || isBlank(s[i+1])) ||
				c == '.' && strings.HasSuffix(s[:i], "www") && !runs.clean(s, i) {
				b.WriteByte('\\')
			}
		case '@':
			if i > 0 && s[i-1] > ' ' && s[i-1] < utf8.RuneSelf && i+1 < len(s) && isAlnum(s[i+1]) && !runs.clean(s, i) {
				b.WriteByte('\\')
			}
		}
		if c == ':' && i > 0 && hasURLScheme(s[:i]) && !runs.clean(s, i) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
}

// literalAfterBackslash reports whether s[i] is written as itself and cannot be escaped by a
// preceding backslash: an ASCII letter or digit, or a non-ASCII character other than a C1 control
// (which becomes a character reference).
func literalAfterBackslash(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return isAlnum(c) || c >= utf8.RuneSelf && !isC1(s, i)
}

// isC1 reports whether s[i:] starts with a C1 control character (U+0080 to U+009F).
func isC1(s string, i int) bool {
	return s[i] == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0
}

// writeRun writes the run of s[i] ('*', '~' or '_') starting at s[i] and returns the index of its
// last byte. The run is kept as is when it stands alone between blanks ("3 * 4": it can neither
// open nor close emphasis, and not being at the start it is no list marker) and, for '_'
// (intraword), when a letter or digit is on both sides: GFM never lets such a run open or close
// emphasis. Otherwise each character is escaped.
func writeRun(b *strings.Builder, s string, i int, intraword bool) int {
	c := s[i]
	j := i
	for j < len(s) && s[j] == c {
		j++
	}
	keep := i > 0 && j < len(s) && isBlank(s[i-1]) && isBlank(s[j])
	if intraword && !keep {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[j:])
		keep = i > 0 && j < len(s) && isWordRune(before) && isWordRune(after)
	}
	for k := i; k < j; k++ {
		if !keep {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return j - 1
}

// linkRun tells whether an autolink trigger may be written as it is: when the run of characters
// around it, between blanks (or the ends of the value), is written with no escape. GFM's extended
// autolinks end at white space, so an autolink is then the text of the value and nothing else.
// The run is checked once, on its first trigger, by escaping it alone with no trigger escaped: as
// the start of a value it meets rules at least as strict as where it stands.
type linkRun struct {
	start, end int  // the run last checked: s[start:end]
	ok         bool // it needs no escape
	never      bool // triggers are never escaped (a run being checked)
}

// clean reports whether the trigger at s[i] may stay as it is.
func (l *linkRun) clean(s string, i int) bool {
	if l.never {
		return true
	}
	if l.start < 0 || i < l.start || i >= l.end {
		l.start, l.end = i, i
		for l.start > 0 && !isRunBreak(s[l.start-1]) {
			l.start--
		}
		for l.end < len(s) && !isRunBreak(s[l.end]) {
			l.end++
		}
		run := s[l.start:l.end]
		var b strings.Builder
		b.Grow(len(run))
		writeEscapedLinks(&b, run, false)
		l.ok = b.String() == run
	}
	return l.ok
}

// isRunBreak reports whether c ends a run of characters that an autolink may span.
func isRunBreak(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// opensBlock reports whether c followed by rest, at the start of a line, can begin block syntax
// (list item, setext underline, thematic break, block quote or table delimiter row). The other
// characters that can ('#', '*', '_', '`', '~', '<', '|', '[', digits) are handled by
// writeEscaped's own rules.
func opensBlock(c byte, rest string) bool {
	var next byte
	if rest != "" {
		next = rest[0]
	}
	switch c {
	case '>':
		return true
	case '+':
		return next == 0 || isBlank(next)
	case '-':
		return next == 0 || isBlank(next) || next == '-' || next == ':'
	case '=':
		return next == 0 || isBlank(next) || next == '='
	case ':':
		return next == '-'
	}
	return false
}

// entityLike reports whether the text from s[k] on, after a '&', could complete an entity or a
// numeric character reference; the end of s counts, as more text may follow it.
func entityLike(s string, k int) bool {
	if k == len(s) || s[k] == '#' {
		return true
	}
	j := k
	for j < len(s) && isAlnum(s[j]) {
		j++
	}
	return j > k && (j == len(s) || s[j] == ';')
}

// hasURLScheme reports whether prefix ends with a scheme the GFM autolink extension links.
func hasURLScheme(prefix string) bool {
	return strings.HasSuffix(prefix, "http") || strings.HasSuffix(prefix, "https") ||
		strings.HasSuffix(prefix, "ftp")
}

// spaceEdges returns the length in bytes of the leading run of white space (ASCII or Unicode, as
// unicode.IsSpace says; s must be valid UTF-8) and the start of the trailing one.
func spaceEdges(s string) (lead, trail int) {
	for lead < len(s) {
		r, size := utf8.DecodeRuneInString(s[lead:])
		if !unicode.IsSpace(r) {
			break
		}
		lead += size
	}
	trail = len(s)
	for trail > lead {
		r, size := utf8.DecodeLastRuneInString(s[:trail])
		if !unicode.IsSpace(r) {
			break
		}
		trail -= size
	}
	return lead, trail
}

// writeNumericRef writes r as a decimal numeric character reference.
func writeNumericRef(b *strings.Builder, r rune) {
	var digits [8]byte
	b.WriteString("&#")
	b.Write(strconv.AppendInt(digits[:0], int64(r), 10))
	b.WriteByte(';')
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

package renderers

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// unescapeMarkdown returns the text that markdown source v (the content of one text node) stands
// for: backslash escapes of ASCII punctuation are removed and entity and numeric character
// references are resolved, in one pass, as goldmark's HTML writer does; NUL becomes U+FFFD.
func unescapeMarkdown(v []byte) string {
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]):
			i++
			b.WriteByte(v[i])
		case c == 0:
			b.WriteRune(utf8.RuneError)
		case c == '&':
			r, s, n := charRef(v[i:])
			if n == 0 {
				b.WriteByte(c)
				continue
			}
			if s != "" {
				b.WriteString(s)
			} else {
				b.WriteRune(r)
			}
			i += n - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// charRef decodes the entity or numeric character reference at the start of v (which begins with
// '&'). It returns the rune (numeric) or the characters (named) and the length of the reference, or
// n == 0 when v does not start with one.
func charRef(v []byte) (r rune, s string, n int) {
	if len(v) > 2 && v[1] == '#' {
		digits, base, start := util.IsNumeric, 10, 2
		if v[2] == 'x' || v[2] == 'X' {
			digits, base, start = util.IsHexDecimal, 16, 3
		}
		end := start
		for end < len(v) && digits(v[end]) {
			end++
		}
		maxLen := 7
		if base == 16 {
			maxLen = 6
		}
		if end == start || end >= len(v) || v[end] != ';' || end-start > maxLen {
			return 0, "", 0
		}
		x, _ := strconv.ParseUint(string(v[start:end]), base, 32)
		return util.ToValidRune(rune(x)), "", end + 1
	}
	end := 1
	for end < len(v) && util.IsAlphaNumeric(v[end]) {
		end++
	}
	if end == 1 || end >= len(v) || v[end] != ';' {
		return 0, "", 0
	}
	entity, ok := util.LookUpHTML5EntityByName(string(v[1:end]))
	if !ok {
		return 0, "", 0
	}
	return 0, string(entity.Characters), end + 1
}

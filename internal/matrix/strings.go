package matrix

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// clipBytes returns the longest prefix of s of at most n bytes that does not
// cut a UTF-8 sequence.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut > n-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// clip returns s cut to at most n bytes, with "..." when it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 3 {
		return clipBytes(s, n)
	}
	return clipBytes(s, n-3) + "..."
}

// cell makes s safe for one cell of a table: a string with control or other
// non-printable characters is shown quoted, and the result is at most n
// bytes.
func cell(s string, n int) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 || !utf8.ValidString(s) {
		s = strconv.Quote(s)
	}
	return clip(s, n)
}

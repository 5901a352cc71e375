package toon

import (
	"math/big"
	"strconv"
	"strings"
)

// canonicalNumber returns the canonical TOON form (section 2) of a JSON number token, computed on
// its digits, never through a float, so that no digit is lost: for n = 0 or 1e-6 <= |n| < 1e21,
// plain decimal with no exponent, no leading zeros but the one before the point, no trailing zeros
// in the fraction and no point for an integer ("-0", "0.0e5": "0"; "1.50": "1.5"; "1e6":
// "1000000"); outside that range, the form JavaScript's Number.prototype.toString gives a double,
// here on the exact digits: one digit, the others after a point, and an exponent with a lower-case
// e and an explicit sign ("1e-7", "1.5e+300", "1.2345678901234567890123e+22"). The work is linear
// in the length of tok. tok must be a valid JSON number; TOON's number grammar (section 4) is the
// same language once leading zeros are excluded, as isTOONNumber does.
func canonicalNumber(tok string) string {
	neg := strings.HasPrefix(tok, "-")
	if neg {
		tok = tok[1:]
	}
	mant, exp := tok, ""
	if i := strings.IndexAny(tok, "eE"); i >= 0 {
		mant, exp = tok[:i], tok[i+1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	all := intPart + frac
	digits := strings.TrimLeft(all, "0")
	leading := len(all) - len(digits)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return "0"
	}
	// The value is 0.DIGITS * 10^point: point digits stand before the decimal point.
	expNeg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
	shift := len(intPart) - leading
	var b strings.Builder
	b.Grow(len(digits) + 24)
	if neg {
		b.WriteByte('-')
	}
	if len(exp) > 15 {
		// An exponent beyond any plain form: computed exactly, in big integers.
		e, _ := new(big.Int).SetString(exp, 10)
		if expNeg {
			e.Neg(e)
		}
		e.Add(e, big.NewInt(int64(shift-1)))
		writeExponentForm(&b, digits, e.String())
		return b.String()
	}
	e, _ := strconv.ParseInt(exp, 10, 64) // exp is "" (0) or at most 15 digits
	if expNeg {
		e = -e
	}
	point := int64(shift) + e
	if point < -5 || point > 21 {
		writeExponentForm(&b, digits, strconv.FormatInt(point-1, 10))
		return b.String()
	}
	switch {
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(zeros(int(-point)))
		b.WriteString(digits)
	case int(point) >= len(digits):
		b.WriteString(digits)
		b.WriteString(zeros(int(point) - len(digits)))
	default:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	}
	return b.String()
}

// writeExponentForm writes d.ddde±x for the significant digits and the decimal exponent e (a
// decimal integer, signed when negative).
func writeExponentForm(b *strings.Builder, digits, e string) {
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	b.WriteByte('e')
	if !strings.HasPrefix(e, "-") {
		b.WriteByte('+')
	}
	b.WriteString(e)
}

const zeros32 = "00000000000000000000000000000000"

func zeros(n int) string {
	if n <= len(zeros32) {
		return zeros32[:n]
	}
	return strings.Repeat("0", n)
}

// numericLike reports whether s matches /^[+-]?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i: a string an
// encoder quotes (section 7.2), leading zeros and a leading '+' included.
func numericLike(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return unsignedNumber(s)
}

// unsignedNumber reports whether s matches /^[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i.
func unsignedNumber(s string) bool {
	i := 0
	digits := func() bool {
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i > start
	}
	if !digits() {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

// isTOONNumber reports whether an unquoted token decodes as a number (section 4): it matches
// /^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i and its integer part has no forbidden leading zero
// ("05", "-007" are strings; "0.5", "0e1" are numbers). Such a token is a valid JSON number.
func isTOONNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if !unsignedNumber(s) {
		return false
	}
	return !(len(s) > 1 && s[0] == '0' && isDigit(s[1]))
}

package renderers

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// This file is the TOON encoder (Token-Oriented Object Notation, specification version 3.3,
// github.com/toon-format/spec, tag v3.3.2): the generic renderer of text/toon. Options are the
// specification's defaults: two spaces of indentation, comma as the delimiter, no key folding.

// ErrTooDeep reports a value nested deeper than a lossless rendering can carry: TOON indents every
// level, so containers deeper than 32 levels are refused rather than flattened into strings. The
// library then falls back to the structured rendering, which carries any depth.
var ErrTooDeep = errors.New("value nested too deep")

// toonZerosBase is the part of a document's zero budget that does not depend on its size: the
// zeros that writing its numbers as plain decimals may add to their digits are at most
// toonZerosBase plus the value's length in bytes (see appendTOONNumber).
const toonZerosBase = 1024

// TOON renders value as TOON (Token-Oriented Object Notation, specification 3.3): objects as
// "key: value" lines indented by two spaces per level, arrays with their length ("key[N]:"),
// arrays of primitives inline ("key[3]: a,b,c"), uniform arrays of objects whose values are
// primitives as a table ("key[2]{id,name}:" over one comma-separated row per element), and other
// arrays as "- " list items. Strings are quoted only where the specification requires it,
// numbers are written in canonical decimal form from their exact digits, and members keep the
// schema's order when opts.Schema gives one, else the value's own. Any TOON decoder reads the
// output back as the same JSON value. opts.Verbosity, Title and Units do not apply: TOON carries
// the value, all of it and nothing else. A value nested deeper than 32 levels gives an error
// wrapping [ErrTooDeep]; an invalid one an error wrapping [ErrInvalidJSON].
func (Generic) TOON(value []byte, opts Options) (string, error) {
	return toonWith(value, opts, ',')
}

// toonWith is TOON with delim (',', '\t' or '|') as the document delimiter, declared in every
// array header. TOON always uses the comma, the cheapest in tokens (docs/decisions.md); the tests
// measure the others.
func toonWith(value []byte, opts Options, delim byte) (string, error) {
	if err := validate(value); err != nil {
		return "", fmt.Errorf("renderers: toon: %w", err)
	}
	var r render
	r.init(opts, len(value))
	r.toonZeros = toonZerosBase + len(value)
	r.toonDelim = delim
	err := r.toonRoot(gjson.Parse(string(value)), opts.Schema)
	out := r.finish()
	if err != nil {
		return "", fmt.Errorf("renderers: toon: %w", err)
	}
	return out, nil
}

// toonPlace says where an array's header is written, which decides the form of an empty array.
type toonPlace uint8

const (
	toonField toonPlace = iota // after a key: "key: []", "key[N]: ..."
	toonRoot                   // alone at the root: "[]", "[N]: ..."
	toonItem                   // after a list item's "- ": "- [0]:", "- [N]: ..."
)

func (r *render) toonRoot(v gjson.Result, s *Schema) error {
	switch {
	case v.IsObject():
		return r.toonFields(v, s, 0, 0) // an empty object is the empty document
	case v.IsArray():
		return r.toonArray(v, itemsOf(s), toonRoot, 1, 0)
	default:
		r.toonPrimitive(v)
		return nil
	}
}

// toonFields writes the members of obj as "key: value" lines at indentation level line; nest
// counts the containers around obj.
func (r *render) toonFields(obj gjson.Result, s *Schema, line, nest int) error {
	if nest >= maxDepth {
		return ErrTooDeep
	}
	fields, mark := r.objectFields(obj, s)
	defer r.popFields(mark)
	fields = r.uniqueFields(fields, mark)
	for i := range fields {
		r.toonIndent(line)
		if err := r.toonMember(&fields[i], line+1, nest+1); err != nil {
			return err
		}
	}
	return nil
}

// toonMember writes one member from its key on (the line's indentation or "- " is written):
// "key: value", "key:" over the nested object's members at level child, or an array.
func (r *render) toonMember(f *field, child, nest int) error {
	r.toonKey(f.key)
	v, s := f.value, schemaOf(f.prop)
	switch {
	case v.IsObject():
		r.b.WriteString(":\n")
		return r.toonFields(v, s, child, nest)
	case v.IsArray():
		return r.toonArray(v, itemsOf(s), toonField, child, nest)
	default:
		r.b.WriteString(": ")
		r.toonPrimitive(v)
		r.b.WriteByte('\n')
		return nil
	}
}

// toonArray writes an array from its header on ("[N]..."), its rows or items at level child.
func (r *render) toonArray(arr gjson.Result, items *Schema, place toonPlace, child, nest int) error {
	if nest >= maxDepth {
		return ErrTooDeep
	}
	n, primitives := 0, true
	arr.ForEach(func(_, el gjson.Result) bool {
		n++
		primitives = primitives && el.Type != gjson.JSON
		return true
	})
	switch {
	case n == 0 && place == toonField:
		r.b.WriteString(": []\n")
		return nil
	case n == 0 && place == toonRoot:
		r.b.WriteString("[]\n")
		return nil
	case primitives:
		r.toonHeader(n)
		r.b.WriteByte(':')
		sep := byte(' ')
		arr.ForEach(func(_, el gjson.Result) bool {
			r.b.WriteByte(sep)
			r.toonPrimitive(el)
			sep = r.toonDelim
			return true
		})
		r.b.WriteByte('\n')
		return nil
	}
	if place != toonItem {
		if ok, err := r.toonTable(arr, items, n, child); ok || err != nil {
			return err
		}
	}
	r.toonHeader(n)
	r.b.WriteString(":\n")
	var err error
	arr.ForEach(func(_, el gjson.Result) bool {
		err = r.toonListItem(el, items, child, nest+1)
		return err == nil
	})
	return err
}

func (r *render) toonHeader(n int) {
	r.b.WriteByte('[')
	r.b.WriteString(strconv.Itoa(n))
	if r.toonDelim != ',' {
		r.b.WriteByte(r.toonDelim) // the comma is the one left implicit (section 6)
	}
	r.b.WriteByte(']')
}

// toonListItem writes one element of an expanded array as a "- " item at level line.
func (r *render) toonListItem(el gjson.Result, items *Schema, line, nest int) error {
	r.toonIndent(line)
	r.b.WriteByte('-')
	switch {
	case el.IsArray():
		r.b.WriteByte(' ')
		return r.toonArray(el, itemsOf(items), toonItem, line+1, nest)
	case !el.IsObject():
		r.b.WriteByte(' ')
		r.toonPrimitive(el)
		r.b.WriteByte('\n')
		return nil
	}
	if nest >= maxDepth {
		return ErrTooDeep
	}
	fields, mark := r.objectFields(el, items)
	defer r.popFields(mark)
	fields = r.uniqueFields(fields, mark)
	if len(fields) == 0 {
		r.b.WriteByte('\n') // an empty object is the bare "-"
		return nil
	}
	// The first member goes on the hyphen line; what it holds is two levels in (a table's rows
	// included, as section 10 requires), the other members one level in.
	r.b.WriteByte(' ')
	if err := r.toonMember(&fields[0], line+2, nest+1); err != nil {
		return err
	}
	for i := 1; i < len(fields); i++ {
		r.toonIndent(line + 1)
		if err := r.toonMember(&fields[i], line+2, nest+1); err != nil {
			return err
		}
	}
	return nil
}

// toonTable writes arr in tabular form ("[N]{a,b}:" and one row per element at level child) when
// it qualifies (section 9.3): every element an object with at least one member, all with the same
// keys, every value a primitive. Columns come in the first element's order (the schema's, when
// items has one). It reports false, having written nothing, when arr does not qualify.
func (r *render) toonTable(arr gjson.Result, items *Schema, n, child int) (bool, error) {
	var first gjson.Result
	arr.ForEach(func(_, el gjson.Result) bool {
		first = el
		return false
	})
	if !first.IsObject() {
		return false, nil
	}
	cols, colMark := r.objectFields(first, items)
	cols = r.uniqueFields(cols, colMark)
	defer r.popFields(colMark)
	if len(cols) == 0 {
		return false, nil
	}
	index := columnIndexOf(cols)
	ok := true
	arr.ForEach(func(_, el gjson.Result) bool {
		ok = r.toonRow(el, items, cols, index, false)
		return ok
	})
	if !ok {
		return false, nil
	}
	r.toonHeader(n)
	r.b.WriteByte('{')
	for i := range cols {
		if i > 0 {
			r.b.WriteByte(r.toonDelim)
		}
		r.toonKey(cols[i].key)
	}
	r.b.WriteString("}:\n")
	arr.ForEach(func(_, el gjson.Result) bool {
		r.toonIndent(child)
		r.toonRow(el, items, cols, index, true)
		r.b.WriteByte('\n')
		return true
	})
	return true, nil
}

// toonRow checks that el is an object with exactly the keys of cols, every value a primitive, and
// when write is set writes its values in the order of cols.
func (r *render) toonRow(el gjson.Result, items *Schema, cols []field, index map[string]int, write bool) bool {
	if !el.IsObject() {
		return false
	}
	fields, mark := r.objectFields(el, items)
	defer r.popFields(mark)
	fields = r.uniqueFields(fields, mark)
	if len(fields) != len(cols) {
		return false
	}
	cells := r.scratch.cells[:0]
	for range cols {
		cells = append(cells, gjson.Result{})
	}
	for i := range fields {
		if fields[i].value.Type == gjson.JSON {
			return false
		}
		j := columnOf(cols, index, fields[i].key)
		if j < 0 || cells[j].Raw != "" {
			return false
		}
		cells[j] = fields[i].value
	}
	r.scratch.cells = cells
	if write {
		for i := range cells {
			if i > 0 {
				r.b.WriteByte(r.toonDelim)
			}
			r.toonPrimitive(cells[i])
		}
	}
	clear(cells)
	return true
}

// columnIndexOf maps the keys of a wide table's columns to their positions; narrow tables are
// scanned (nil).
func columnIndexOf(cols []field) map[string]int {
	if len(cols) <= smallSchema {
		return nil
	}
	m := make(map[string]int, len(cols))
	for i := range cols {
		m[cols[i].key] = i
	}
	return m
}

func columnOf(cols []field, index map[string]int, key string) int {
	if index != nil {
		if i, ok := index[key]; ok {
			return i
		}
		return -1
	}
	for i := range cols {
		if cols[i].key == key {
			return i
		}
	}
	return -1
}

// uniqueFields reads the keys of the fields on top of the scratch stack (from mark) as
// encoding/json does (jsonText) and removes repeated ones as JSON decoders do: the member stays
// where its key first appears, with the value it was given last. TOON decoders reject repeated
// keys, so they are never written.
func (r *render) uniqueFields(fields []field, mark int) []field {
	for i := range fields {
		fields[i].key = jsonText(fields[i].key, fields[i].raw)
	}
	if len(fields) < 2 {
		return fields
	}
	var seen map[string]int
	if len(fields) > smallSchema {
		seen = make(map[string]int, len(fields))
	}
	out := fields[:0]
	for _, f := range fields {
		j := -1
		if seen != nil {
			if k, ok := seen[f.key]; ok {
				j = k
			} else {
				seen[f.key] = len(out)
			}
		} else {
			for k := range out {
				if out[k].key == f.key {
					j = k
					break
				}
			}
		}
		if j >= 0 {
			out[j].value = f.value
			continue
		}
		out = append(out, f)
	}
	if len(out) < len(fields) {
		clear(fields[len(out):])
		r.scratch.fields = r.scratch.fields[:mark+len(out)]
	}
	return out
}

func (r *render) toonIndent(level int) {
	for range level {
		r.b.WriteString("  ")
	}
}

// toonKey writes a key: unquoted when it is an identifier (section 7.3), quoted otherwise. Keys
// with a dot are quoted too, so that a decoder that expands dotted paths keeps them whole.
func (r *render) toonKey(k string) {
	if toonIdentifier(k) {
		r.b.WriteString(k)
		return
	}
	r.toonQuoted(k)
}

func toonIdentifier(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// toonPrimitive writes a string, number, boolean or null.
func (r *render) toonPrimitive(v gjson.Result) {
	switch v.Type {
	case gjson.String:
		s := jsonText(v.Str, v.Raw)
		if toonNeedsQuote(s, r.toonDelim) {
			r.toonQuoted(s)
		} else {
			r.b.WriteString(s)
		}
	case gjson.Number:
		var added int
		r.scratch.buf, added = appendTOONNumber(r.scratch.buf[:0], v.Raw, r.toonZeros)
		r.toonZeros -= added
		r.b.Write(r.scratch.buf)
	case gjson.True:
		r.b.WriteString("true")
	case gjson.False:
		r.b.WriteString("false")
	default:
		r.b.WriteString("null")
	}
}

// toonNeedsQuote reports whether a string value must be quoted (section 7.2) in a document whose
// every header declares delim: it is empty, has white space at either end, reads as a boolean,
// null or a number, holds a colon, quote, backslash, bracket, brace, control character or delim
// (the document delimiter for a "key: value", the active one for a cell or inline value, the same
// here), or starts with '-'. It also quotes what TOON 4.0 will read otherwise: a leading '#' (a comment
// there) and a number with a leading '+'. Invalid UTF-8 is quoted, to be written as U+FFFD.
func toonNeedsQuote(s string, delim byte) bool {
	if s == "" || s == "true" || s == "false" || s == "null" || s[0] == '-' || s[0] == '#' || numericLike(s) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if toonSpace(first) || toonSpace(last) {
		return true
	}
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c < 0x20, c == ':', c == '"', c == '\\', c == '[', c == ']', c == '{', c == '}', c == delim:
			return true
		case c >= utf8.RuneSelf:
			_, size := utf8.DecodeRuneInString(s[i:])
			if size == 1 {
				return true
			}
			i += size
		default:
			i++
		}
	}
	return false
}

// toonSpace reports white space that a decoder may trim from an unquoted token: Unicode's, and
// the byte order mark that JavaScript's trim removes too.
func toonSpace(c rune) bool { return unicode.IsSpace(c) || c == '\uFEFF' }

// numericLike reports whether s matches /^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i, which a decoder would
// read as a number (leading zeros included: "05" is quoted too).
func numericLike(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
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

// toonQuoted writes s in double quotes with TOON's escapes (section 7.1): \\, \", \n, \r, \t, and
// \u00XX for the other control characters. Invalid UTF-8 becomes U+FFFD, as JSON decoders read it.
func (r *render) toonQuoted(s string) {
	const hex = "0123456789abcdef"
	r.b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if _, size := utf8.DecodeRuneInString(s[i:]); size > 1 {
				i += size
				continue
			}
			r.b.WriteString(s[start:i])
			r.b.WriteString("\uFFFD")
			i++
			start = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		r.b.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			r.b.WriteByte('\\')
			r.b.WriteByte(c)
		case '\n':
			r.b.WriteString(`\n`)
		case '\r':
			r.b.WriteString(`\r`)
		case '\t':
			r.b.WriteString(`\t`)
		default:
			r.b.WriteString(`\u00`)
			r.b.WriteByte(hex[c>>4])
			r.b.WriteByte(hex[c&0xf])
		}
		i++
		start = i
	}
	r.b.WriteString(s[start:])
	r.b.WriteByte('"')
}

// appendTOONNumber appends the TOON form of the JSON number tok, computed on its digits (never
// through a float, so no digit is lost), and returns how many zeros it added to them: canonical
// decimal, with no exponent, no leading zeros but the one before the point, no trailing zeros in
// the fraction, no point for an integer, and 0 for any zero ("-0", "0.0e5"). When the plain form
// would add more than maxZeros zeros (1e999999999), the number is written in exponent notation
// instead, as TOON 3.3 section 2 allows outside 1e-6 <= |n| < 1e21: "d.ddde+N" with a lower-case
// e and an explicit sign, or, for an exponent of more than 15 digits, the JSON text's own digits
// with trailing fraction zeros dropped ("1.5e+99999999999999999999"). The work is linear in the
// length of tok plus the zeros added.
func appendTOONNumber(dst []byte, tok string, maxZeros int) ([]byte, int) {
	neg := tok != "" && tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	i := 0
	for i < len(tok) && isASCIIDigit(tok[i]) {
		i++
	}
	intPart, frac, exp := tok[:i], "", ""
	if i < len(tok) && tok[i] == '.' {
		j := i + 1
		for j < len(tok) && isASCIIDigit(tok[j]) {
			j++
		}
		frac, i = tok[i+1:j], j
	}
	expNeg := false
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			expNeg = tok[i] == '-'
			i++
		}
		exp = tok[i:]
	}
	exp = strings.TrimLeft(exp, "0")
	frac = strings.TrimRight(frac, "0")

	// The significant digits are hi+lo, with the decimal point after point of them (point may be
	// negative or beyond them): hi is the integer part unless it is zero, lo the fraction.
	hi, lo, point := intPart, frac, len(intPart)
	if strings.TrimLeft(hi, "0") == "" {
		trimmed := strings.TrimLeft(lo, "0")
		hi, lo, point = "", trimmed, len(trimmed)-len(lo)
	}
	if lo == "" {
		hi = strings.TrimRight(hi, "0")
	}
	n := len(hi) + len(lo)
	if n == 0 {
		return append(dst, '0'), 0 // every zero, -0 included, is 0
	}
	if neg {
		dst = append(dst, '-')
	}
	if len(exp) > 15 {
		// An exponent beyond any plain form: the JSON text's own mantissa and exponent.
		dst = append(dst, intPart...)
		if frac != "" {
			dst = append(dst, '.')
			dst = append(dst, frac...)
		}
		return appendExponent(dst, expNeg, exp), 0
	}
	if exp != "" {
		e, _ := strconv.Atoi(exp)
		if expNeg {
			e = -e
		}
		point += e
	}
	switch {
	case point <= 0 && -point <= maxZeros:
		dst = append(dst, '0', '.')
		dst = appendZeros(dst, -point)
		return appendDigitRange(dst, hi, lo, 0, n), -point
	case point >= n && point-n <= maxZeros:
		dst = appendDigitRange(dst, hi, lo, 0, n)
		return appendZeros(dst, point-n), point - n
	case point > 0 && point < n:
		dst = appendDigitRange(dst, hi, lo, 0, point)
		dst = append(dst, '.')
		return appendDigitRange(dst, hi, lo, point, n), 0
	}
	dst = appendDigitRange(dst, hi, lo, 0, 1)
	if n > 1 {
		dst = append(dst, '.')
		dst = appendDigitRange(dst, hi, lo, 1, n)
	}
	e := point - 1
	return appendExponent(dst, e < 0, strconv.Itoa(max(e, -e))), 0
}

// appendDigitRange appends the digits from to to of hi+lo.
func appendDigitRange(dst []byte, hi, lo string, from, to int) []byte {
	if from < len(hi) {
		dst = append(dst, hi[from:min(to, len(hi))]...)
	}
	if to > len(hi) {
		dst = append(dst, lo[max(from-len(hi), 0):to-len(hi)]...)
	}
	return dst
}

const zeros64 = "0000000000000000000000000000000000000000000000000000000000000000"

func appendZeros(dst []byte, n int) []byte {
	for ; n > len(zeros64); n -= len(zeros64) {
		dst = append(dst, zeros64...)
	}
	return append(dst, zeros64[:n]...)
}

// appendExponent appends "e", the sign and the digits of an exponent.
func appendExponent(dst []byte, neg bool, digits string) []byte {
	sign := byte('+')
	if neg {
		sign = '-'
	}
	dst = append(dst, 'e', sign)
	return append(dst, digits...)
}

// jsonText returns the text of a JSON string as encoding/json reads it, given gjson's reading s of
// its JSON text raw. They differ for invalid UTF-8, which encoding/json reads as one U+FFFD per
// bad byte and gjson keeps, and for \u escapes of lone surrogates, which encoding/json reads as
// one U+FFFD each and gjson sometimes as one for two; raw is then decoded again (rarely: the usual
// string costs a scan).
func jsonText(s, raw string) string {
	if utf8.ValidString(s) && (!strings.ContainsRune(s, utf8.RuneError) || !strings.Contains(raw, `\u`)) {
		return s
	}
	var out string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	return out
}

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

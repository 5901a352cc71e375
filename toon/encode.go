package toon

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// encoder writes a value as a TOON document.
type encoder struct {
	b      []byte
	indent int
	delim  byte
}

// encode writes the document of v (section 5): a primitive alone, an array from its header at
// the root, an object's fields at depth 0 (the empty object is the empty document), or an object
// whose entries are uniform objects in keyless keyed form.
func (e *encoder) encode(v *node) {
	switch {
	case v.isPrimitive():
		e.primitive(v)
	case v.kind == kindArray:
		e.array(v, placeRoot, 1)
	case keyedEligible(v):
		e.keyed(v, 1)
	default:
		e.fields(v, 0)
	}
}

// place is where an array's header stands, which decides the form of an empty array and whether
// the tabular form is open to it.
type place uint8

const (
	placeField place = iota // after a key: "key: []", "key[N]: ..."
	placeRoot               // alone at the root: "[]", "[N]: ..."
	placeItem               // after a list item's "- ": "- [0]:", "- [N]: ...", never tabular
)

func (e *encoder) newline(depth int) {
	e.b = append(e.b, '\n')
	for range depth * e.indent {
		e.b = append(e.b, ' ')
	}
}

// fields writes the members of obj as lines at depth, the first without a line break before it
// at depth 0 (the document's first line).
func (e *encoder) fields(obj *node, depth int) {
	for i := range obj.kids {
		if depth > 0 || i > 0 {
			e.newline(depth)
		}
		e.field(&obj.kids[i], depth)
	}
}

// field writes one member from its key on (the indentation or "- " is written), its content at
// depth+1: "key: value", "key:" over a nested object, a keyed object's header and entry rows, or
// an array.
func (e *encoder) field(f *node, depth int) {
	e.key(f.key)
	switch {
	case f.isPrimitive():
		e.b = append(e.b, ':', ' ')
		e.primitive(f)
	case f.kind == kindArray:
		e.array(f, placeField, depth+1)
	case keyedEligible(f):
		e.keyed(f, depth+1)
	default:
		e.b = append(e.b, ':')
		e.fields(f, depth+1)
	}
}

// keyedEligible reports whether obj is written in keyed tabular form (section 9.5): at least two
// entries, every value an object of the same pure shape.
func keyedEligible(obj *node) bool {
	if obj.kind != kindObject || len(obj.kids) < 2 {
		return false
	}
	s := obj.kids[0].shape
	if s == 0 {
		return false
	}
	for i := range obj.kids {
		if obj.kids[i].kind != kindObject || obj.kids[i].shape != s {
			return false
		}
	}
	return true
}

// tabular reports whether arr is written in tabular form (section 9.3): every element an object of
// the same pure shape.
func tabular(arr *node) bool {
	if len(arr.kids) == 0 {
		return false
	}
	s := arr.kids[0].shape
	if s == 0 {
		return false
	}
	for i := range arr.kids {
		if arr.kids[i].kind != kindObject || arr.kids[i].shape != s {
			return false
		}
	}
	return true
}

// keyed writes obj's keyed header ("[N:]{fields}:", after its key if any) and one entry row per
// member at depth.
func (e *encoder) keyed(obj *node, depth int) {
	e.b = append(e.b, '[')
	e.b = strconv.AppendInt(e.b, int64(len(obj.kids)), 10)
	e.b = append(e.b, ':')
	if e.delim != ',' {
		e.b = append(e.b, e.delim)
	}
	e.b = append(e.b, ']')
	e.fieldList(&obj.kids[0])
	e.b = append(e.b, ':')
	for i := range obj.kids {
		entry := &obj.kids[i]
		e.newline(depth)
		e.key(entry.key)
		e.b = append(e.b, ':', ' ')
		e.cells(&obj.kids[0], entry, true)
	}
}

// array writes arr from its header on, its rows or items at depth.
func (e *encoder) array(arr *node, at place, depth int) {
	n := len(arr.kids)
	if n == 0 {
		switch at {
		case placeField:
			e.b = append(e.b, ':', ' ', '[', ']')
		case placeRoot:
			e.b = append(e.b, '[', ']')
		default:
			e.header(0)
			e.b = append(e.b, ':')
		}
		return
	}
	primitives := true
	for i := range arr.kids {
		if !arr.kids[i].isPrimitive() {
			primitives = false
			break
		}
	}
	e.header(n)
	switch {
	case primitives:
		e.b = append(e.b, ':')
		for i := range arr.kids {
			if i == 0 {
				e.b = append(e.b, ' ')
			} else {
				e.b = append(e.b, e.delim)
			}
			e.primitive(&arr.kids[i])
		}
	case at != placeItem && tabular(arr):
		first := &arr.kids[0]
		e.fieldList(first)
		e.b = append(e.b, ':')
		for i := range arr.kids {
			e.newline(depth)
			e.cells(first, &arr.kids[i], true)
		}
	default:
		e.b = append(e.b, ':')
		for i := range arr.kids {
			e.newline(depth)
			e.item(&arr.kids[i], depth)
		}
	}
}

func (e *encoder) header(n int) {
	e.b = append(e.b, '[')
	e.b = strconv.AppendInt(e.b, int64(n), 10)
	if e.delim != ',' {
		e.b = append(e.b, e.delim) // the comma is the one left implicit (section 6)
	}
	e.b = append(e.b, ']')
}

// fieldList writes the fields segment of a table whose first row (or entry value) is first: its
// keys in order, a nested object's as a nested field group (section 9.3).
func (e *encoder) fieldList(first *node) {
	e.b = append(e.b, '{')
	for i := range first.kids {
		if i > 0 {
			e.b = append(e.b, e.delim)
		}
		k := &first.kids[i]
		e.key(k.key)
		if k.kind == kindObject {
			e.fieldList(k)
		}
	}
	e.b = append(e.b, '}')
}

// cells writes the leaf values of row in the depth-first order of the fields of first, which has
// row's shape; start says no delimiter goes before the first.
func (e *encoder) cells(first, row *node, start bool) bool {
	for i := range first.kids {
		f := &first.kids[i]
		v := row.member(f.key)
		if f.kind == kindObject {
			start = e.cells(f, v, start)
			continue
		}
		if !start {
			e.b = append(e.b, e.delim)
		}
		start = false
		e.primitive(v)
	}
	return start
}

// item writes one element of an expanded array as a list item (the line's indentation is written;
// depth is the hyphen's): "- value", "- [M]: ..." over the nested items at depth+1, "-" for the
// empty object, or an object with its first field on the hyphen line, its other fields at
// depth+1 and what its first field opens at depth+2 (section 10).
func (e *encoder) item(v *node, depth int) {
	e.b = append(e.b, '-')
	switch {
	case v.isPrimitive():
		e.b = append(e.b, ' ')
		e.primitive(v)
	case v.kind == kindArray:
		e.b = append(e.b, ' ')
		e.array(v, placeItem, depth+1)
	case len(v.kids) == 0:
	default:
		e.b = append(e.b, ' ')
		e.field(&v.kids[0], depth+1)
		for i := 1; i < len(v.kids); i++ {
			e.newline(depth + 1)
			e.field(&v.kids[i], depth+1)
		}
	}
}

// key writes a key: unquoted when it matches ^[A-Za-z_][A-Za-z0-9_.]*$ (section 7.3), quoted
// otherwise.
func (e *encoder) key(k string) {
	if identifier(k) {
		e.b = append(e.b, k...)
		return
	}
	e.b = appendQuoted(e.b, k)
}

func identifier(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && (isDigit(c) || c == '.')) {
			return false
		}
	}
	return true
}

// primitive writes a string, number, boolean or null.
func (e *encoder) primitive(v *node) {
	switch v.kind {
	case kindString:
		if needsQuotes(v.text, e.delim) {
			e.b = appendQuoted(e.b, v.text)
		} else {
			e.b = append(e.b, v.text...)
		}
	case kindNumber:
		e.b = append(e.b, v.text...)
	case kindTrue:
		e.b = append(e.b, "true"...)
	case kindFalse:
		e.b = append(e.b, "false"...)
	default:
		e.b = append(e.b, "null"...)
	}
}

// needsQuotes reports whether a string value is quoted (section 7.2) in a document whose every
// header declares delim (so the document delimiter and every active delimiter are delim): it is
// empty, reads as a boolean, null or a number (leading zeros and '+' included), holds a colon,
// quote, backslash, bracket, brace, control character or delim, or starts with '-' or '#'. It is
// also quoted when it has white space at either end: the spec requires it for U+0020 and tab, and
// this package quotes any Unicode white space and U+FEFF there, which some decoders trim. Invalid
// UTF-8 is quoted too (it is written as U+FFFD).
func needsQuotes(s string, delim byte) bool {
	if s == "" || s == "true" || s == "false" || s == "null" || s[0] == '-' || s[0] == '#' || numericLike(s) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if trimmable(first) || trimmable(last) {
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

// trimmable reports white space that a decoder might trim from an unquoted token: Unicode's, and
// the byte order mark that JavaScript's String.prototype.trim removes too.
func trimmable(c rune) bool { return unicode.IsSpace(c) || c == '\uFEFF' }

// appendQuoted appends s in double quotes with TOON's escapes (section 7.1): \\, \", \n, \r, \t,
// and \u00xx for the other control characters; invalid UTF-8 is written as U+FFFD.
func appendQuoted(b []byte, s string) []byte { return appendString(b, s, false) }

// appendString appends s in double quotes, its ASCII escaped by appendEscape (the same in TOON
// and JSON) and invalid UTF-8 replaced by U+FFFD. forJSON writes that U+FFFD, U+2028 and U+2029
// as \u escapes (JSON text that may be embedded in JavaScript); TOON writes them as they are.
func appendString(b []byte, s string, forJSON bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var repl string
		switch {
		case r == utf8.RuneError && size == 1 && forJSON:
			repl = `\ufffd`
		case r == utf8.RuneError && size == 1:
			repl = "\uFFFD"
		case forJSON && r == '\u2028':
			repl = `\u2028`
		case forJSON && r == '\u2029':
			repl = `\u2029`
		default:
			i += size
			continue
		}
		b = append(append(b, s[start:i]...), repl...)
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends the escape of an ASCII byte that TOON and JSON both
// escape alike: '"', '\\', and the control characters (\n, \r, \t, else
// \u00xx).
func appendEscape(b []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}

package renderers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is a strict TOON decoder (specification 3.3, indentation 2, strict mode), written from
// the specification independently of the encoder, and the JSON side of the round trip: the tests
// and the fuzzer check that decoding the encoder's output gives the value back.
//
// Values are nil (null), bool, tnum (a number's text), string, []any and *tobj.

// tnum is a number as written (JSON or TOON text); numbers compare by exact decimal value.
type tnum string

// tobj is an object: members in order, keys unique.
type tobj struct {
	keys []string
	vals []any
}

func (o *tobj) set(k string, v any) bool {
	for _, have := range o.keys {
		if have == k {
			return false
		}
	}
	o.keys, o.vals = append(o.keys, k), append(o.vals, v)
	return true
}

// toonLine is one line of a document: its depth and its content after the indentation.
type toonLine struct {
	depth int
	text  string
	num   int // 1-based, for errors
}

type toonDecoder struct {
	lines []toonLine
	pos   int
	// docDelim is the document delimiter, which the strings of "key: value" lines are quoted for.
	docDelim byte
}

var errTOON = errors.New("invalid TOON")

func (d *toonDecoder) fail(format string, args ...any) error {
	where := "end"
	if d.pos < len(d.lines) {
		where = "line " + strconv.Itoa(d.lines[d.pos].num)
	}
	return fmt.Errorf("%w: %s: %s", errTOON, where, fmt.Sprintf(format, args...))
}

// decodeTOON decodes a document in strict mode. It also checks the encoder's whitespace
// invariants (section 12): LF only, no trailing newline, no trailing spaces, no blank lines, no
// tabs in indentation, indentation in multiples of two spaces; and its quoting (section 7.2),
// with the comma as the document delimiter.
func decodeTOON(doc string) (any, error) {
	return decodeTOONWith(doc, ',')
}

// decodeTOONWith is decodeTOON for a document written with docDelim as its document delimiter,
// which only the encoder's quoting depends on: a decoder reads the whole text after "key: " as
// the value, and splits rows and inline values on the delimiter their header declares.
func decodeTOONWith(doc string, docDelim byte) (any, error) {
	if !utf8.ValidString(doc) {
		return nil, fmt.Errorf("%w: not UTF-8", errTOON)
	}
	if doc == "" {
		return &tobj{}, nil
	}
	if strings.HasSuffix(doc, "\n") {
		return nil, fmt.Errorf("%w: trailing newline", errTOON)
	}
	d := &toonDecoder{docDelim: docDelim}
	for i, raw := range strings.Split(doc, "\n") {
		n := 0
		for n < len(raw) && raw[n] == ' ' {
			n++
		}
		switch {
		case strings.ContainsRune(raw, '\r'):
			return nil, fmt.Errorf("%w: line %d: carriage return", errTOON, i+1)
		case strings.TrimSpace(raw) == "":
			return nil, fmt.Errorf("%w: line %d: blank line", errTOON, i+1)
		case n%2 != 0:
			return nil, fmt.Errorf("%w: line %d: indentation of %d spaces", errTOON, i+1, n)
		case raw[n] == '\t':
			return nil, fmt.Errorf("%w: line %d: tab in indentation", errTOON, i+1)
		case strings.HasSuffix(raw, " "):
			return nil, fmt.Errorf("%w: line %d: trailing space", errTOON, i+1)
		}
		d.lines = append(d.lines, toonLine{depth: n / 2, text: raw[n:], num: i + 1})
	}
	if d.lines[0].depth != 0 {
		return nil, d.fail("the document starts indented")
	}
	v, err := d.root()
	if err != nil {
		return nil, err
	}
	if d.pos < len(d.lines) {
		return nil, d.fail("unexpected line")
	}
	return v, nil
}

// root decides the root form (section 5).
func (d *toonDecoder) root() (any, error) {
	first := d.lines[0].text
	if first == "[]" && len(d.lines) == 1 {
		d.pos++
		return []any{}, nil
	}
	if strings.HasPrefix(first, "[") {
		h, rest, err := parseHeader(first)
		if err == nil {
			d.pos++
			return d.arrayBody(h, rest, 1)
		}
	}
	if len(d.lines) == 1 && !isKeyLine(first) {
		d.pos++
		return parsePrimitive(first, d.docDelim)
	}
	return d.object(0)
}

// isKeyLine reports whether a line starts with a key followed by ':' or '['.
func isKeyLine(s string) bool {
	_, rest, err := parseKey(s)
	return err == nil && rest != "" && (rest[0] == ':' || rest[0] == '[')
}

// object reads the members at depth until a line at a smaller depth.
func (d *toonDecoder) object(depth int) (*tobj, error) {
	o := &tobj{}
	for d.pos < len(d.lines) {
		l := d.lines[d.pos]
		if l.depth < depth {
			break
		}
		if l.depth > depth {
			return nil, d.fail("indented %d levels, want %d", l.depth, depth)
		}
		if strings.HasPrefix(l.text, "-") {
			return nil, d.fail("list item among members")
		}
		d.pos++
		k, v, err := d.member(l.text, depth+1)
		if err != nil {
			return nil, err
		}
		if !o.set(k, v) {
			return nil, d.fail("repeated key %q", k)
		}
	}
	return o, nil
}

// member reads one "key: value", "key:" or "key[N]...:" whose content (a nested object's
// members, an array's rows or items) is at depth child.
func (d *toonDecoder) member(text string, child int) (string, any, error) {
	k, rest, err := parseKey(text)
	if err != nil {
		return "", nil, d.fail("%v", err)
	}
	switch {
	case strings.HasPrefix(rest, "["):
		h, after, err := parseHeader(rest)
		if err != nil {
			return "", nil, d.fail("%v", err)
		}
		v, err := d.arrayBody(h, after, child)
		return k, v, err
	case rest == ":":
		v, err := d.object(child)
		return k, v, err
	case rest == ": []":
		return k, []any{}, nil
	case strings.HasPrefix(rest, ": "):
		v, err := parsePrimitive(rest[2:], d.docDelim)
		if err != nil {
			return "", nil, d.fail("%v", err)
		}
		return k, v, nil
	}
	return "", nil, d.fail("missing colon after key %q", k)
}

// header is an array header: its length, delimiter and fields (nil when not tabular).
type header struct {
	n      int
	delim  byte
	fields []string
}

// parseHeader reads "[N<delim?>]{fields}:" and returns what follows the colon.
func parseHeader(s string) (header, string, error) {
	var h header
	if !strings.HasPrefix(s, "[") {
		return h, "", errors.New("no bracket")
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return h, "", errors.New("unclosed bracket")
	}
	inner := s[1:end]
	h.delim = ','
	if inner != "" && (inner[len(inner)-1] == '\t' || inner[len(inner)-1] == '|') {
		h.delim, inner = inner[len(inner)-1], inner[:len(inner)-1]
	}
	if inner == "" || len(inner) > 1 && inner[0] == '0' || strings.Trim(inner, "0123456789") != "" {
		return h, "", fmt.Errorf("bad length %q", inner)
	}
	n, err := strconv.Atoi(inner)
	if err != nil {
		return h, "", fmt.Errorf("bad length %q", inner)
	}
	h.n = n
	s = s[end+1:]
	if strings.HasPrefix(s, "{") {
		h.fields = []string{}
		s = s[1:]
		for {
			k, rest, err := parseKey(s)
			if err != nil {
				return h, "", fmt.Errorf("field: %w", err)
			}
			h.fields = append(h.fields, k)
			if rest == "" {
				return h, "", errors.New("unclosed fields")
			}
			if rest[0] == '}' {
				s = rest[1:]
				break
			}
			if rest[0] != h.delim {
				return h, "", fmt.Errorf("fields separated by %q, want %q", rest[0], h.delim)
			}
			s = rest[1:]
		}
		for i := range h.fields {
			for j := i + 1; j < len(h.fields); j++ {
				if h.fields[i] == h.fields[j] {
					return h, "", fmt.Errorf("repeated field %q", h.fields[i])
				}
			}
		}
	}
	if !strings.HasPrefix(s, ":") {
		return h, "", errors.New("header without colon")
	}
	return h, s[1:], nil
}

// arrayBody reads an array whose header was read; rest is what followed its colon; its rows or
// items are at depth child.
func (d *toonDecoder) arrayBody(h header, rest string, child int) ([]any, error) {
	if rest != "" {
		if h.fields != nil || !strings.HasPrefix(rest, " ") {
			return nil, d.fail("bad text after header: %q", rest)
		}
		cells, err := splitCells(rest[1:], h.delim)
		if err != nil {
			return nil, d.fail("%v", err)
		}
		if len(cells) != h.n {
			return nil, d.fail("%d values, header says %d", len(cells), h.n)
		}
		out := make([]any, len(cells))
		for i, c := range cells {
			if out[i], err = parsePrimitive(c, h.delim); err != nil {
				return nil, d.fail("%v", err)
			}
		}
		return out, nil
	}
	out := make([]any, 0, min(h.n, 1024))
	for range h.n {
		if d.pos >= len(d.lines) || d.lines[d.pos].depth != child {
			return nil, d.fail("%d rows or items, header says %d", len(out), h.n)
		}
		l := d.lines[d.pos]
		d.pos++
		var v any
		var err error
		if h.fields != nil {
			v, err = d.row(l.text, h)
		} else {
			v, err = d.item(l.text, h.delim, child)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if d.pos < len(d.lines) && d.lines[d.pos].depth >= child {
		return nil, d.fail("more rows or items than the header's %d", h.n)
	}
	return out, nil
}

func (d *toonDecoder) row(text string, h header) (*tobj, error) {
	if strings.HasPrefix(text, "- ") || text == "-" {
		return nil, d.fail("list item in a table")
	}
	cells, err := splitCells(text, h.delim)
	if err != nil {
		return nil, d.fail("%v", err)
	}
	if len(cells) != len(h.fields) {
		return nil, d.fail("row of %d cells, %d fields", len(cells), len(h.fields))
	}
	o := &tobj{}
	for i, c := range cells {
		v, err := parsePrimitive(c, h.delim)
		if err != nil {
			return nil, d.fail("%v", err)
		}
		o.set(h.fields[i], v)
	}
	return o, nil
}

// item reads one list item written at depth: an object's further members follow at depth+1,
// what its first member holds (or a nested array's items) at depth+2 (depth+1 for an array).
func (d *toonDecoder) item(text string, delim byte, depth int) (any, error) {
	if text == "-" {
		return &tobj{}, nil
	}
	if !strings.HasPrefix(text, "- ") {
		return nil, d.fail("want a list item")
	}
	text = text[2:]
	switch {
	case strings.HasPrefix(text, "["):
		h, rest, err := parseHeader(text)
		if err != nil {
			return nil, d.fail("%v", err)
		}
		if h.fields != nil {
			return nil, d.fail("a table as a list item")
		}
		return d.arrayBody(h, rest, depth+1)
	case isKeyLine(text):
		o := &tobj{}
		k, v, err := d.member(text, depth+2)
		if err != nil {
			return nil, err
		}
		o.set(k, v)
		more, err := d.object(depth + 1)
		if err != nil {
			return nil, err
		}
		for i, k := range more.keys {
			if !o.set(k, more.vals[i]) {
				return nil, d.fail("repeated key %q", k)
			}
		}
		return o, nil
	default:
		v, err := parsePrimitive(text, delim)
		if err != nil {
			return nil, d.fail("%v", err)
		}
		return v, nil
	}
}

// parseKey reads a key at the start of s: quoted, or unquoted matching ^[A-Za-z_][A-Za-z0-9_.]*$.
func parseKey(s string) (string, string, error) {
	if strings.HasPrefix(s, `"`) {
		return parseQuoted(s)
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && ('0' <= c && c <= '9' || c == '.') {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return "", "", fmt.Errorf("no key at %q", clip(s))
	}
	return s[:i], s[i:], nil
}

// parseQuoted reads a quoted string at the start of s and returns it unescaped and what follows.
func parseQuoted(s string) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c < 0x20 && c != '\t':
			return "", "", fmt.Errorf("raw control character %#x in a quoted string", c)
		case c == '\t':
			return "", "", errors.New("raw tab in a quoted string (encoders write \\t)")
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '\\', '"':
			b.WriteByte(s[i])
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if i+4 >= len(s) {
				return "", "", errors.New("short \\u escape")
			}
			r, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil || 0xD800 <= r && r <= 0xDFFF {
				return "", "", fmt.Errorf("bad \\u escape %q", s[i:i+5])
			}
			if r >= 0x20 {
				return "", "", fmt.Errorf("\\u escape of a printable character %q (allowed, but this encoder writes it literally)", s[i:i+5])
			}
			b.WriteRune(rune(r))
			i += 4
		default:
			return "", "", fmt.Errorf("invalid escape \\%c", s[i])
		}
	}
	return "", "", errors.New("unterminated string")
}

// splitCells splits a row or inline array on the delimiter, outside quotes.
func splitCells(s string, delim byte) ([]string, error) {
	var out []string
	start, inQuote := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == delim:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if inQuote {
		return nil, errors.New("unterminated string in a row")
	}
	return append(out, s[start:]), nil
}

// parsePrimitive reads one value token (section 4), checking that an unquoted string needed no
// quotes where delim is the relevant delimiter (section 7.2).
func parsePrimitive(tok string, delim byte) (any, error) {
	if first, _ := utf8.DecodeRuneInString(tok); tok != "" && (toonSpace(first) || toonSpace(lastRune(tok))) {
		return nil, fmt.Errorf("token %q has white space around it", tok)
	}
	if strings.HasPrefix(tok, `"`) {
		s, rest, err := parseQuoted(tok)
		if err != nil {
			return nil, err
		}
		if rest != "" {
			return nil, fmt.Errorf("text after a quoted string: %q", clip(rest))
		}
		return s, nil
	}
	switch tok {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	case "":
		return nil, errors.New("empty unquoted token (encoders quote the empty string)")
	}
	if isTOONNumber(tok) {
		return tnum(tok), nil
	}
	if numericLike(tok) || strings.ContainsAny(tok, `:"\[]{}`) || strings.IndexByte(tok, delim) >= 0 || tok[0] == '-' || tok[0] == '#' {
		return nil, fmt.Errorf("unquoted string %q breaks the quoting rules", tok)
	}
	return tok, nil
}

// isTOONNumber: /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i without forbidden leading zeros.
func isTOONNumber(s string) bool {
	t := strings.TrimPrefix(s, "-")
	if !numericLike(t) || t[0] == '+' || t[0] == '-' {
		return false
	}
	return !(len(t) > 1 && t[0] == '0' && '0' <= t[1] && t[1] <= '9')
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// decodeJSON reads a JSON value as JSON decoders do: numbers as written, strings with invalid
// UTF-8 and lone surrogates as U+FFFD, a repeated key in the place where it first appears with
// the value it was given last.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := jsonValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the value")
	}
	return v, nil
}

func jsonValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			out := []any{}
			for dec.More() {
				v, err := jsonValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		o := &tobj{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := jsonValue(dec)
			if err != nil {
				return nil, err
			}
			if !o.set(k.(string), v) {
				for i := range o.keys {
					if o.keys[i] == k {
						o.vals[i] = v
					}
				}
			}
		}
		_, err := dec.Token()
		return o, err
	case json.Number:
		return tnum(t), nil
	default:
		return t, nil // string, bool or nil
	}
}

// sameValue reports where a and b differ ("" when they are the same JSON value): objects by
// members (in any order), arrays in order, numbers by exact decimal value.
func sameValue(a, b any, path string) string {
	switch a := a.(type) {
	case *tobj:
		b, ok := b.(*tobj)
		if !ok || len(a.keys) != len(b.keys) {
			return fmt.Sprintf("%s: object %v vs %#v", path, a.keys, b)
		}
		for i, k := range a.keys {
			j := -1
			for n := range b.keys {
				if b.keys[n] == k {
					j = n
				}
			}
			if j < 0 {
				return fmt.Sprintf("%s: member %q missing", path, k)
			}
			if diff := sameValue(a.vals[i], b.vals[j], path+"."+k); diff != "" {
				return diff
			}
		}
		return ""
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return fmt.Sprintf("%s: array of %d vs %#v", path, len(a), b)
		}
		for i := range a {
			if diff := sameValue(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)); diff != "" {
				return diff
			}
		}
		return ""
	case tnum:
		b, ok := b.(tnum)
		if !ok || !sameNumber(string(a), string(b)) {
			return fmt.Sprintf("%s: number %s vs %#v", path, a, b)
		}
		return ""
	default:
		if a != b {
			return fmt.Sprintf("%s: %#v vs %#v", path, a, b)
		}
		return ""
	}
}

// sameNumber compares two number texts by exact value: each is reduced to a sign, its significant
// digits and a big.Int exponent (so 1e999999999 costs no more than its text), and small ones are
// also compared as big.Rat.
func sameNumber(a, b string) bool {
	na, da, ea := decimal(a)
	nb, db, eb := decimal(b)
	same := da == db && (da == "" || na == nb && ea.Cmp(eb) == 0)
	if len(a) < 40 && len(b) < 40 && ea.IsInt64() && eb.IsInt64() && abs64(ea.Int64()) < 1000 && abs64(eb.Int64()) < 1000 {
		ra, okA := new(big.Rat).SetString(a)
		rb, okB := new(big.Rat).SetString(b)
		if !okA || !okB || (ra.Cmp(rb) == 0) != same {
			panic(fmt.Sprintf("sameNumber(%s, %s): the two comparisons disagree", a, b))
		}
	}
	return same
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// decimal returns the sign, the significant digits (no leading or trailing zeros; "" for zero)
// and the exponent e of a number's text, whose value is 0.DIGITS * 10^e.
func decimal(s string) (neg bool, digits string, e *big.Int) {
	neg = strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	e = new(big.Int)
	if exp != "" {
		e.SetString(strings.TrimPrefix(exp, "+"), 10)
	}
	all := intPart + frac
	point := len(intPart)
	trimmed := strings.TrimLeft(all, "0")
	point -= len(all) - len(trimmed)
	digits = strings.TrimRight(trimmed, "0")
	return neg, digits, e.Add(e, big.NewInt(int64(point)))
}

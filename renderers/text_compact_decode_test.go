package renderers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// This file holds a decoder for generic compact text, written from the grammar in
// docs/renderers.md ("Compact text grammar"), and an ordered JSON value to compare its result with
// the value the text came from. It is independent of the encoder: it shares no code with it.

// jvalue is a JSON value: nil, bool, json.Number, string, []jvalue or jobject.
type jvalue = any

// jobject is a JSON object with its members in order (duplicates kept).
type jobject []jmember

type jmember struct {
	key   string
	value jvalue
}

// ctDecodeJSON reads one JSON value with its numbers as their exact text and its objects in order.
func ctDecodeJSON(data []byte) (jvalue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSON(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

func readJSON(dec *json.Decoder) (jvalue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			arr := []jvalue{}
			for dec.More() {
				v, err := readJSON(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		case '{':
			obj := jobject{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := readJSON(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, jmember{k.(string), v})
			}
			_, err := dec.Token()
			return obj, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// equalJSON reports whether a and b are the same JSON value: numbers by their exact digits,
// strings exactly, arrays in order, objects as the same members whatever their order (members
// with the same key keep their relative order, as a schema's stable ordering does).
func equalJSON(a, b jvalue) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool, string, json.Number:
		return a == b
	case []jvalue:
		b, ok := b.([]jvalue)
		return ok && slices.EqualFunc(a, b, equalJSON)
	case jobject:
		b, ok := b.(jobject)
		if !ok || len(a) != len(b) {
			return false
		}
		byKey := func(x, y jmember) int { return strings.Compare(x.key, y.key) }
		a, b = slices.Clone(a), slices.Clone(b)
		slices.SortStableFunc(a, byKey)
		slices.SortStableFunc(b, byKey)
		return slices.EqualFunc(a, b, func(x, y jmember) bool { return x.key == y.key && equalJSON(x.value, y.value) })
	}
	return false
}

// decodeCompact reads a generic compact text (without a title) back to its value.
func decodeCompact(text string) (jvalue, error) {
	d := &cdecoder{lines: strings.Split(text, "\n")}
	v, err := d.root()
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", d.i+1, err)
	}
	if d.i != len(d.lines) {
		return nil, fmt.Errorf("line %d: %q after the value", d.i+1, d.lines[d.i])
	}
	return v, nil
}

type cdecoder struct {
	lines []string
	i     int // the next line
}

// line returns the next line's indentation (spaces) and the rest, without consuming it.
func (d *cdecoder) line() (indent int, rest string, ok bool) {
	if d.i >= len(d.lines) {
		return 0, "", false
	}
	l := d.lines[d.i]
	rest = strings.TrimLeft(l, " ")
	return len(l) - len(rest), rest, true
}

// next consumes the next line, which must be at indent.
func (d *cdecoder) next(indent int) (string, error) {
	in, rest, ok := d.line()
	if !ok {
		return "", fmt.Errorf("want a line at indent %d, got the end", indent)
	}
	if in != indent {
		return "", fmt.Errorf("want indent %d, got %d in %q", indent, in, d.lines[d.i])
	}
	d.i++
	return rest, nil
}

func (d *cdecoder) root() (jvalue, error) {
	_, first, ok := d.line()
	if !ok {
		return nil, errors.New("empty text")
	}
	switch {
	case arrayHeader(first):
		d.i++
		return d.array(first, 0, 0, 0, false)
	case first[0] == '[' || first[0] == '{': // the whole text is JSON
		d.i = len(d.lines)
		return ctDecodeJSON([]byte(strings.Join(d.lines, "\n")))
	case len(d.lines) == 1 && isScalarLine(first):
		d.i++
		return token(first, "")
	}
	return d.members(0, nil)
}

// isScalarLine reports whether a line that is not an array header or JSON text is one scalar: a
// quoted string alone, or a bare value without '=' that does not end with ':'.
func isScalarLine(s string) bool {
	if s[0] == '"' {
		n, err := quotedLen(s)
		return err == nil && n == len(s)
	}
	return !strings.Contains(s, "=") && !strings.HasSuffix(s, ":")
}

// arrayHeader reports whether s starts with a header without a key: "[N]=" (elements), "[]{" (a
// table), or "[]=" and a list's items.
func arrayHeader(s string) bool {
	if strings.HasPrefix(s, "[]=") && len(s) > 3 || strings.HasPrefix(s, "[]{") {
		return true
	}
	j := 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return len(s) > 0 && s[0] == '[' && j > 1 && j+1 < len(s) && s[j] == ']' && s[j+1] == '='
}

// members reads the member lines of an object at indent, as many as there are. hoisted holds the
// tables whose header the enclosing table's header gives (for a row's members), by key; where it
// holds one, lines that are rows are that table's rows, written without "key:".
func (d *cdecoder) members(indent int, hoisted map[string][]hfield) (jvalue, error) {
	obj := jobject{}
	for {
		in, l, ok := d.line()
		if !ok || in < indent {
			break
		}
		if in == indent && len(hoisted) == 1 && isRow(l) {
			for k, fields := range hoisted {
				v, err := d.rows(fields, nil, indent)
				if err != nil {
					return nil, fmt.Errorf("hoisted %q: %w", k, err)
				}
				obj = append(obj, jmember{k, v})
			}
			continue
		}
		rest, err := d.next(indent)
		if err != nil {
			return nil, err
		}
		key, n, err := key(rest, "=:[")
		if err != nil {
			return nil, err
		}
		if tail := rest[n:]; strings.HasPrefix(tail, "=") || strings.HasPrefix(tail, "[]=") {
			// A line of one or more pairs.
			line, err := pairs(rest)
			if err != nil {
				return nil, fmt.Errorf("pairs: %w", err)
			}
			obj = append(obj, line.(jobject)...)
			continue
		}
		v, err := d.member(rest[n:], indent, hoisted[key])
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", key, err)
		}
		obj = append(obj, jmember{key, v})
	}
	if len(obj) == 0 {
		return nil, errors.New("an object without members")
	}
	return obj, nil
}

// member reads what follows a member's key on its line (and the lines under it); fields are the
// columns of the key's hoisted table, if any.
func (d *cdecoder) member(rest string, indent int, fields []hfield) (jvalue, error) {
	switch {
	case fields != nil && rest == ":":
		return d.rows(fields, nil, indent)
	case rest == ":":
		return d.members(indent+1, nil)
	case strings.HasPrefix(rest, ": "):
		return pairs(rest[2:])
	case strings.HasPrefix(rest, "["):
		return d.array(rest, indent, indent, 0, true)
	}
	return nil, fmt.Errorf("no '=', ':' or '[' after the key: %q", rest)
}

// array reads an array from its header (from "[N]" or "[]=" on); rows and elements are at body.
func (d *cdecoder) array(header string, indent, body, _ int, keyed bool) (jvalue, error) {
	if strings.HasPrefix(header, "[]{") {
		fields, hoisted, tail, err := fieldList(header[3:], true)
		if err != nil {
			return nil, err
		}
		if tail != ":" {
			return nil, fmt.Errorf("want ':' after the fields, got %q", tail)
		}
		return d.rows(fields, hoisted, body)
	}
	if strings.HasPrefix(header, "[]=") {
		arr, tail, err := items(header[3:], "", false)
		if err != nil {
			return nil, err
		}
		if tail != "" {
			return nil, fmt.Errorf("list: %q after the items", tail)
		}
		return arr, nil
	}
	end := strings.IndexByte(header, ']')
	if end < 0 {
		return nil, fmt.Errorf("no ']' in %q", header)
	}
	n, err := strconv.Atoi(header[1:end])
	if err != nil || n < 1 || header[1] == '0' {
		return nil, fmt.Errorf("bad count in %q", header)
	}
	rest := header[end+1:]
	switch {
	case rest == ":" && keyed, rest == "=" && !keyed:
		arr := make([]jvalue, 0, n)
		for range n {
			v, err := d.element(body)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		return arr, nil
	}
	return nil, fmt.Errorf("bad array header %q", header)
}

// rows reads the rows of a table with columns fields at body, each followed by the element's
// other members one space deeper, up to the first line at body that is not a row (or a line less
// indented); hoisted are the tables whose header the table's header gives.
func (d *cdecoder) rows(fields []hfield, hoisted map[string][]hfield, body int) (jvalue, error) {
	var arr []jvalue
	for {
		in, l, ok := d.line()
		if !ok || in != body || !isRow(l) {
			break
		}
		row, err := d.next(body)
		if err != nil {
			return nil, err
		}
		cells, tail, err := items(row, "", len(fields) > 1)
		if err != nil {
			return nil, err
		}
		if list := len(fields) > 0 && fields[len(fields)-1].list; list && len(cells) >= len(fields) {
			cells = append(cells[:len(fields)-1:len(fields)-1], cells[len(fields)-1:])
		}
		if tail != "" || len(cells) != len(fields) {
			return nil, fmt.Errorf("row %q: want %d cells, got %d", row, len(fields), len(cells))
		}
		obj, err := rowObject(fields, cells)
		if err != nil {
			return nil, err
		}
		if in, _, ok := d.line(); ok && in == body+1 { // the element's other members
			more, err := d.members(body+1, hoisted)
			if err != nil {
				return nil, err
			}
			obj = append(obj, more.(jobject)...)
		}
		arr = append(arr, obj)
	}
	if len(arr) == 0 {
		return nil, errors.New("a table without rows")
	}
	return arr, nil
}

// isRow reports whether a line (without its indentation) is a table row: comma-separated values
// (an empty one is null), none of them a bare string holding '=', the last not a bare string
// ending with ':'. Any other line (a header, a line of pairs) ends the rows before it.
func isRow(s string) bool {
	if s == "" {
		return false
	}
	for {
		n := 0
		if s[0] != ',' { // else an empty cell
			var err error
			if n, err = tokenLen(s, ","); err != nil {
				return false
			}
		}
		cell := s[:n]
		bare := cell != "" && cell[0] != '"' && cell[0] != '[' && cell[0] != '{'
		if bare && strings.Contains(cell, "=") {
			return false
		}
		s = s[n:]
		if s == "" {
			return !bare || !strings.HasSuffix(cell, ":")
		}
		if s[0] != ',' {
			return false
		}
		s = s[1:]
		if s == "" {
			return true // a last cell that is empty
		}
	}
}

// element reads one element of an array at indent.
func (d *cdecoder) element(indent int) (jvalue, error) {
	line, err := d.next(indent)
	if err != nil {
		return nil, err
	}
	switch {
	case arrayHeader(line):
		return d.array(line, indent, indent+1, 0, false)
	case line[0] == '[' || line[0] == '{':
		return ctDecodeJSON([]byte(line))
	case isLabel(line):
		return d.members(indent+1, nil)
	case isScalarLine(line):
		return token(line, "")
	}
	obj, err := pairs(line)
	if err != nil {
		return nil, err
	}
	if in, _, ok := d.line(); ok && in == indent+1 {
		more, err := d.members(indent+1, nil)
		if err != nil {
			return nil, err
		}
		obj = append(obj.(jobject), more.(jobject)...)
	}
	return obj, nil
}

// isLabel reports whether s is an element's index and ':' (an object without pair members).
func isLabel(s string) bool {
	digits := strings.TrimSuffix(s, ":")
	return len(digits) < len(s) && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// pairs reads a line of "key=value" and "key[N]=a,b" pairs separated by one space.
func pairs(s string) (jvalue, error) {
	obj := jobject{}
	for {
		k, n, err := key(s, "=[")
		if err != nil {
			return nil, err
		}
		s = s[n:]
		var v jvalue
		if strings.HasPrefix(s, "[") {
			if !strings.HasPrefix(s, "[]=") {
				return nil, fmt.Errorf("bad list in pair %q", s)
			}
			var arr []jvalue
			arr, s, err = items(s[3:], " ", false)
			if err != nil {
				return nil, err
			}
			v = arr
		} else {
			if !strings.HasPrefix(s, "=") {
				return nil, fmt.Errorf("no '=' after the key %q", k)
			}
			n, err := tokenLen(s[1:], " ")
			if err != nil {
				return nil, err
			}
			if v, err = token(s[1:1+n], ""); err != nil {
				return nil, err
			}
			s = s[1+n:]
		}
		obj = append(obj, jmember{k, v})
		if s == "" {
			return obj, nil
		}
		if s[0] != ' ' || len(s) == 1 {
			return nil, fmt.Errorf("want one space between pairs, got %q", s)
		}
		s = s[1:]
	}
}

// items reads comma-separated tokens, each ending at ',' or one of stops (or the end), and returns
// them with what follows the last one. With empty, a token may be empty: null (a row's cell beside
// others).
func items(s, stops string, empty bool) ([]jvalue, string, error) {
	var out []jvalue
	for {
		if empty && (s == "" || strings.IndexByte(","+stops, s[0]) >= 0) {
			out = append(out, nil)
		} else {
			n, err := tokenLen(s, ","+stops)
			if err != nil {
				return nil, "", err
			}
			v, err := token(s[:n], "")
			if err != nil {
				return nil, "", err
			}
			out = append(out, v)
			s = s[n:]
		}
		if !strings.HasPrefix(s, ",") {
			return out, s, nil
		}
		s = s[1:]
	}
}

// hfield is a table column: a key, or a member of a key's object ("key.sub").
type hfield struct {
	key, sub string
	folded   bool
	list     bool // "key[]": a list of scalars whose items are the row's last cells
}

// fieldList reads the columns of a table header up to '}' and returns what follows. With nested, a
// key followed by its own "{...}" is a hoisted table's header (after the columns).
func fieldList(s string, nested bool) (fields []hfield, hoisted map[string][]hfield, rest string, err error) {
	for {
		k, n, err := key(s, ",{}.[")
		if err != nil {
			return nil, nil, "", err
		}
		s = s[n:]
		switch {
		case strings.HasPrefix(s, "{"):
			if !nested {
				return nil, nil, "", errors.New("a hoisted table inside a hoisted table")
			}
			cols, _, tail, err := fieldList(s[1:], false)
			if err != nil {
				return nil, nil, "", err
			}
			if _, dup := hoisted[k]; dup {
				return nil, nil, "", fmt.Errorf("hoisted table %q twice", k)
			}
			if hoisted == nil {
				hoisted = map[string][]hfield{}
			}
			hoisted[k] = cols
			s = tail
		case hoisted != nil:
			return nil, nil, "", fmt.Errorf("column %q after a hoisted table", k)
		case len(fields) > 0 && fields[len(fields)-1].list:
			return nil, nil, "", fmt.Errorf("column %q after the list column", k)
		case strings.HasPrefix(s, "[]"):
			if len(fields) == 0 {
				return nil, nil, "", errors.New("a list column first")
			}
			s = s[2:]
			fields = append(fields, hfield{key: k, list: true})
		case strings.HasPrefix(s, "."):
			sub, n, err := key(s[1:], ",{}.[")
			if err != nil {
				return nil, nil, "", err
			}
			s = s[1+n:]
			fields = append(fields, hfield{key: k, sub: sub, folded: true})
		default:
			fields = append(fields, hfield{key: k})
		}
		switch {
		case strings.HasPrefix(s, ","):
			s = s[1:]
		case strings.HasPrefix(s, "}"):
			if len(fields) == 0 {
				return nil, nil, "", errors.New("a table without columns")
			}
			return fields, hoisted, s[1:], nil
		default:
			return nil, nil, "", fmt.Errorf("unterminated field list")
		}
	}
}

// rowObject builds a row's object from its cells: the cells of consecutive columns "key.a",
// "key.b" make one member key holding {"a":…, "b":…}.
func rowObject(fields []hfield, cells []jvalue) (jobject, error) {
	obj := make(jobject, 0, len(fields))
	for i, f := range fields {
		if !f.folded {
			obj = append(obj, jmember{f.key, cells[i]})
			continue
		}
		if i > 0 && fields[i-1].folded && fields[i-1].key == f.key {
			last := &obj[len(obj)-1]
			last.value = append(last.value.(jobject), jmember{f.sub, cells[i]})
			continue
		}
		for _, m := range obj {
			if m.key == f.key {
				return nil, fmt.Errorf("folded column %q apart from its group", f.key)
			}
		}
		obj = append(obj, jmember{f.key, jobject{{f.sub, cells[i]}}})
	}
	return obj, nil
}

// key reads a key (a JSON string literal, or bare up to one of stops) and returns its length.
func key(s, stops string) (string, int, error) {
	if strings.HasPrefix(s, `"`) {
		n, err := quotedLen(s)
		if err != nil {
			return "", 0, err
		}
		var k string
		err = json.Unmarshal([]byte(s[:n]), &k)
		return k, n, err
	}
	n := strings.IndexAny(s, stops)
	if n <= 0 {
		return "", 0, fmt.Errorf("no key before one of %q in %q", stops, s)
	}
	return s[:n], n, nil
}

// tokenLen returns the length of the token at the start of s: a JSON string literal, JSON text
// starting with '[' or '{', or a bare value up to one of stops.
func tokenLen(s, stops string) (int, error) {
	switch {
	case s == "":
		return 0, errors.New("missing value")
	case s[0] == '"':
		return quotedLen(s)
	case s[0] == '[' || s[0] == '{':
		dec := json.NewDecoder(strings.NewReader(s))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, fmt.Errorf("JSON text: %w", err)
		}
		return int(dec.InputOffset()), nil
	}
	if n := strings.IndexAny(s, stops); n >= 0 {
		return n, nil
	}
	return len(s), nil
}

// quotedLen returns the length of the JSON string literal at the start of s.
func quotedLen(s string) (int, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string %q", s)
}

// token reads one whole token: a JSON string literal, JSON text, null, true, false, a JSON number,
// or else a bare string (which must not be empty).
func token(s, _ string) (jvalue, error) {
	switch {
	case s == "":
		return nil, errors.New("empty value")
	case s[0] == '"', s[0] == '[', s[0] == '{':
		return ctDecodeJSON([]byte(s))
	case s == "null":
		return nil, nil
	case s == "true":
		return true, nil
	case s == "false":
		return false, nil
	case numberText(s):
		return json.Number(s), nil
	}
	return s, nil
}

// numberText reports whether s follows JSON's number grammar (written here again, apart from the
// encoder's).
func numberText(s string) bool {
	var v json.Number
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Unmarshal([]byte(s), &v) == nil &&
		!strings.ContainsAny(s, " \t\n\r")
}

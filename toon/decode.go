package toon

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// line is one line of a document after the comment pre-pass (section 5.1): its depth and its
// content after the indentation, without a line terminator.
type line struct {
	num   int // 1-based, in the document as given
	depth int
	text  string
	// blank is the number of the first blank line between this line and the previous non-blank
	// one, 0 if none (strict mode only: a blank line inside an array span is an error).
	blank int
}

// decoder reads a document (sections 4 to 14).
type decoder struct {
	lines    []line
	pos      int
	strict   bool
	indent   int
	maxDepth int
	depth    int // the containers open around the current line
	// spans counts the array and keyed scopes around the current line whose first item, row or
	// entry has been read (their array span, section 12); openSpan asks the next line read to
	// open one.
	spans    int
	openSpan bool
	// suspect is the first unquoted field name of the header being parsed that holds a
	// delimiter, a quote or a colon: an error once the header is otherwise well formed.
	suspect string
	cells   []string // scratch for splitting
}

// errorf returns a *SyntaxError for line num wrapping kind.
func errorf(num int, kind error, format string, args ...any) error {
	return &SyntaxError{Line: num, Msg: fmt.Sprintf(format, args...), Err: kind}
}

// decodeDocument reads the document data into a node.
func decodeDocument(data []byte, strict bool, indent, maxDepth int) (node, error) {
	d := &decoder{strict: strict, indent: indent, maxDepth: maxDepth}
	if err := d.splitLines(data); err != nil {
		return node{}, err
	}
	return d.root()
}

// splitLines cuts data into lines, drops comment lines, checks indentation and computes depths.
func (d *decoder) splitLines(data []byte) error {
	if d.strict && !utf8.Valid(data) {
		bad := 0
		for bad < len(data) {
			r, size := utf8.DecodeRune(data[bad:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			bad += size
		}
		return errorf(1+bytes.Count(data[:bad], []byte{'\n'}), ErrSyntax, "invalid UTF-8")
	}
	d.lines = make([]line, 0, bytes.Count(data, []byte{'\n'})+1)
	blank := 0
	for num := 1; len(data) > 0 || num == 1; num++ {
		raw := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		raw = bytes.TrimSuffix(raw, []byte{'\r'})
		spaces := 0
		for spaces < len(raw) && raw[spaces] == ' ' {
			spaces++
		}
		if spaces < len(raw) && raw[spaces] == '#' {
			continue // a comment line (section 5.1)
		}
		if len(bytes.Trim(raw, " \t")) == 0 {
			if blank == 0 {
				blank = num
			}
			continue
		}
		width := spaces
		i := spaces
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t') {
			if raw[i] == '\t' {
				if d.strict {
					return errorf(num, ErrIndent, "tab in indentation")
				}
				width += d.indent
			} else {
				width++
			}
			i++
		}
		if d.strict && width%d.indent != 0 {
			return errorf(num, ErrIndent, "indentation of %d spaces is not a multiple of %d", width, d.indent)
		}
		l := line{num: num, depth: width / d.indent, text: string(raw[i:])}
		if d.strict {
			l.blank = blank
		}
		blank = 0
		d.lines = append(d.lines, l)
	}
	return nil
}

// take consumes the line at d.pos.
func (d *decoder) take() error {
	l := &d.lines[d.pos]
	if l.blank != 0 && d.spans > 0 {
		return errorf(l.blank, ErrSyntax, "blank line inside an array")
	}
	d.pos++
	if d.openSpan {
		d.openSpan = false
		d.spans++
	}
	return nil
}

// beginSpan and endSpan bracket the reading of an array's items, rows or entries.
func (d *decoder) beginSpan() { d.openSpan = true }

func (d *decoder) endSpan() {
	if d.openSpan {
		d.openSpan = false // no item was read
		return
	}
	d.spans--
}

func (d *decoder) enter(num int) error {
	d.depth++
	if d.depth > d.maxDepth {
		return errorf(num, ErrTooDeep, "nested more than %d levels deep", d.maxDepth)
	}
	return nil
}

// root decides the root form (section 5) and reads the document.
func (d *decoder) root() (node, error) {
	if len(d.lines) == 0 {
		return node{kind: kindObject}, nil
	}
	first := &d.lines[0]
	if first.depth != 0 {
		return node{}, errorf(first.num, ErrIndent, "the first line is indented")
	}
	h, st, err := d.parseHeader(first.text, first.num)
	if err != nil {
		return node{}, err
	}
	var v node
	switch {
	case st == isHeader && !h.hasKey:
		if v, err = d.headerValue(&h, first, 0); err != nil {
			return node{}, err
		}
	case trimSpaces(first.text) == "[]":
		v = node{kind: kindArray, kids: []node{}}
		d.pos++
	case len(d.lines) == 1 && st != isHeader && firstUnquoted(first.text, ':') < 0:
		v, err = d.primitive(trimSpaces(first.text), first.num)
		if err != nil {
			return node{}, err
		}
		d.pos++
	default:
		v = node{kind: kindObject}
		m := members{obj: &v}
		if err := d.enter(first.num); err != nil {
			return node{}, err
		}
		if err := d.objectBody(&m, 0); err != nil {
			return node{}, err
		}
	}
	if d.pos < len(d.lines) && d.strict {
		return node{}, errorf(d.lines[d.pos].num, ErrSyntax, "content after the document's root value")
	}
	return v, nil
}

// members adds the members of an object being decoded, checking repeated keys (section 14.3):
// an error in strict mode, the last value in the first place otherwise.
type members struct {
	obj   *node
	index map[string]int
}

func (m *members) add(d *decoder, num int, key string, v node) error {
	v.key = key
	at := -1
	if m.index == nil && len(m.obj.kids) < 16 {
		for i := range m.obj.kids {
			if m.obj.kids[i].key == key {
				at = i
				break
			}
		}
	} else {
		if m.index == nil {
			m.index = make(map[string]int, 2*len(m.obj.kids))
			for i := range m.obj.kids {
				m.index[m.obj.kids[i].key] = i
			}
		}
		if i, ok := m.index[key]; ok {
			at = i
		} else {
			m.index[key] = len(m.obj.kids)
		}
	}
	if at < 0 {
		m.obj.kids = append(m.obj.kids, v)
		return nil
	}
	if d.strict {
		return errorf(num, ErrDuplicateKey, "key %q repeated", key)
	}
	m.obj.kids[at] = v
	return nil
}

// objectBody reads the fields of an object at depth until a line less deep.
func (d *decoder) objectBody(m *members, depth int) error {
	for d.pos < len(d.lines) {
		l := &d.lines[d.pos]
		if l.depth < depth {
			break
		}
		if l.depth > depth {
			return errorf(l.num, ErrIndent, "line indented deeper than its scope")
		}
		if err := d.field(m, l, l.text, depth); err != nil {
			return err
		}
	}
	d.depth--
	return nil
}

// field reads one field from text (l's content, or what follows a list item's "- "), whose
// content is at depth+1, and adds it to m.
func (d *decoder) field(m *members, l *line, text string, depth int) error {
	h, st, err := d.parseHeader(text, l.num)
	if err != nil {
		return err
	}
	if st == isHeader && !h.hasKey {
		if d.strict {
			return errorf(l.num, ErrSyntax, "an array header without a key stands only at the root or after a list item's \"- \"")
		}
		st = malformed
	}
	if st == isHeader {
		v, err := d.headerValue(&h, l, depth)
		if err != nil {
			return err
		}
		return m.add(d, l.num, h.key, v)
	}
	if st == malformed && d.strict {
		return errorf(l.num, ErrSyntax, "malformed array header %q", clip(text))
	}
	key, rest, err := d.keyValue(text, l.num)
	if err != nil {
		return err
	}
	if err := d.take(); err != nil {
		return err
	}
	var v node
	switch rest {
	case "":
		v = node{kind: kindObject}
		if err := d.enter(l.num); err != nil {
			return err
		}
		child := members{obj: &v}
		if err := d.objectBody(&child, depth+1); err != nil {
			return err
		}
	case "[]":
		v = node{kind: kindArray, kids: []node{}}
	default:
		if v, err = d.primitive(rest, l.num); err != nil {
			return err
		}
	}
	return m.add(d, l.num, key, v)
}

// keyValue splits a key-value line at its first unquoted colon: the key (quoted keys unescaped),
// and the value token trimmed of spaces.
func (d *decoder) keyValue(text string, num int) (key, rest string, err error) {
	if strings.HasPrefix(text, `"`) {
		k, end, err := d.quoted(text, 0, num)
		if err != nil {
			return "", "", err
		}
		after := strings.TrimLeft(text[end:], " ")
		if !strings.HasPrefix(after, ":") {
			return "", "", errorf(num, ErrSyntax, "missing colon after key %q", clip(k))
		}
		return k, trimSpaces(after[1:]), nil
	}
	c := firstUnquoted(text, ':')
	if c < 0 {
		return "", "", errorf(num, ErrSyntax, "missing colon in %q", clip(text))
	}
	return trimSpaces(text[:c]), trimSpaces(text[c+1:]), nil
}

// headerValue reads the array or keyed object that header h (on line l, whose field stands at
// depth) opens: inline values, or list items, rows or entries at depth+1.
func (d *decoder) headerValue(h *header, l *line, depth int) (node, error) {
	if err := d.take(); err != nil {
		return node{}, err
	}
	if err := d.enter(l.num); err != nil {
		return node{}, err
	}
	defer func() { d.depth-- }()
	switch {
	case h.keyed:
		return d.entries(h, l, depth+1)
	case h.fields != nil:
		return d.rows(h, l, depth+1)
	case h.rest != "":
		cells := d.split(h.rest, h.delim)
		if d.strict && len(cells) != h.n {
			return node{}, errorf(l.num, ErrCount, "%d values, the header declares %d", len(cells), h.n)
		}
		arr := node{kind: kindArray, kids: make([]node, len(cells))}
		for i, c := range cells {
			v, err := d.primitive(c, l.num)
			if err != nil {
				return node{}, err
			}
			arr.kids[i] = v
		}
		return arr, nil
	default:
		return d.items(h, l, depth+1)
	}
}

// items reads the list items of an expanded array at depth.
func (d *decoder) items(h *header, l *line, depth int) (node, error) {
	arr := node{kind: kindArray, kids: []node{}}
	d.beginSpan()
	defer d.endSpan()
	for d.pos < len(d.lines) {
		it := &d.lines[d.pos]
		if it.depth < depth {
			break
		}
		if it.depth > depth {
			return node{}, errorf(it.num, ErrIndent, "line indented deeper than its scope")
		}
		if it.text != "-" && !strings.HasPrefix(it.text, "- ") {
			return node{}, errorf(it.num, ErrSyntax, "expected a list item (\"- \") of the array on line %d", l.num)
		}
		v, err := d.item(it, depth)
		if err != nil {
			return node{}, err
		}
		arr.kids = append(arr.kids, v)
	}
	if d.strict && len(arr.kids) != h.n {
		return node{}, errorf(l.num, ErrCount, "%d list items, the header declares %d", len(arr.kids), h.n)
	}
	return arr, nil
}

// item reads one list item at depth (section 9.4, 10).
func (d *decoder) item(l *line, depth int) (node, error) {
	rest := ""
	if len(l.text) > 2 {
		rest = trimSpaces(l.text[2:])
	}
	if rest == "" || rest == "[]" {
		if err := d.take(); err != nil {
			return node{}, err
		}
		if rest == "" {
			return node{kind: kindObject}, nil
		}
		return node{kind: kindArray, kids: []node{}}, nil
	}
	h, st, err := d.parseHeader(rest, l.num)
	if err != nil {
		return node{}, err
	}
	if st == isHeader && !h.hasKey {
		if h.fields == nil {
			return d.headerValue(&h, l, depth)
		}
		if d.strict {
			return node{}, errorf(l.num, ErrSyntax, "a header with fields and without a key stands only at the root")
		}
		st = malformed
	}
	if st != isHeader && firstUnquoted(rest, ':') < 0 {
		if err := d.take(); err != nil {
			return node{}, err
		}
		return d.primitive(rest, l.num)
	}
	// An object, its first field on the hyphen line: its fields at depth+1.
	obj := node{kind: kindObject}
	if err := d.enter(l.num); err != nil {
		return node{}, err
	}
	m := members{obj: &obj}
	if err := d.field(&m, l, rest, depth+1); err != nil {
		return node{}, err
	}
	if err := d.objectBody(&m, depth+1); err != nil {
		return node{}, err
	}
	return obj, nil
}

// rows reads the rows of a tabular array at depth (section 9.3).
func (d *decoder) rows(h *header, l *line, depth int) (node, error) {
	arr := node{kind: kindArray, kids: []node{}}
	d.beginSpan()
	defer d.endSpan()
	for d.pos < len(d.lines) {
		r := &d.lines[d.pos]
		if r.depth < depth {
			break
		}
		if r.depth > depth {
			return node{}, errorf(r.num, ErrIndent, "line indented deeper than its scope")
		}
		if c := firstUnquoted(r.text, ':'); c >= 0 {
			if dl := firstUnquoted(r.text, h.delim); dl < 0 || c < dl {
				break // a key-value line ends the rows
			}
		}
		if err := d.take(); err != nil {
			return node{}, err
		}
		v, err := d.row(h, r, r.text)
		if err != nil {
			return node{}, err
		}
		arr.kids = append(arr.kids, v)
	}
	if d.strict && len(arr.kids) != h.n {
		return node{}, errorf(l.num, ErrCount, "%d rows, the header declares %d", len(arr.kids), h.n)
	}
	return arr, nil
}

// entries reads the entry rows of a keyed object at depth (section 9.5).
func (d *decoder) entries(h *header, l *line, depth int) (node, error) {
	obj := node{kind: kindObject}
	m := members{obj: &obj}
	d.beginSpan()
	defer d.endSpan()
	n := 0
	for d.pos < len(d.lines) {
		r := &d.lines[d.pos]
		if r.depth < depth {
			break
		}
		if r.depth > depth {
			return node{}, errorf(r.num, ErrIndent, "line indented deeper than its scope")
		}
		c := firstUnquoted(r.text, ':')
		if c < 0 {
			if d.strict {
				return node{}, errorf(r.num, ErrSyntax, "entry row without a colon after its key")
			}
			if err := d.take(); err != nil {
				return node{}, err
			}
			continue
		}
		if err := d.take(); err != nil {
			return node{}, err
		}
		key := trimSpaces(r.text[:c])
		if strings.HasPrefix(key, `"`) {
			k, end, err := d.quoted(key, 0, r.num)
			if err != nil {
				return node{}, err
			}
			if end != len(key) {
				return node{}, errorf(r.num, ErrSyntax, "text after the quoted entry key")
			}
			key = k
		}
		v, err := d.row(h, r, trimSpaces(r.text[c+1:]))
		if err != nil {
			return node{}, err
		}
		n++
		if err := m.add(d, r.num, key, v); err != nil {
			return node{}, err
		}
	}
	if d.strict && n != h.n {
		return node{}, errorf(l.num, ErrCount, "%d entry rows, the header declares %d", n, h.n)
	}
	return obj, nil
}

// row decodes the cells of text into an object shaped by h's fields.
func (d *decoder) row(h *header, r *line, text string) (node, error) {
	var cells []string
	if text != "" {
		cells = d.split(text, h.delim)
	}
	if d.strict && len(cells) != h.leaves {
		return node{}, errorf(r.num, ErrCount, "%d cells, the header declares %d fields", len(cells), h.leaves)
	}
	i := 0
	return d.materialize(h.fields, cells, &i, r.num)
}

func (d *decoder) materialize(fields []field, cells []string, i *int, num int) (node, error) {
	obj := node{kind: kindObject, kids: make([]node, 0, len(fields))}
	m := members{obj: &obj}
	for _, f := range fields {
		var v node
		if f.sub != nil {
			var err error
			if v, err = d.materialize(f.sub, cells, i, num); err != nil {
				return node{}, err
			}
		} else if *i < len(cells) {
			var err error
			if v, err = d.primitive(cells[*i], num); err != nil {
				return node{}, err
			}
			*i++
		}
		if err := m.add(d, num, f.name, v); err != nil {
			return node{}, err
		}
	}
	return obj, nil
}

// primitive decodes a value token (section 4), already trimmed of spaces.
func (d *decoder) primitive(tok string, num int) (node, error) {
	if strings.HasPrefix(tok, `"`) {
		s, end, err := d.quoted(tok, 0, num)
		if err != nil {
			return node{}, err
		}
		if end != len(tok) {
			return node{}, errorf(num, ErrSyntax, "text after a quoted string: %q", clip(tok[end:]))
		}
		return node{kind: kindString, text: s}, nil
	}
	switch tok {
	case "true":
		return node{kind: kindTrue}, nil
	case "false":
		return node{kind: kindFalse}, nil
	case "null":
		return node{kind: kindNull}, nil
	}
	if isTOONNumber(tok) {
		return node{kind: kindNumber, text: canonicalNumber(tok)}, nil
	}
	return node{kind: kindString, text: tok}, nil
}

// quoted reads the quoted string starting at s[i] (a '"') and returns it unescaped (section 7.1)
// and the index after its closing quote.
func (d *decoder) quoted(s string, i, num int) (string, int, error) {
	i++
	start := i
	for i < len(s) && s[i] != '"' && s[i] != '\\' && (s[i] >= 0x20 || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return s[start:i], i + 1, nil
	}
	var b strings.Builder
	b.WriteString(s[start:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, nil
		case c == '\\':
			if i+1 >= len(s) {
				return "", 0, errorf(num, ErrSyntax, "unterminated string")
			}
			switch e := s[i+1]; e {
			case '\\', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := hex4([]byte(s[i+2 : min(len(s), i+6)]))
				if !ok {
					return "", 0, errorf(num, ErrSyntax, "invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					return "", 0, errorf(num, ErrSyntax, "surrogate escape \\u%04X", r)
				}
				b.WriteRune(r)
				i += 4
			default:
				return "", 0, errorf(num, ErrSyntax, "invalid escape \\%c", e)
			}
			i += 2
		case c < 0x20 && c != '\t' && d.strict:
			return "", 0, errorf(num, ErrSyntax, "control character %#x in a quoted string", c)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, errorf(num, ErrSyntax, "unterminated string")
}

// firstUnquoted returns the index of the first c in s outside double quotes (a backslash inside
// quotes escapes the next byte), or -1.
func firstUnquoted(s string, c byte) int {
	in := false
	for i := 0; i < len(s); i++ {
		switch {
		case in && s[i] == '\\':
			i++
		case s[i] == '"':
			in = !in
		case !in && s[i] == c:
			return i
		}
	}
	return -1
}

// split splits s on delim outside quotes, each token trimmed of spaces (section 11.2). The
// slice is reused by the next call.
func (d *decoder) split(s string, delim byte) []string {
	cells := d.cells[:0]
	in, start := false, 0
	for i := 0; i < len(s); i++ {
		switch {
		case in && s[i] == '\\':
			i++
		case s[i] == '"':
			in = !in
		case !in && s[i] == delim:
			cells = append(cells, trimSpaces(s[start:i]))
			start = i + 1
		}
	}
	cells = append(cells, trimSpaces(s[start:]))
	d.cells = cells
	return cells
}

// trimSpaces removes U+0020 (only) from both ends (section 12).
func trimSpaces(s string) string { return strings.Trim(s, " ") }

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// header is a parsed array or keyed header (section 6).
type header struct {
	key    string
	hasKey bool
	n      int
	keyed  bool
	delim  byte
	fields []field // nil without a fields segment
	leaves int
	rest   string // after the colon, trimmed of spaces
}

// field is an entry of a fields segment; sub is its nested field group, if any.
type field struct {
	name string
	sub  []field
}

// headerStatus says what parseHeader found.
type headerStatus uint8

const (
	notHeader headerStatus = iota // a key-value or scalar line
	isHeader
	malformed // a header's start, broken: an error in strict mode, a key-value line otherwise
)

var errMalformed = errors.New("malformed header")

// parseHeader reads text as an array or keyed header.
func (d *decoder) parseHeader(text string, num int) (header, headerStatus, error) {
	var h header
	rest := text
	if strings.HasPrefix(text, `"`) {
		k, end, err := d.quoted(text, 0, num)
		if err != nil {
			if firstUnquoted(text, ':') < 0 {
				return h, notHeader, nil // a scalar line: the primitive's error is reported there
			}
			return h, notHeader, err
		}
		if !strings.HasPrefix(text[end:], "[") {
			return h, notHeader, nil
		}
		h.key, h.hasKey, rest = k, true, text[end:]
	} else {
		b := firstUnquoted(text, '[')
		if b < 0 {
			return h, notHeader, nil
		}
		if c := firstUnquoted(text, ':'); c >= 0 && c < b {
			return h, notHeader, nil
		}
		if b > 0 && (text[b-1] == ' ' || text[b-1] == '\t') {
			return h, notHeader, nil // "foo [2]: bar" is a key-value line (section 5.2)
		}
		h.key, h.hasKey, rest = text[:b], b > 0, text[b:]
	}
	// The bracket segment: "[" length [":"] [delim] "]".
	i := 1
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	digits := rest[1:i]
	if digits == "" || len(digits) > 1 && digits[0] == '0' || len(digits) > 9 {
		return h, malformed, nil
	}
	h.n, _ = strconv.Atoi(digits)
	if i < len(rest) && rest[i] == ':' {
		h.keyed = true
		i++
	}
	h.delim = ','
	if i < len(rest) && (rest[i] == '\t' || rest[i] == '|') {
		h.delim = rest[i]
		i++
	}
	if i >= len(rest) || rest[i] != ']' {
		return h, malformed, nil
	}
	i++
	if i < len(rest) && rest[i] == '{' {
		d.suspect = ""
		fields, end, leaves, err := d.parseFields(rest, i, h.delim, 1, num)
		if err != nil {
			if errors.Is(err, errMalformed) {
				return h, malformed, nil
			}
			return h, notHeader, err
		}
		h.fields, h.leaves, i = fields, leaves, end
	}
	if i >= len(rest) || rest[i] != ':' {
		return h, malformed, nil
	}
	h.rest = trimSpaces(rest[i+1:])
	if h.keyed && h.fields == nil || h.fields != nil && h.rest != "" {
		return h, malformed, nil
	}
	if h.fields != nil && d.suspect != "" && d.strict {
		// Most likely the fields are split on another delimiter than the bracket declares.
		return h, notHeader, errorf(num, ErrSyntax, "field name %q holds a delimiter other than the header's %q, a quote or a colon", clip(d.suspect), h.delim)
	}
	return h, isHeader, nil
}

// parseFields reads the fields segment starting at s[i] ('{') and returns its fields, the index
// after its '}' and its number of leaf fields.
func (d *decoder) parseFields(s string, i int, delim byte, level, num int) ([]field, int, int, error) {
	if level > d.maxDepth {
		return nil, 0, 0, errorf(num, ErrTooDeep, "field groups nested more than %d levels deep", d.maxDepth)
	}
	var fields []field
	var seen map[string]bool // the names of a wide group, in strict mode
	leaves := 0
	i++
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		var name string
		if i < len(s) && s[i] == '"' {
			n, end, err := d.quoted(s, i, num)
			if err != nil {
				return nil, 0, 0, err
			}
			name, i = n, end
		} else {
			start := i
			for i < len(s) && s[i] != delim && s[i] != '{' && s[i] != '}' {
				i++
			}
			name = trimSpaces(s[start:i])
			if name == "" {
				return nil, 0, 0, errMalformed // "{}", "{a,,b}" or an unmatched brace
			}
			if d.suspect == "" && strings.ContainsAny(name, ",|\t\":") {
				d.suspect = name
			}
		}
		for i < len(s) && s[i] == ' ' {
			i++
		}
		f := field{name: name}
		if i < len(s) && s[i] == '{' {
			sub, end, n, err := d.parseFields(s, i, delim, level+1, num)
			if err != nil {
				return nil, 0, 0, err
			}
			f.sub, i = sub, end
			leaves += n
		} else {
			leaves++
		}
		if d.strict {
			if len(fields) == 16 {
				seen = make(map[string]bool, 32)
				for _, g := range fields {
					seen[g.name] = true
				}
			}
			dup := seen[f.name]
			if seen == nil {
				for _, g := range fields {
					dup = dup || g.name == f.name
				}
			} else {
				seen[f.name] = true
			}
			if dup {
				return nil, 0, 0, errorf(num, ErrDuplicateKey, "field %q repeated in a header", clip(name))
			}
		}
		fields = append(fields, f)
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return nil, 0, 0, errMalformed
		}
		switch s[i] {
		case '}':
			return fields, i + 1, leaves, nil
		case delim:
			i++
		default:
			return nil, 0, 0, errMalformed
		}
	}
}

package toon

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber
	kindString
	kindArray
	kindObject
)

// node is one JSON value. Objects keep their members in order, each member a node whose key is
// set; keys are unique (a JSON text's repeated key keeps its first place and its last value, as
// JSON decoders read it).
type node struct {
	kind kind
	key  string // the member's key, when the node is an object member
	text string // a string's value, or a number in canonical form (see appendCanonical)
	kids []node // an array's elements or an object's members
	// shape identifies the structure of a "pure" object: non-empty, every value a primitive or a
	// pure object, compared by key set (in any order) and the shapes of the nested objects. Two
	// objects have the same non-zero shape exactly when they qualify together as the rows of a
	// table (section 9.3's uniform-primitive and nested-uniform columns). 0: not pure.
	shape int32
	// sorted lists the members' indexes in key order, for objects of more than smallObject members
	// that are pure (rows look their cells up by key).
	sorted []int32
}

// smallObject is the size up to which an object's members are found by scanning.
const smallObject = 8

func (n *node) isPrimitive() bool { return n.kind < kindArray }

// member returns the member with key k of the pure object n, or nil.
func (n *node) member(k string) *node {
	if n.sorted == nil {
		for i := range n.kids {
			if n.kids[i].key == k {
				return &n.kids[i]
			}
		}
		return nil
	}
	i, ok := slices.BinarySearchFunc(n.sorted, k, func(j int32, k string) int { return strings.Compare(n.kids[j].key, k) })
	if !ok {
		return nil
	}
	return &n.kids[n.sorted[i]]
}

// shapes interns the shapes of pure objects.
type shapes struct {
	ids map[string]int32
	buf []byte
	idx []int32
}

// finishObject removes repeated keys from obj (first place, last value) and computes its shape.
func (s *shapes) finishObject(obj *node) {
	n := len(obj.kids)
	if n == 0 {
		return
	}
	idx := s.idx[:0]
	for i := range n {
		idx = append(idx, int32(i))
	}
	cmpKeys := func(a, b int32) int {
		if c := strings.Compare(obj.kids[a].key, obj.kids[b].key); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	slices.SortFunc(idx, cmpKeys)
	dup := false
	for i := 1; i < n; i++ {
		if obj.kids[idx[i]].key == obj.kids[idx[i-1]].key {
			dup = true
			break
		}
	}
	if dup {
		s.idx = idx
		s.dedupe(obj)
		idx = s.idx[:0]
		for i := range obj.kids {
			idx = append(idx, int32(i))
		}
		slices.SortFunc(idx, cmpKeys)
		n = len(obj.kids)
	}
	s.idx = idx
	pure := true
	for i := range obj.kids {
		k := &obj.kids[i]
		if !k.isPrimitive() && (k.kind != kindObject || k.shape == 0) {
			pure = false
			break
		}
	}
	if !pure {
		return
	}
	b := s.buf[:0]
	for _, j := range idx {
		k := &obj.kids[j]
		b = appendUvarint(b, uint64(len(k.key)))
		b = append(b, k.key...)
		b = appendUvarint(b, uint64(k.shape))
	}
	s.buf = b
	id, ok := s.ids[string(b)]
	if !ok {
		if s.ids == nil {
			s.ids = make(map[string]int32)
		}
		id = int32(len(s.ids) + 1)
		s.ids[string(b)] = id
	}
	obj.shape = id
	if n > smallObject {
		obj.sorted = slices.Clone(idx)
	}
}

// dedupe keeps, of the members sharing a key, the first place with the last value; s.idx holds
// the members' indexes sorted by key, then by index.
func (s *shapes) dedupe(obj *node) {
	idx := s.idx
	drop := make([]bool, len(obj.kids))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && obj.kids[idx[j+1]].key == obj.kids[idx[i]].key {
			j++
		}
		if j > i {
			first, last := idx[i], idx[j]
			obj.kids[first] = obj.kids[last]
			for k := i + 1; k <= j; k++ {
				drop[idx[k]] = true
			}
		}
		i = j + 1
	}
	out := obj.kids[:0]
	for i := range obj.kids {
		if !drop[i] {
			out = append(out, obj.kids[i])
		}
	}
	clear(obj.kids[len(out):])
	obj.kids = out
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// jsonParser reads a JSON text (RFC 8259) into nodes, as encoding/json reads it: invalid UTF-8 and
// lone surrogate escapes become U+FFFD, a repeated key keeps its first place and its last value.
// Numbers keep their exact value (in canonical form). Nesting deeper than maxDepth is an error
// wrapping ErrTooDeep; any other error wraps ErrInvalidJSON.
type jsonParser struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	stack    []node // the members and elements of the open containers
	shapes   shapes
	sb       []byte
	keys     map[string]string // interned keys
}

func parseJSON(data []byte, maxDepth int) (node, error) {
	p := &jsonParser{data: data, maxDepth: maxDepth}
	p.space()
	v, err := p.value()
	if err != nil {
		return node{}, err
	}
	p.space()
	if p.pos < len(p.data) {
		return node{}, p.fail("invalid character %q after the top-level value", p.data[p.pos])
	}
	return v, nil
}

func (p *jsonParser) fail(format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", ErrInvalidJSON, p.pos, fmt.Sprintf(format, args...))
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (node, error) {
	if p.pos >= len(p.data) {
		return node{}, p.fail("unexpected end of JSON input")
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		return p.container(c)
	case c == '"':
		s, err := p.str()
		return node{kind: kindString, text: s}, err
	case c == '-' || '0' <= c && c <= '9':
		start := p.pos
		if !p.number() {
			return node{}, p.fail("invalid number")
		}
		return node{kind: kindNumber, text: canonicalNumber(string(p.data[start:p.pos]))}, nil
	default:
		for _, lit := range [...]struct {
			word string
			kind kind
		}{{"null", kindNull}, {"true", kindTrue}, {"false", kindFalse}} {
			if bytes.HasPrefix(p.data[p.pos:], []byte(lit.word)) {
				p.pos += len(lit.word)
				return node{kind: lit.kind}, nil
			}
		}
		return node{}, p.fail("invalid character %q looking for a value", c)
	}
}

func (p *jsonParser) container(open byte) (node, error) {
	p.depth++
	if p.depth > p.maxDepth {
		return node{}, fmt.Errorf("%w: offset %d: more than %d levels", ErrTooDeep, p.pos, p.maxDepth)
	}
	p.pos++
	obj := open == '{'
	closer := byte(']')
	n := node{kind: kindArray}
	if obj {
		closer, n.kind = '}', kindObject
	}
	base := len(p.stack)
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == closer {
		p.pos++
		p.depth--
		if !obj {
			n.kids = []node{}
		}
		return n, nil
	}
	for {
		var key string
		if obj {
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return node{}, p.fail("expected a string for an object key")
			}
			var err error
			if key, err = p.key(); err != nil {
				return node{}, err
			}
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return node{}, p.fail("expected ':' after an object key")
			}
			p.pos++
			p.space()
		}
		v, err := p.value()
		if err != nil {
			return node{}, err
		}
		v.key = key
		p.stack = append(p.stack, v)
		p.space()
		if p.pos >= len(p.data) {
			return node{}, p.fail("unexpected end of JSON input")
		}
		c := p.data[p.pos]
		p.pos++
		if c == closer {
			break
		}
		if c != ',' {
			return node{}, p.fail("invalid character %q after a value", c)
		}
		p.space()
	}
	n.kids = slices.Clone(p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	if obj {
		p.shapes.finishObject(&n)
	}
	p.depth--
	return n, nil
}

// number scans a JSON number.
func (p *jsonParser) number() bool {
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		start := i
		for i < len(d) && isDigit(d[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		start := i
		for i < len(d) && isDigit(d[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	p.pos = i
	return true
}

// str reads a JSON string at p.pos.
func (p *jsonParser) str() (string, error) {
	b, err := p.strBytes()
	return string(b), err
}

// key reads an object key, interned: the keys of a document's records repeat.
func (p *jsonParser) key() (string, error) {
	b, err := p.strBytes()
	if err != nil {
		return "", err
	}
	if k, ok := p.keys[string(b)]; ok {
		return k, nil
	}
	k := string(b)
	if len(p.keys) < maxInterned {
		if p.keys == nil {
			p.keys = make(map[string]string)
		}
		p.keys[k] = k
	}
	return k, nil
}

// maxInterned bounds the keys a parser interns.
const maxInterned = 4096

// strBytes reads a JSON string at p.pos; the bytes are valid until the next call.
func (p *jsonParser) strBytes() ([]byte, error) {
	d := p.data
	i := p.pos + 1
	start := i
	// The common case: no escapes, valid UTF-8.
	for i < len(d) {
		c := d[i]
		if c == '"' {
			if utf8.Valid(d[start:i]) {
				p.pos = i + 1
				return d[start:i], nil
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	i = start // the slow path: escapes, control characters or invalid UTF-8 somewhere
	b := p.sb[:0]
	for {
		if i >= len(d) {
			p.pos = i
			return nil, p.fail("unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.sb = b
			return b, nil
		case c < 0x20:
			p.pos = i
			return nil, p.fail("invalid control character %#x in a string", c)
		case c == '\\':
			if i+1 >= len(d) {
				p.pos = i
				return nil, p.fail("unterminated string")
			}
			i++
			switch e := d[i]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(d[i+1:])
				if !ok {
					p.pos = i
					return nil, p.fail("invalid \\u escape")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if i+6 < len(d) && d[i+1] == '\\' && d[i+2] == 'u' {
						if lo, ok := hex4(d[i+3:]); ok {
							if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
								r2 = dec
								i += 6
							}
						}
					}
					r = r2
				}
				b = utf8.AppendRune(b, r)
			default:
				p.pos = i
				return nil, p.fail("invalid escape \\%c", e)
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, d[i:i+size]...)
			}
			i += size
		}
	}
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// appendJSON appends n as minified JSON, members in order, numbers in canonical form, strings
// escaped as encoding/json escapes them (without its HTML escapes).
func appendJSON(b []byte, n *node) []byte {
	switch n.kind {
	case kindNull:
		return append(b, "null"...)
	case kindFalse:
		return append(b, "false"...)
	case kindTrue:
		return append(b, "true"...)
	case kindNumber:
		return append(b, n.text...)
	case kindString:
		return appendJSONString(b, n.text)
	case kindArray:
		b = append(b, '[')
		for i := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, &n.kids[i])
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, n.kids[i].key)
			b = append(b, ':')
			b = appendJSON(b, &n.kids[i])
		}
		return append(b, '}')
	}
}

// appendJSONString appends s as a JSON string: ASCII escaped as TOON
// escapes it (appendEscape), U+2028 and U+2029 escaped, invalid UTF-8 as
// U+FFFD (appendString).
func appendJSONString(b []byte, s string) []byte { return appendString(b, s, true) }

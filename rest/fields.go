package rest

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/contentneg/contentneg/shaping"
)

// maxFields bounds the fields one request may name.
const maxFields = 64

// parseFields reads fields=a,b.c,orders.#.id: each field is a
// dot-separated path of names made of letters, digits, "_" and "-" (a
// number indexes an array), where a "#" segment, never the last, selects
// inside every element of an array. gjson's other syntax (modifiers such as
// "@reverse", pipes, queries "#(...)", wildcards, a trailing "#" that counts)
// is refused: a projection names fields, it does not compute.
func parseFields(raw string) ([]string, *Error) {
	if raw == "" {
		return nil, nil
	}
	parts := strings.Split(raw, ",")
	if len(parts) > maxFields {
		return nil, invalid("too many fields", Detail{Field: "fields", Error: "at most 64 fields"})
	}
	var details []Detail
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !validField(p) {
			details = append(details, Detail{Field: "fields", Error: "not a field path: " + strconvQuote(p)})
			continue
		}
		out = append(out, p)
	}
	if details != nil {
		return nil, invalid("invalid fields", details...)
	}
	return out, nil
}

func validField(p string) bool {
	if p == "" || len(p) > 256 {
		return false
	}
	segs := strings.Split(p, ".")
	for i, seg := range segs {
		if seg == "" {
			return false
		}
		if seg == "#" {
			if i == len(segs)-1 {
				return false // a count, not a field
			}
			continue
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
				return false
			}
		}
	}
	return true
}

// node is the tree of a projection, keys in the order fields named them.
type node struct {
	keys  []string
	kids  map[string]*node
	each  *node // the fields selected in every element of an array ("#")
	whole bool  // the field is named whole: its value as it is
}

// project returns the fields of value (a gjson projection), nested as in
// value: fields=location.name,current.temp_c gives
// {"location":{"name":...},"current":{"temp_c":...}}, and
// fields=orders.#.id gives {"orders":[{"id":...},...]} (an element without
// the field is an empty object). missing lists the fields value does not
// have. The output is at most the value's size per field.
func project(value []byte, fields []string) (out []byte, missing []string) {
	root := &node{}
	for _, f := range fields {
		if !has(value, f) {
			missing = append(missing, f)
			continue
		}
		root.insert(strings.Split(f, "."))
	}
	var b bytes.Buffer
	root.write(&b, gjson.ParseBytes(value))
	return b.Bytes(), missing
}

// has reports whether value has the field: for a field inside an array
// ("orders.#.id"), whether some element has it (an empty array has every
// field).
func has(value []byte, f string) bool {
	r := gjson.GetBytes(value, f)
	if !r.Exists() {
		return false
	}
	before, _, inArray := strings.Cut(f, ".#.")
	if !inArray || !r.IsArray() || len(r.Array()) > 0 {
		return true
	}
	arr := gjson.GetBytes(value, before)
	return arr.IsArray() && len(arr.Array()) == 0
}

func (n *node) insert(path []string) {
	if n.whole {
		return // a field named whole already holds this one
	}
	if len(path) == 0 {
		n.whole, n.keys, n.kids, n.each = true, nil, nil, nil
		return
	}
	k := path[0]
	if k == "#" {
		if n.each == nil {
			n.each = &node{}
		}
		n.each.insert(path[1:])
		return
	}
	if n.kids == nil {
		n.kids = make(map[string]*node)
	}
	kid, ok := n.kids[k]
	if !ok {
		kid = &node{}
		n.kids[k] = kid
		n.keys = append(n.keys, k)
	}
	kid.insert(path[1:])
}

// write appends v's projection by n: v whole, every element of an array
// projected, or an object of the named members v has.
func (n *node) write(b *bytes.Buffer, v gjson.Result) {
	switch {
	case n.whole:
		b.WriteString(v.Raw)
		return
	case n.each != nil && v.IsArray():
		b.WriteByte('[')
		i := 0
		v.ForEach(func(_, el gjson.Result) bool {
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			n.each.write(b, el)
			return true
		})
		b.WriteByte(']')
		return
	}
	b.WriteByte('{')
	first := true
	for _, k := range n.keys {
		kv := v.Get(k) // k is letters, digits, "_" and "-": no gjson syntax
		if !kv.Exists() {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(k)
		b.Write(key)
		b.WriteByte(':')
		n.kids[k].write(b, kv)
	}
	b.WriteByte('}')
}

func strconvQuote(s string) string {
	q, _ := json.Marshal(clip(s))
	return string(q)
}

// fieldsParam reads fields= for a JSON response; other media types ignore
// it.
func fieldsParam(q *request, mediaType string) ([]string, *Error) {
	if mediaType != shaping.JSON.MediaType {
		return nil, nil
	}
	return parseFields(q.query().Get("fields"))
}

// unknownFields is the 400 for fields a value does not have.
func unknownFields(missing []string) *Error {
	d := make([]Detail, len(missing))
	for i, m := range missing {
		d[i] = Detail{Field: "fields", Error: "unknown field " + strconvQuote(m)}
	}
	return invalid("fields names fields the response does not have", d...)
}

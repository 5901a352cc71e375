package rest

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// maxFields bounds the fields one request may name.
const maxFields = 64

// parseFields reads fields=a,b.c: each field is a dot-separated path of
// names made of letters, digits, "_" and "-" (a number indexes an array).
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
	for _, seg := range strings.Split(p, ".") {
		if seg == "" {
			return false
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
	keys []string
	kids map[string]*node
	raw  string // a leaf's JSON
}

// project returns the fields of value (a gjson projection), nested as in
// value: fields=location.name,current.temp_c gives
// {"location":{"name":...},"current":{"temp_c":...}}. missing lists the
// fields value does not have.
func project(value []byte, fields []string) (out []byte, missing []string) {
	root := &node{}
	for _, f := range fields {
		r := gjson.GetBytes(value, f)
		if !r.Exists() {
			missing = append(missing, f)
			continue
		}
		root.insert(strings.Split(f, "."), r.Raw)
	}
	var b bytes.Buffer
	root.write(&b)
	return b.Bytes(), missing
}

func (n *node) insert(path []string, raw string) {
	if n.raw != "" {
		return // a field named whole already holds this one
	}
	k := path[0]
	if n.kids == nil {
		n.kids = make(map[string]*node)
	}
	kid, ok := n.kids[k]
	if !ok {
		kid = &node{}
		n.kids[k] = kid
		n.keys = append(n.keys, k)
	}
	if len(path) == 1 {
		kid.raw, kid.keys, kid.kids = raw, nil, nil
		return
	}
	kid.insert(path[1:], raw)
}

func (n *node) write(b *bytes.Buffer) {
	if n.raw != "" {
		b.WriteString(n.raw)
		return
	}
	b.WriteByte('{')
	for i, k := range n.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(k)
		b.Write(key)
		b.WriteByte(':')
		n.kids[k].write(b)
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
	if mediaType != "application/json" {
		return nil, nil
	}
	return parseFields(q.r.URL.Query().Get("fields"))
}

// unknownFields is the 400 for fields a value does not have.
func unknownFields(missing []string) *Error {
	d := make([]Detail, len(missing))
	for i, m := range missing {
		d[i] = Detail{Field: "fields", Error: "unknown field " + strconvQuote(m)}
	}
	return invalid("fields names fields the response does not have", d...)
}

// Package rawjson reads and splices JSON documents as bytes: the members of
// an object in their written order, one member's value, a member replaced
// or removed, with every other byte left as it was. It never decodes a
// value it does not have to, so numbers keep their digits and objects
// their key order. Every function takes time linear in the document and
// none recurses, so a deep document costs no stack.
//
// The functions that read assume a document that [Check] accepted: on
// other input they return ok false or a best effort, never panic.
package rawjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ErrTooDeep is what [Check] wraps for a document nested deeper than it
// allows.
var ErrTooDeep = errors.New("nested too deeply")

// ErrSyntax is what [Check] wraps for a document that is not one JSON
// value.
var ErrSyntax = errors.New("not JSON")

// Check reports whether doc is exactly one JSON value nested at most
// maxDepth arrays and objects deep.
func Check(doc []byte, maxDepth int) error {
	if d := Depth(doc); d > maxDepth {
		return fmt.Errorf("%w: more than %d levels", ErrTooDeep, maxDepth)
	}
	if !json.Valid(doc) {
		return ErrSyntax
	}
	return nil
}

// Depth returns how deeply doc's arrays and objects nest, counting the
// brackets outside strings.
func Depth(doc []byte) int {
	depth, most := 0, 0
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			i = stringEnd(doc, i) - 1
		case '{', '[':
			depth++
			if depth > most {
				most = depth
			}
		case '}', ']':
			depth--
		}
	}
	return most
}

// stringEnd returns the index just past the string that starts at doc[i]
// (a quote), len(doc) when it does not end.
func stringEnd(doc []byte, i int) int {
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(doc)
}

// space returns the index of the first byte at or after i that is not
// white space.
func space(doc []byte, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// valueEnd returns the index just past the value that starts at doc[i].
func valueEnd(doc []byte, i int) int {
	if i >= len(doc) {
		return i
	}
	switch doc[i] {
	case '"':
		return stringEnd(doc, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				j = stringEnd(doc, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(doc)
	}
	j := i
	for j < len(doc) {
		switch doc[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}

// Member is one member of an object.
type Member struct {
	// Key is the member's name, decoded.
	Key string
	// Start and End delimit the whole member in the document (from its
	// name's opening quote to the end of its value); Value is its value's
	// bytes.
	Start, End int
	Value      []byte
}

// Members returns the members of the object doc, in their written order;
// ok is false when doc is not an object.
func Members(doc []byte) (members []Member, ok bool) {
	ok = eachMember(doc, func(m Member) bool {
		members = append(members, m)
		return true
	})
	return members, ok
}

// eachMember calls f for each member of the object doc until f returns
// false; it returns false when doc is not an object.
func eachMember(doc []byte, f func(Member) bool) bool {
	i := space(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return false
	}
	i = space(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return true
	}
	for i < len(doc) {
		if doc[i] != '"' {
			return false
		}
		start := i
		keyEnd := stringEnd(doc, i)
		key, ok := String(doc[i:keyEnd])
		if !ok {
			return false
		}
		i = space(doc, keyEnd)
		if i >= len(doc) || doc[i] != ':' {
			return false
		}
		v := space(doc, i+1)
		end := valueEnd(doc, v)
		if end <= v {
			return false
		}
		if !f(Member{Key: key, Start: start, End: end, Value: doc[v:end]}) {
			return true
		}
		i = space(doc, end)
		if i >= len(doc) {
			return false
		}
		if doc[i] == '}' {
			return true
		}
		if doc[i] != ',' {
			return false
		}
		i = space(doc, i+1)
	}
	return false
}

// Last returns the last of members named key: the one encoding/json
// reads when an object repeats a name.
func Last(members []Member, key string) (Member, bool) {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key == key {
			return members[i], true
		}
	}
	return Member{}, false
}

// ObjectMembers returns the members of doc, in their written order, when
// doc is one valid JSON object (white space around it allowed); ok is
// false for anything else. Unlike [Members], it checks doc itself.
func ObjectMembers(doc []byte) (members []Member, ok bool) {
	if !json.Valid(doc) {
		return nil, false
	}
	return Members(doc)
}

// Append returns a copy of the object doc with the member key: value added
// before its closing brace, after a comma unless doc has no members; every
// byte of doc stays, white space included. It does not look for a member
// of the same name. doc is returned unchanged when it is not an object.
func Append(doc []byte, key string, value []byte) []byte {
	members, ok := Members(doc)
	if !ok {
		return doc
	}
	// The closing brace: past the last member, or the opening one.
	end := space(doc, space(doc, 0)+1)
	if len(members) > 0 {
		end = space(doc, members[len(members)-1].End)
	}
	q := Quote(key)
	out := make([]byte, 0, len(doc)+len(q)+len(value)+2)
	out = append(out, doc[:end]...)
	if len(members) > 0 {
		out = append(out, ',')
	}
	out = append(out, q...)
	out = append(out, ':')
	out = append(out, value...)
	return append(out, doc[end:]...)
}

// Get returns the value of the first member named key of the object doc.
func Get(doc []byte, key string) (value []byte, ok bool) {
	eachMember(doc, func(m Member) bool {
		if m.Key == key {
			value, ok = m.Value, true
			return false
		}
		return true
	})
	return value, ok
}

// Path returns the value at the members named keys, one level each.
func Path(doc []byte, keys ...string) ([]byte, bool) {
	for _, k := range keys {
		v, ok := Get(doc, k)
		if !ok {
			return nil, false
		}
		doc = v
	}
	return doc, true
}

// Elements returns the elements of the array doc; ok is false when doc is
// not an array.
func Elements(doc []byte) (elems [][]byte, ok bool) {
	i := space(doc, 0)
	if i >= len(doc) || doc[i] != '[' {
		return nil, false
	}
	i = space(doc, i+1)
	if i < len(doc) && doc[i] == ']' {
		return [][]byte{}, true
	}
	for i < len(doc) {
		end := valueEnd(doc, i)
		if end <= i {
			return nil, false
		}
		elems = append(elems, doc[i:end])
		i = space(doc, end)
		if i >= len(doc) {
			return nil, false
		}
		if doc[i] == ']' {
			return elems, true
		}
		if doc[i] != ',' {
			return nil, false
		}
		i = space(doc, i+1)
	}
	return nil, false
}

// String decodes the JSON string v.
func String(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// Quote returns s as a JSON string, without escaping <, > and &.
func Quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Marshal encodes v as JSON without escaping <, > and &.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Set returns a copy of the object doc whose member key has value; the
// member is appended when doc has none. Every other byte stays. doc is
// returned unchanged when it is not an object.
func Set(doc []byte, key string, value []byte) []byte {
	var found *Member
	var last Member
	n := 0
	ok := eachMember(doc, func(m Member) bool {
		n++
		last = m
		if m.Key == key && found == nil {
			mm := m
			found = &mm
		}
		return true
	})
	if !ok {
		return doc
	}
	out := make([]byte, 0, len(doc)+len(key)+len(value)+4)
	if found != nil {
		vstart := found.End - len(found.Value)
		out = append(out, doc[:vstart]...)
		out = append(out, value...)
		return append(out, doc[found.End:]...)
	}
	if n == 0 {
		open := space(doc, 0)
		out = append(out, doc[:open+1]...)
		out = append(out, Quote(key)...)
		out = append(out, ':')
		out = append(out, value...)
		return append(out, doc[space(doc, open+1):]...)
	}
	out = append(out, doc[:last.End]...)
	out = append(out, ',')
	out = append(out, Quote(key)...)
	out = append(out, ':')
	out = append(out, value...)
	return append(out, doc[last.End:]...)
}

// Delete returns a copy of the object doc without its members named key;
// doc itself when it has none.
func Delete(doc []byte, key string) []byte {
	members, ok := Members(doc)
	if !ok {
		return doc
	}
	var out []byte
	cut := false
	for _, m := range members {
		if m.Key == key {
			cut = true
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(doc)), doc[:space(doc, 0)+1]...)
		} else {
			out = append(out, ',')
		}
		out = append(out, doc[m.Start:m.End]...)
	}
	if !cut {
		return doc
	}
	if out == nil {
		open := space(doc, 0)
		return append(append([]byte{}, doc[:open+1]...), '}')
	}
	return append(out, '}')
}

// Object writes an object of the members, in order: keys[i] and values[i].
func Object(keys []string, values [][]byte) []byte {
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, Quote(k)...)
		out = append(out, ':')
		out = append(out, values[i]...)
	}
	return append(out, '}')
}

// Array writes an array of the elements, in order.
func Array(elems [][]byte) []byte {
	out := []byte{'['}
	for i, e := range elems {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e...)
	}
	return append(out, ']')
}

// Int returns the integer v holds, if it is a JSON number without a
// fraction or an exponent.
func Int(v []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

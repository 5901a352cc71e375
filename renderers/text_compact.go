package renderers

import (
	"strconv"

	"github.com/tidwall/gjson"
)

// This file holds compact text: the smallest faithful plain text, for models. Every object member
// is a "key=value" line (a list of scalars is "key=a,b,c", without a count) or, for an object of scalars, one line of "key=value" pairs separated by
// spaces (logfmt); a nested object indents its members by one space; a uniform array of objects is a
// "key[N]{a,b}:" header and N comma-separated rows, not indented (the count delimits them); an
// element of another array is one line of its scalar members, its other members indented under it;
// elements, like rows, are not indented under their "key[N]:" header.

// pairSeparator separates the key=value pairs of an object written on one line, as in logfmt: a
// key or value holding a space or '=' is quoted.
const pairSeparator = " "

// cObject writes the non-empty members of obj as lines at indent.
func (r *render) cObject(obj gjson.Result, s *Schema, indent, depth int) {
	fields, mark := r.objectFields(obj, s)
	for i := range fields {
		f := &fields[i]
		if isEmpty(f.value) {
			continue
		}
		r.writeCompactIndent(indent)
		r.txtString(f.key, keyRules)
		r.cMember(f.value, schemaOf(f.prop), indent, depth)
	}
	r.popFields(mark)
}

// cMember writes what follows a member's key, through the end of its last line.
func (r *render) cMember(v gjson.Result, s *Schema, indent, depth int) {
	switch {
	case v.Type != gjson.JSON:
		r.b.WriteByte('=')
		r.txtScalar(v, 0)
	case depth+1 >= maxDepth:
		r.b.WriteByte('=')
		r.scratch.buf = appendMinified(r.scratch.buf[:0], v.Raw)
		r.b.Write(r.scratch.buf)
	case scalarArray(v):
		r.b.WriteByte('=')
		r.txtItems(v, ",", 0)
	case v.IsObject() && r.flat(v):
		r.b.WriteString(": ")
		r.cPairs(v, s, 0)
	case v.IsObject():
		r.b.WriteString(":\n")
		r.cObject(v, s, indent+1, depth+1)
		return
	default:
		r.cArray(v, itemsOf(s), indent, depth)
		return
	}
	r.b.WriteByte('\n')
}

// cArray writes "[N]" and the body of an array that is not a list of scalars: a header-once table
// for a uniform array of objects, else its elements. Neither rows nor elements are indented under
// the header: its count says how many follow (an element's own members are indented under it).
func (r *render) cArray(arr gjson.Result, items *Schema, indent, depth int) {
	r.txtCount(arr)
	if cols, mark, ok := r.tableColumns(arr, items); ok {
		r.txtHeader(cols)
		r.b.WriteString(":\n")
		r.txtTable(arr, cols, indent)
		r.popColumns(mark)
		return
	}
	r.b.WriteString(":\n")
	r.cElements(arr, items, indent, depth+1)
}

// cElements writes every element of arr at indent, so that the count in the header delimits them: a
// scalar ("null" and "" included), "{}", "[]" or a list of scalars on its line, an object as one
// line of its scalar members with its other members indented under it.
func (r *render) cElements(arr gjson.Result, items *Schema, indent, depth int) {
	i := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		r.writeCompactIndent(indent)
		switch {
		case isEmpty(el) && el.Type == gjson.JSON:
			r.writeEmpty(el)
			r.b.WriteByte('\n')
		case el.Type != gjson.JSON:
			r.txtScalar(el, atLineStart)
			r.b.WriteByte('\n')
		case el.IsObject() && depth+1 < maxDepth:
			r.cElementObject(el, items, i, indent, depth)
		default:
			label := strconv.Itoa(i)
			r.b.WriteString(label) // an array (or a value too deep): "N[K]=..." or "N=<minified JSON>"
			r.cMember(el, items, indent, depth)
		}
		return true
	})
}

// cElementObject writes an object that is an array element: its scalar members as pairs on the
// element's line (the label "N:" when it has none), its other members indented under it.
func (r *render) cElementObject(obj gjson.Result, s *Schema, index, indent, depth int) {
	fields, mark := r.objectFields(obj, s)
	first := atLineStart
	for i := range fields {
		f := &fields[i]
		if !r.pairable(f.value) {
			continue
		}
		if first == 0 {
			r.b.WriteString(pairSeparator)
		}
		r.cPair(f, first)
		first = 0
	}
	if first != 0 {
		r.b.WriteString(strconv.Itoa(index))
		r.b.WriteByte(':')
	}
	r.b.WriteByte('\n')
	for i := range fields {
		f := &fields[i]
		if isEmpty(f.value) || r.pairable(f.value) {
			continue
		}
		r.writeCompactIndent(indent + 1)
		r.txtString(f.key, keyRules)
		r.cMember(f.value, schemaOf(f.prop), indent+1, depth+1)
	}
	r.popFields(mark)
}

// cPairs writes the non-empty members of a flat object as "key=value" pairs; first holds the
// quoting rules of the first key (atLineStart when it starts the line).
func (r *render) cPairs(obj gjson.Result, s *Schema, first quoteRule) {
	fields, mark := r.objectFields(obj, s)
	started := false
	for i := range fields {
		f := &fields[i]
		if isEmpty(f.value) {
			continue
		}
		if started {
			r.b.WriteString(pairSeparator)
		}
		r.cPair(f, first)
		first, started = 0, true
	}
	r.popFields(mark)
}

// cPair writes one "key=value" (or "key=a,b") pair of a line of pairs.
func (r *render) cPair(f *field, first quoteRule) {
	r.txtString(f.key, keyChars|pairSeparated|first)
	if f.value.IsArray() {
		r.b.WriteByte('=')
		r.txtItems(f.value, ",", pairSeparated)
		return
	}
	r.b.WriteByte('=')
	r.txtScalar(f.value, pairSeparated)
}

// pairable reports whether v is written as a pair: a non-empty scalar or list of scalars.
func (r *render) pairable(v gjson.Result) bool {
	return !isEmpty(v) && (v.Type != gjson.JSON || scalarArray(v))
}

// flat reports whether obj has at least one non-empty member and every non-empty member is
// pairable: it is then written on one line.
func (r *render) flat(obj gjson.Result) bool {
	n := 0
	ok := true
	obj.ForEach(func(_, v gjson.Result) bool {
		if isEmpty(v) {
			return true
		}
		n++
		ok = r.pairable(v)
		return ok
	})
	return ok && n > 0
}

// compactRoot writes the whole value at compact verbosity.
func (r *render) compactRoot(v gjson.Result, s *Schema) {
	switch {
	case v.IsObject():
		r.cObject(v, s, 0, 0)
	case isEmpty(v) && v.Type == gjson.JSON:
	case scalarArray(v):
		r.txtCount(v)
		r.b.WriteByte('=')
		r.txtItems(v, ",", 0)
		r.b.WriteByte('\n')
	case v.IsArray():
		if cols, mark, ok := r.tableColumns(v, itemsOf(s)); ok {
			r.txtCount(v)
			r.txtHeader(cols)
			r.b.WriteString(":\n")
			r.txtTable(v, cols, 0)
			r.popColumns(mark)
			return
		}
		r.cElements(v, itemsOf(s), 0, 0)
	default:
		r.txtScalar(v, atLineStart)
		r.b.WriteByte('\n')
	}
}

// writeCompactIndent indents by one space per level.
func (r *render) writeCompactIndent(indent int) {
	for ; indent > 0; indent-- {
		r.b.WriteByte(' ')
	}
}

package renderers

import (
	"cmp"
	"slices"

	"github.com/tidwall/gjson"
)

// maxColumns bounds the width of a table; wider uniform arrays are rendered as numbered sections.
const maxColumns = 32

// objectFields appends the members of obj to the scratch field stack in rendering order and returns
// them with the stack height to restore (popFields) when the caller is done. With a schema, fields
// come in the schema's property order and the others after them in value order; without one, in
// the order of the raw bytes (and so with Options.ValueOrder).
func (r *render) objectFields(obj gjson.Result, s *Schema) (fields []field, mark int) {
	mark = len(r.scratch.fields)
	index := r.propertyIndex(s)
	obj.ForEach(func(key, value gjson.Result) bool {
		f := field{key: jsonText(key.Str, key.Raw), raw: key.Raw, value: value}
		if s != nil {
			f.rank = len(s.Properties)
			if i := index.of(s, f.key); i >= 0 {
				f.prop, f.rank = &s.Properties[i], i
			}
		}
		r.scratch.fields = append(r.scratch.fields, f)
		return true
	})
	fields = r.scratch.fields[mark:]
	if s != nil && !r.opts.ValueOrder {
		slices.SortStableFunc(fields, func(a, b field) int { return cmp.Compare(a.rank, b.rank) })
	}
	return fields, mark
}

func (r *render) popFields(mark int) {
	clear(r.scratch.fields[mark:])
	r.scratch.fields = r.scratch.fields[:mark]
}

// propertyIndex returns a map from property name to index for s when s has more than a few
// properties (so that ordering a wide object is linear), or nil: small schemas are scanned.
// ParseSchema builds the map once; for a schema built by hand the map is built once per rendering.
func (r *render) propertyIndex(s *Schema) names {
	if s == nil || len(s.Properties) <= smallSchema {
		return nil
	}
	if s.index != nil {
		return s.index
	}
	if m, ok := r.scratch.indexes[s]; ok {
		return m
	}
	if r.scratch.indexes == nil {
		r.scratch.indexes = make(map[*Schema]names)
	}
	m := indexProperties(s.Properties)
	r.scratch.indexes[s] = m
	return m
}

// smallSchema is the number of properties up to which a linear scan finds a property.
const smallSchema = 8

// names maps a property name to its index in Schema.Properties (the first, for a repeated name).
type names map[string]int

func indexProperties(props []Property) names {
	m := make(names, len(props))
	for i := len(props) - 1; i >= 0; i-- {
		m[props[i].Name] = i
	}
	return m
}

// of returns the index of the property called name in s, or -1; m is s's index or nil.
func (m names) of(s *Schema, name string) int {
	if m != nil {
		if i, ok := m[name]; ok {
			return i
		}
		return -1
	}
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			return i
		}
	}
	return -1
}

// tableColumns returns the columns of arr when it is a uniform array of objects: at least one
// element, every element an object with the same keys (any order, no duplicates), every value a
// scalar, at most maxColumns keys. Columns come in the items schema's order (unless
// Options.ValueOrder), else in the first element's. The caller pops them with popColumns.
func (r *render) tableColumns(arr gjson.Result, items *Schema) (cols []column, mark int, ok bool) {
	mark = len(r.scratch.cols)
	ok = arr.IsArray()
	rows := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		if !el.IsObject() {
			ok = false
			return false
		}
		ok = r.addRow(el, mark, rows == 0)
		rows++
		return ok
	})
	cols = r.scratch.cols[mark:]
	if !ok || rows == 0 || len(cols) == 0 {
		r.popColumns(mark)
		return nil, mark, false
	}
	if !anyFilled(cols) { // all empty: show every column rather than none
		for i := range cols {
			cols[i].filled = true
		}
	}
	if items != nil {
		index := r.propertyIndex(items)
		for i := range cols {
			cols[i].rank = len(items.Properties)
			if j := index.of(items, cols[i].key); j >= 0 {
				cols[i].prop, cols[i].rank = &items.Properties[j], j
			}
		}
		if !r.opts.ValueOrder {
			slices.SortStableFunc(cols, func(a, b column) int { return cmp.Compare(a.rank, b.rank) })
		}
	}
	return cols, mark, true
}

// addRow checks one element against the columns from mark on (first: it defines them).
func (r *render) addRow(el gjson.Result, mark int, first bool) bool {
	var seen uint64
	ok := true
	el.ForEach(func(key, value gjson.Result) bool {
		if value.Type == gjson.JSON {
			ok = false
			return false
		}
		k := jsonText(key.Str, key.Raw)
		i := columnIndex(r.scratch.cols[mark:], k)
		switch {
		case i < 0 && first && len(r.scratch.cols)-mark < maxColumns:
			i = len(r.scratch.cols) - mark
			r.scratch.cols = append(r.scratch.cols, column{key: k})
		case i < 0 || seen&(1<<i) != 0:
			ok = false
			return false
		}
		seen |= 1 << i
		if !isEmpty(value) {
			r.scratch.cols[mark+i].filled = true
		}
		return true
	})
	return ok && seen == 1<<(len(r.scratch.cols)-mark)-1
}

func (r *render) popColumns(mark int) {
	clear(r.scratch.cols[mark:])
	r.scratch.cols = r.scratch.cols[:mark]
}

func columnIndex(cols []column, key string) int {
	for i := range cols {
		if cols[i].key == key {
			return i
		}
	}
	return -1
}

// rowCells returns the cells of object el in the order of cols, using the scratch cell buffer; the
// slice is valid until the next call.
func (r *render) rowCells(el gjson.Result, cols []column) []gjson.Result {
	cells := slices.Grow(r.scratch.cells[:0], len(cols))[:len(cols)]
	clear(cells)
	el.ForEach(func(key, value gjson.Result) bool {
		if i := columnIndex(cols, jsonText(key.Str, key.Raw)); i >= 0 {
			cells[i] = value
		}
		return true
	})
	r.scratch.cells = cells
	return cells
}

func anyFilled(cols []column) bool {
	for i := range cols {
		if cols[i].filled {
			return true
		}
	}
	return false
}

// showColumn reports whether column i is written: compact drops columns that are empty in every
// row (tableColumns marks all columns filled when every one is empty).
func (r *render) showColumn(cols []column, i int) bool {
	return !r.compact() || cols[i].filled
}

// isEmpty reports whether v is null, "", [] or {}: what compact renderings drop.
func isEmpty(v gjson.Result) bool {
	switch v.Type {
	case gjson.Null:
		return true
	case gjson.String:
		return v.Str == ""
	case gjson.JSON:
		empty := true
		v.ForEach(func(_, _ gjson.Result) bool {
			empty = false
			return false
		})
		return empty
	}
	return false
}

// scalarArray reports whether arr is a non-empty array of scalars (strings, numbers, booleans, null).
func scalarArray(arr gjson.Result) bool {
	if !arr.IsArray() {
		return false
	}
	ok, n := true, 0
	arr.ForEach(func(_, el gjson.Result) bool {
		n++
		ok = el.Type != gjson.JSON
		return ok
	})
	return ok && n > 0
}

// count returns the number of elements (or members) of a container.
func count(v gjson.Result) int {
	n := 0
	v.ForEach(func(_, _ gjson.Result) bool {
		n++
		return true
	})
	return n
}

// itemsOf returns the element schema of s, or nil.
func itemsOf(s *Schema) *Schema {
	if s == nil {
		return nil
	}
	return s.Items
}

// schemaOf returns the subschema of p, or nil.
func schemaOf(p *Property) *Schema {
	if p == nil {
		return nil
	}
	return p.Schema
}

// appendMinified appends the JSON text raw without insignificant white space.
func appendMinified(dst []byte, raw string) []byte {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString:
			if c == '\\' && i+1 < len(raw) {
				dst = append(dst, c)
				i++
				c = raw[i]
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

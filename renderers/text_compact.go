package renderers

import (
	"cmp"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// This file holds compact text: the smallest plain text that reads back to exactly the value it
// comes from, for models. docs/renderers.md gives its grammar; the tests hold a decoder for it.
//
//   - An object's pair members ("key=value" for a scalar or an empty container, "[]" or "{}";
//     "key[]=a,b" for a list of scalars) are one line of logfmt pairs, first; its other members
//     follow, each a line at its object's indentation: "key: a=1 b=x" (logfmt pairs)
//     for an object whose members are all written as pairs; "key:" with the members one space
//     deeper for another object; "key[]{a,b}:" and one comma-separated row per element for an
//     array of objects whose keys a, b hold a scalar in every element (each row followed by the
//     element's other members, one space deeper);
//     "key[N]:" and N elements for another array. Rows and elements are not indented under a
//     header with a key: a table's rows end at the first line that is not a row (a row holds no
//     bare '=' and does not end with ':'; as the pairs come first, only a header can follow them
//     at their indentation), and the count delimits the elements, whose lines can be pairs.
//   - A table's header also names an object member folded into columns ("user.login"), a list
//     of scalars whose items end each row ("tags[]", last), and the header of its rows' tables
//     under a key ("items{sku,qty}", hoisted: each row's table is then "items:" and its rows, or
//     its rows alone where the header hoists one table and it is the row's only block member).
//   - An element is one line: a scalar; an object's pair members as pairs, with its other members
//     one space deeper under it ("N:", its index, when it has none); an array as a header without
//     a key ("[]=a,b", "[]{a,b}:", or "[N]=" with nothing after the '=') whose rows or elements
//     are one space deeper.
//   - A value deeper than maxDepth, and the whole text when the layout would be longer than the
//     JSON, is the minified JSON text itself, which the grammar reads as such.
//   - Strings are bare unless needsQuote says otherwise; then they are JSON string literals.

// listMark introduces a list of scalars, whose items follow on the same line: "key[]=a,b". It has
// no count: the line delimits the list, and "[]" tells it from a string ("key=a,b" is one string).
const listMark = "[]="

// pairSeparator separates the key=value pairs of an object written on one line, as in logfmt: a
// key or value holding a space is quoted.
const pairSeparator = " "

// compactRoot writes the whole value at compact verbosity.
func (r *render) compactRoot(v gjson.Result, s *Schema) {
	switch {
	case v.IsObject() && !isEmpty(v):
		r.cObject(v, s, 0, 0)
	case v.IsArray() && !isEmpty(v):
		r.cArray(v, itemsOf(s), 0, 0, 0, false)
	default:
		r.cToken(v, atLineStart|elementLine)
		r.b.WriteByte('\n')
	}
}

// cObject writes the members of a non-empty object as lines at indent.
func (r *render) cObject(obj gjson.Result, s *Schema, indent, depth int) {
	fields, mark := r.objectFields(obj, s)
	r.cMembers(fields, nil, nil, indent, depth)
	r.popFields(mark)
}

// cMembers writes fields, but those that are columns of cols, as member lines at indent: first
// every pairable member (a scalar, an empty container, a list of scalars) as pairs on one line (a
// line break, and a key's first word, which a tokenizer splits at a line's start, cost more than
// a space and a pair's quotes), then every other member on lines of its own, in order. So no
// member line follows a table or a list of elements at its indentation but a header: a reader
// sees where the rows end without counting them. When moving the pairs first would move a
// repeated key past another member of that key (the last one counts), the members keep their
// order, two or more pairable ones in a row sharing a line. A member holding a table whose header
// nested hoists is written as "key:" and its rows (its rows alone: see cBlockMember).
func (r *render) cMembers(fields []field, cols []column, nested []hoisted, indent, depth int) {
	if !repeatsAfterBlock(fields) {
		first := atLineStart
		for i := range fields {
			f := &fields[i]
			if isColumn(cols, f.key) || !pairable(f.value) {
				continue
			}
			if first != 0 {
				r.writeCompactIndent(indent)
			} else {
				r.b.WriteString(pairSeparator)
			}
			r.cPair(f, first)
			first = 0
		}
		if first == 0 {
			r.b.WriteByte('\n')
		}
		blocks := 0
		for i := range fields {
			if !isColumn(cols, fields[i].key) && !pairable(fields[i].value) {
				blocks++
			}
		}
		for i := range fields {
			f := &fields[i]
			if isColumn(cols, f.key) || pairable(f.value) {
				continue
			}
			r.cBlockMember(f, nested, len(nested) == 1 && blocks == 1, indent, depth)
		}
		return
	}
	for i := 0; i < len(fields); {
		if isColumn(cols, fields[i].key) {
			i++
			continue
		}
		if pairable(fields[i].value) {
			r.writeCompactIndent(indent)
			first := atLineStart
			for ; i < len(fields); i++ {
				f := &fields[i]
				if isColumn(cols, f.key) {
					continue
				}
				if !pairable(f.value) {
					break
				}
				if first == 0 {
					r.b.WriteString(pairSeparator)
				}
				r.cPair(f, first)
				first = 0
			}
			r.b.WriteByte('\n')
			continue
		}
		r.cBlockMember(&fields[i], nested, false, indent, depth)
		i++
	}
}

// cBlockMember writes a member on lines of its own at indent, through the end of its last line: a
// pair alone for a pairable one, the rows of a table whose header nested hoists ("key:" first,
// unless bare: the header hoists that key alone, and it is the row's only member not written as
// a pair), else the key and what cMember writes.
func (r *render) cBlockMember(f *field, nested []hoisted, bare bool, indent, depth int) {
	if h := findHoisted(nested, f.key); h != nil && r.cHoistedTable(f, h.cols, bare, indent, depth) {
		return
	}
	r.writeCompactIndent(indent)
	if pairable(f.value) { // a member kept in order among repeated keys
		r.cPair(f, atLineStart)
		r.b.WriteByte('\n')
		return
	}
	if depth+1 >= maxDepth {
		r.txtString(f.key, keyChars|pairSeparated|atLineStart) // "key=" and JSON text: a pair
	} else {
		r.txtString(f.key, keyRules)
	}
	r.cMember(f.value, schemaOf(f.prop), indent, depth)
}

// isColumn reports whether key is one of cols.
func isColumn(cols []column, key string) bool { return cols != nil && columnIndex(cols, key) >= 0 }

// cMember writes what follows a member's key, through the end of its last line.
func (r *render) cMember(v gjson.Result, s *Schema, indent, depth int) {
	switch {
	case v.Type != gjson.JSON || isEmpty(v) || depth+1 >= maxDepth:
		r.b.WriteByte('=')
		r.cToken(v, pairSeparated)
	case v.IsObject() && r.flat(v):
		r.b.WriteString(": ")
		r.cPairs(v, s, 0)
	case v.IsObject():
		r.b.WriteString(":\n")
		r.cObject(v, s, indent+1, depth+1)
		return
	default:
		r.cArray(v, itemsOf(s), indent, indent, depth, true)
		return
	}
	r.b.WriteByte('\n')
}

// cArray writes the rest of a non-empty array from "[", through the end of its last line: "[]=" and
// the scalars for a list of scalars, a header-once table ("[]{a,b}:" and one row per element, no
// count) for a uniform array of objects, else "[N]" and ":" (keyed) or "=" (no key) and one element
// per line. Rows and elements are written at body. A header without a key ends with "=", not ":":
// "[N]:" starting the text would read as a markdown link reference definition.
func (r *render) cArray(arr gjson.Result, items *Schema, indent, body, depth int, keyed bool) {
	if scalarArray(arr) {
		r.b.WriteString(listMark)
		r.cItems(arr, commaSeparated)
		r.b.WriteByte('\n')
		return
	}
	if cols, mark, ok := r.cColumns(arr, items); ok {
		nested := r.cNested(arr, items, cols, depth)
		r.b.WriteString("[]") // no count: a row is told from what follows it by its form
		r.cHeader(cols, nested)
		r.b.WriteString(":\n")
		r.cRows(arr, items, cols, nested, body, depth)
		r.popColumns(mark)
		return
	}
	r.txtCount(arr)
	if keyed {
		r.b.WriteString(":\n")
	} else {
		r.b.WriteString("=\n")
	}
	r.cElements(arr, items, body, depth+1)
}

// cColumns returns the columns of a header-once table for arr when every element is an object
// without repeated keys and at least one key holds a cell (a scalar or an empty container) in
// every element: those keys, at most maxColumns, in the items schema's order, else in the first
// element's. The caller pops them with popColumns.
func (r *render) cColumns(arr gjson.Result, items *Schema) (cols []column, mark int, ok bool) {
	mark = len(r.scratch.cols)
	ok = true
	first := true
	elements, pairs := 0, 0 // pairs counts the members a line of pairs would hold
	arr.ForEach(func(_, el gjson.Result) bool {
		if !el.IsObject() {
			ok = false
			return false
		}
		elements++
		var seen uint64
		el.ForEach(func(key, value gjson.Result) bool {
			if pairable(value) {
				pairs++
			}
			k := jsonText(key.Str, key.Raw)
			i := columnIndex(r.scratch.cols[mark:], k)
			if i < 0 && first && len(r.scratch.cols)-mark < maxColumns {
				// Every key of the first element is a candidate, so that a key repeated after a
				// member that is not a cell is found too.
				i = len(r.scratch.cols) - mark
				if !r.foldColumns(k, value, items, maxColumns-i) {
					r.scratch.cols = append(r.scratch.cols, column{key: k, filled: true, list: true})
				}
			}
			if i < 0 {
				return true
			}
			if seen&(1<<i) != 0 {
				ok = false // a repeated key
				return false
			}
			cols := r.scratch.cols[mark:]
			if cols[i].sub == "" {
				seen |= 1 << i
				if !isCell(value) {
					cols[i].filled = false
				}
				if !scalarArray(value) {
					cols[i].list = false
				}
				return true
			}
			n := foldWidth(cols[i:])
			seen |= (1<<n - 1) << i
			if !foldsInto(value, cols[i:i+n]) {
				for j := i; j < i+n; j++ {
					cols[j].filled = false
				}
			}
			return true
		})
		cols := r.scratch.cols[mark:]
		for i := range cols {
			if seen&(1<<i) == 0 {
				cols[i].filled, cols[i].list = false, false
			}
		}
		first = false
		return ok
	})
	if ok {
		// Keep the columns that hold a cell in every element, and (when there are two elements or
		// more) the first that holds a list of scalars in every element, last.
		cols = r.scratch.cols[mark:mark]
		var list column // the list column, if list.list
		for _, c := range r.scratch.cols[mark:] {
			switch {
			case c.filled:
				c.list = false
				cols = append(cols, c)
			case c.list && !list.list:
				list = c
			}
		}
		clear(r.scratch.cols[mark+len(cols):])
		r.scratch.cols = r.scratch.cols[:mark+len(cols)]
		r.sortColumns(r.scratch.cols[mark:], items)
		if list.list && len(cols) > 0 && elements > 1 { // one element reads better as pairs
			r.scratch.cols = append(r.scratch.cols, list)
		}
	}
	cols = r.scratch.cols[mark:]
	// The table writes each column's key once instead of once per element, but each member that a
	// line of pairs would hold and that is not a column costs a line of its own under its row: a
	// table with such members is used only where it saves more keys than it costs lines.
	if left := pairs - elements*pairColumns(cols); !ok || len(cols) == 0 || left > 0 && len(cols)*(elements-1) <= left {
		r.popColumns(mark)
		return nil, mark, false
	}
	return cols, mark, true
}

// sortColumns orders cols by the items schema's properties (unless Options.ValueOrder); the
// columns of a folded member keep their order.
func (r *render) sortColumns(cols []column, items *Schema) {
	if items == nil || r.opts.ValueOrder {
		return
	}
	index := r.propertyIndex(items)
	for i := range cols {
		cols[i].rank = len(items.Properties)
		if j := index.of(items, cols[i].key); j >= 0 {
			cols[i].prop, cols[i].rank = &items.Properties[j], j
		}
	}
	slices.SortStableFunc(cols, func(a, b column) int { return cmp.Compare(a.rank, b.rank) })
}

// foldColumns appends the columns of key folded ("key.a", "key.b") when value, the first element's
// member key, is a non-empty object of at most limit members, every one a cell under a key of its
// own: the columns of its members in its schema's order (items' property key), else in its own.
// It reports whether it appended them.
func (r *render) foldColumns(key string, value gjson.Result, items *Schema, limit int) bool {
	if !value.IsObject() || isEmpty(value) || count(value) > limit {
		return false
	}
	var sub *Schema
	if items != nil {
		if i := r.propertyIndex(items).of(items, key); i >= 0 {
			sub = schemaOf(&items.Properties[i])
		}
	}
	fields, fm := r.objectFields(value, sub)
	defer r.popFields(fm)
	for i := range fields {
		if !isCell(fields[i].value) {
			return false
		}
		for j := range i {
			if fields[j].key == fields[i].key {
				return false
			}
		}
	}
	for i := range fields {
		r.scratch.cols = append(r.scratch.cols, column{key: key, sub: fields[i].key, filled: true})
	}
	return true
}

// foldWidth returns how many columns the folded member whose first column starts cols has.
func foldWidth(cols []column) int {
	n := 1
	for n < len(cols) && cols[n].sub != "" && cols[n].key == cols[0].key {
		n++
	}
	return n
}

// foldsInto reports whether value is an object with exactly the members of the folded columns
// group, each a cell, in any order.
func foldsInto(value gjson.Result, group []column) bool {
	if !value.IsObject() {
		return false
	}
	var seen uint64
	n := 0
	ok := true
	value.ForEach(func(key, v gjson.Result) bool {
		k := jsonText(key.Str, key.Raw)
		j := slices.IndexFunc(group, func(c column) bool { return c.sub == k })
		if j < 0 || seen&(1<<j) != 0 || !isCell(v) {
			ok = false
			return false
		}
		seen |= 1 << j
		n++
		return true
	})
	return ok && n == len(group)
}

// cRowCells returns the cells of object el in the order of cols, a folded member's from its own
// members, using the scratch cell buffer; the slice is valid until the next call.
func (r *render) cRowCells(el gjson.Result, cols []column) []gjson.Result {
	cells := slices.Grow(r.scratch.cells[:0], len(cols))[:len(cols)]
	clear(cells)
	el.ForEach(func(key, value gjson.Result) bool {
		i := columnIndex(cols, jsonText(key.Str, key.Raw))
		switch {
		case i < 0:
		case cols[i].sub == "":
			cells[i] = value
		default:
			group := cols[i : i+foldWidth(cols[i:])]
			value.ForEach(func(key, v gjson.Result) bool {
				k := jsonText(key.Str, key.Raw)
				if j := slices.IndexFunc(group, func(c column) bool { return c.sub == k }); j >= 0 {
					cells[i+j] = v
				}
				return true
			})
		}
		return true
	})
	r.scratch.cells = cells
	return cells
}

// isCell reports whether v is written as one table cell: a scalar or an empty container.
// cRow writes one row of a compact table at indent: its cells, comma-separated (a list column's
// items, its last, as more cells), and a newline.
func (r *render) cRow(cells []gjson.Result, cols []column, indent int) {
	r.writeCompactIndent(indent)
	rule := atLineStart | commaSeparated
	for i, c := range cells {
		if i > 0 {
			r.b.WriteByte(',')
		}
		if cols[i].list {
			r.cItemsLast(c, commaSeparated, commaSeparated|elementLine)
			break
		}
		if i == len(cells)-1 {
			rule |= elementLine // a row ending with ':' would read as a header
		}
		r.cToken(c, rule)
		rule = commaSeparated
	}
	r.b.WriteByte('\n')
}

func isCell(v gjson.Result) bool { return v.Type != gjson.JSON || isEmpty(v) }

// cRows writes one comma-separated row per element of arr at indent, each followed by the
// element's members that are not columns, one space deeper (cMembers).
func (r *render) cRows(arr gjson.Result, items *Schema, cols []column, nested []hoisted, indent, depth int) {
	members := columnMembers(cols)
	arr.ForEach(func(_, el gjson.Result) bool {
		r.cRow(r.cRowCells(el, cols), cols, indent)
		if count(el) == members {
			return true
		}
		fields, mark := r.objectFields(el, items)
		r.cMembers(fields, cols, nested, indent+1, depth+1)
		r.popFields(mark)
		return true
	})
}

// pairColumns returns how many of cols hold a member that a line of pairs would hold: all but the
// columns of a folded object.
func pairColumns(cols []column) int {
	n := 0
	for i := range cols {
		if cols[i].sub == "" {
			n++
		}
	}
	return n
}

// columnMembers returns how many members of an element the columns cols hold: one per column, but
// one for all the columns of a folded member.
func columnMembers(cols []column) int {
	n := 0
	for i := range cols {
		if cols[i].sub == "" || i == 0 || cols[i-1].key != cols[i].key {
			n++
		}
	}
	return n
}

// hoisted is a nested table whose header a table writes once, in its own header, instead of once
// per row: the rows' members called key that hold a table with these columns.
type hoisted struct {
	key  string
	cols []column
	uses int  // how many rows' members it would shorten
	bad  bool // some row's member of this key is an array written element by element
}

// maxHoisted bounds the keys a table considers hoisting, so that finding one stays cheap.
const maxHoisted = 8

// findHoisted returns the nested table hoisted for key, or nil.
func findHoisted(nested []hoisted, key string) *hoisted {
	for i := range nested {
		if nested[i].key == key {
			return &nested[i]
		}
	}
	return nil
}

// nestedArray reports whether v, a member at depth, is written as an array header and lines
// ("key[N]:" or "key[]{...}:"), which is where a hoisted header applies.
func nestedArray(v gjson.Result, depth int) bool {
	return v.IsArray() && !isEmpty(v) && depth+1 < maxDepth && !scalarArray(v)
}

// cNested returns the nested tables a table of arr at depth, with columns cols, hoists: for a key
// (among the first maxHoisted that hold such an array in some row), when every row's member of
// that key written as an array header is a table, and at least two of them have the same columns
// as the first, those columns. A member whose table has other columns keeps its own header; a key
// with an array that is not a table, or with an object, in some row is not hoisted, since "key:"
// in a row reads as a hoisted table.
func (r *render) cNested(arr gjson.Result, items *Schema, cols []column, depth int) []hoisted {
	var nested []hoisted
	members := columnMembers(cols)
	arr.ForEach(func(_, el gjson.Result) bool {
		if count(el) == members {
			return true
		}
		fields, mark := r.objectFields(el, items)
		for i := range fields {
			f := &fields[i]
			object := f.value.IsObject() && !isEmpty(f.value)
			if !nestedArray(f.value, depth+1) && !object || isColumn(cols, f.key) {
				continue
			}
			h := findHoisted(nested, f.key)
			if h == nil {
				if len(nested) == maxHoisted {
					continue
				}
				nested = append(nested, hoisted{key: f.key})
				h = &nested[len(nested)-1]
			}
			if h.bad {
				continue
			}
			if object { // "key:" in a row would read as the hoisted table's rows
				h.bad = true
				continue
			}
			nc, nm, ok := r.cColumns(f.value, itemsOf(schemaOf(f.prop)))
			switch {
			case !ok:
				h.bad = true
			case h.cols == nil:
				h.cols, h.uses = slices.Clone(nc), 1
			case sameColumns(h.cols, nc):
				h.uses++
			}
			r.popColumns(nm)
		}
		r.popFields(mark)
		return true
	})
	kept := nested[:0]
	for _, h := range nested {
		if !h.bad && h.uses >= 2 {
			kept = append(kept, h)
		}
	}
	return kept
}

// sameColumns reports whether a and b are the same columns (keys, folded members and list) in the
// same order.
func sameColumns(a, b []column) bool {
	return slices.EqualFunc(a, b, func(x, y column) bool { return x.key == y.key && x.sub == y.sub && x.list == y.list })
}

// cHeader writes a compact table header, "{a,b}", with each hoisted table after the columns as its
// key and header: "{a,b,key{c,d}}".
func (r *render) cHeader(cols []column, nested []hoisted) {
	r.b.WriteByte('{')
	for i := range cols {
		if i > 0 {
			r.b.WriteByte(',')
		}
		r.txtString(cols[i].key, keyChars|headerKey)
		if cols[i].sub != "" {
			r.b.WriteByte('.')
			r.txtString(cols[i].sub, keyChars|headerKey)
		}
		if cols[i].list {
			r.b.WriteString("[]")
		}
	}
	for i := range nested {
		r.b.WriteByte(',')
		r.txtString(nested[i].key, keyChars|headerKey)
		r.cHeader(nested[i].cols, nil)
	}
	r.b.WriteByte('}')
}

// cHoistedTable writes f, a row's member at depth, as "key:" and its rows at indent when it is a
// table with the columns cols (hoisted into its parent table's header), and reports whether it did;
// bare, as its rows without "key:". Its rows' members hoist nothing: the header that would list
// them is not written.
func (r *render) cHoistedTable(f *field, cols []column, bare bool, indent, depth int) bool {
	if !nestedArray(f.value, depth) {
		return false
	}
	items := itemsOf(schemaOf(f.prop))
	nc, mark, ok := r.cColumns(f.value, items)
	if !ok {
		return false
	}
	if !sameColumns(nc, cols) {
		r.popColumns(mark)
		return false
	}
	if !bare {
		r.writeCompactIndent(indent)
		r.txtString(f.key, keyRules)
		r.b.WriteString(":\n")
	}
	r.cRows(f.value, items, nc, nil, indent, depth)
	r.popColumns(mark)
	return true
}

// cElements writes every element of arr as a line at indent (an object's other members and an
// array's body one space deeper): the header's count delimits them.
func (r *render) cElements(arr gjson.Result, items *Schema, indent, depth int) {
	i := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		r.writeCompactIndent(indent)
		switch {
		case el.Type != gjson.JSON || isEmpty(el) || depth+1 >= maxDepth:
			r.cToken(el, atLineStart|elementLine)
			r.b.WriteByte('\n')
		case el.IsObject():
			r.cElementObject(el, items, i, indent, depth)
		default:
			r.cArray(el, itemsOf(items), indent, indent+1, depth, false)
		}
		return true
	})
}

// cElementObject writes an object that is an array element: its pair members as pairs on the
// element's line (its index and ':' when it has none, or when moving the pairs first would move a
// repeated key past another member of that key, which changes the value: the last one counts), its
// other members one space deeper.
func (r *render) cElementObject(obj gjson.Result, s *Schema, index, indent, depth int) {
	fields, mark := r.objectFields(obj, s)
	inOrder := repeatsAfterBlock(fields)
	first := atLineStart
	for i := range fields {
		f := &fields[i]
		if inOrder || !pairable(f.value) {
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
		if !inOrder && pairable(f.value) {
			continue
		}
		r.cBlockMember(f, nil, false, indent+1, depth+1)
	}
	r.popFields(mark)
}

// repeatsAfterBlock reports whether a pairable member of fields repeats the key of a member before
// it that is not pairable. Objects with repeated keys are rare: the keys of the members that are
// not pairable are compared one by one while there are a few, then through a map.
func repeatsAfterBlock(fields []field) bool {
	var buf [8]string
	few := buf[:0]
	var many map[string]bool
	for i := range fields {
		k := fields[i].key
		if !pairable(fields[i].value) {
			switch {
			case many != nil:
				many[k] = true
			case len(few) < 8:
				few = append(few, k)
			default:
				many = make(map[string]bool, 2*len(few))
				for _, f := range few {
					many[f] = true
				}
				many[k] = true
			}
			continue
		}
		if many != nil && many[k] || many == nil && slices.Contains(few, k) {
			return true
		}
	}
	return false
}

// cPairs writes the members of a flat object as "key=value" pairs; first holds the quoting rules of
// the first key (atLineStart when it starts the line).
func (r *render) cPairs(obj gjson.Result, s *Schema, first quoteRule) {
	fields, mark := r.objectFields(obj, s)
	for i := range fields {
		if i > 0 {
			r.b.WriteString(pairSeparator)
		}
		r.cPair(&fields[i], first)
		first = 0
	}
	r.popFields(mark)
}

// cPair writes one "key=value" (or "key[]=a,b") pair of a line of pairs.
func (r *render) cPair(f *field, first quoteRule) {
	r.txtString(f.key, keyChars|pairSeparated|first)
	if scalarArray(f.value) {
		r.b.WriteString(listMark)
		r.cItems(f.value, commaSeparated|pairSeparated)
		return
	}
	r.b.WriteByte('=')
	r.cToken(f.value, pairSeparated)
}

// cItems writes the elements of a list of scalars separated by ',', each quoted as rule says.
func (r *render) cItems(arr gjson.Result, rule quoteRule) {
	r.cItemsLast(arr, rule, rule)
}

// cItemsLast is cItems with the last element quoted as last says.
func (r *render) cItemsLast(arr gjson.Result, rule, last quoteRule) {
	n := count(arr)
	i := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		if i > 1 {
			r.b.WriteByte(',')
		}
		if i == n {
			rule = last
		}
		r.cToken(el, rule)
		return true
	})
}

// cToken writes one value as a single token: a string (quoted when rule requires it), a number,
// boolean or null as its JSON text, and a container (empty, or deeper than maxDepth) as its
// minified JSON text.
func (r *render) cToken(v gjson.Result, rule quoteRule) {
	switch v.Type {
	case gjson.JSON:
		r.scratch.buf = appendJSONText(r.scratch.buf[:0], v.Raw)
		r.b.Write(r.scratch.buf)
	case gjson.String:
		r.txtString(jsonText(v.Str, v.Raw), rule)
	default:
		r.b.WriteString(v.Raw)
	}
}

// pairable reports whether v is written as a pair: a scalar, an empty container or a non-empty
// list of scalars.
func pairable(v gjson.Result) bool {
	return v.Type != gjson.JSON || isEmpty(v) || scalarArray(v)
}

// flat reports whether obj has at least one member and every member is pairable: it is then
// written on one line.
func (r *render) flat(obj gjson.Result) bool {
	n := 0
	ok := true
	obj.ForEach(func(_, v gjson.Result) bool {
		n++
		ok = pairable(v)
		return ok
	})
	return ok && n > 0
}

// writeCompactIndent indents by one space per level.
func (r *render) writeCompactIndent(indent int) {
	for ; indent > 0; indent-- {
		r.b.WriteByte(' ')
	}
}

// appendJSONText appends the JSON text raw minified, with the characters text never shows raw
// (control, line separator and bidi characters, see needsEscapeRune) written as \u escapes and
// bytes that are not valid UTF-8 as \ufffd, as a JSON decoder reads them.
func appendJSONText(dst []byte, raw string) []byte {
	const hex = "0123456789abcdef"
	start := len(dst)
	dst = appendMinified(dst, raw)
	clean := true
	for i := start; i < len(dst); i++ {
		if c := dst[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return dst
	}
	min := string(dst[start:])
	dst = dst[:start]
	for i := 0; i < len(min); {
		c, size := utf8.DecodeRuneInString(min[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case needsEscapeRune(c):
			dst = append(dst, '\\', 'u')
			for shift := 12; shift >= 0; shift -= 4 {
				dst = append(dst, hex[c>>shift&0xf])
			}
		default:
			dst = append(dst, min[i:i+size]...)
		}
		i += size
	}
	return dst
}

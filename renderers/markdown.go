package renderers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// maxSectionLevel is the deepest heading level a nested object gets; deeper objects are nested
// lists.
const maxSectionLevel = 4

// Markdown renders value as markdown for people. An object becomes a list of "- **Label:** value"
// items (plain "- Label: value" at compact) followed by a "## Label" section per nested object or
// array; a uniform array of objects becomes a GFM table; an array of scalars a comma-separated list;
// any other array a list with one item per element, an object element written as its scalar
// fields on one line ("**A:** 1; **B:** x") with its nested fields as sub-items. The label of a
// property the schema declares is its title, else its name made readable
// ("precipitation_probability" gives "Precipitation probability"); other keys are data and are
// shown as they are. Units (Options.Units, else the schema's "unit") follow values and head table
// columns; a schema fraction is shown as a percentage.
// Every string from the data, keys included, is escaped with EscapeMarkdown. Compact drops null and
// empty fields (and table columns); verbose adds schema descriptions after " — " and element
// counts in headings.
func (Generic) Markdown(value []byte, opts Options) (string, error) {
	if err := validate(value); err != nil {
		return "", fmt.Errorf("renderers: markdown: %w", err)
	}
	var r render
	r.init(opts, len(value))
	r.markdown(gjson.Parse(string(value)))
	return r.finish(), nil
}

func (r *render) markdown(v gjson.Result) {
	if t := r.title(); t != "" {
		r.b.WriteString("# ")
		writeEscaped(&r.b, collapseSpace(t))
		r.b.WriteByte('\n')
	}
	if s := r.opts.Schema; r.verbose() && s != nil && s.Description != "" {
		r.mdParagraph(collapseSpace(s.Description))
	}
	start := r.b.Len()
	switch {
	case v.IsObject():
		r.mdSection(v, r.opts.Schema, 2, 0)
	case v.IsArray() && !isEmpty(v) && !scalarArray(v):
		r.mdArrayBlock(v, itemsOf(r.opts.Schema), 0)
	default:
		r.blockBreak()
		r.mdInlineValue(v, 0)
		r.b.WriteByte('\n')
	}
	if r.b.Len() == start { // nothing left, e.g. compact of an object holding only empty fields
		r.blockBreak()
		r.writeEmpty(v)
		r.b.WriteByte('\n')
	}
}

// blockBreak ends the current block with a blank line unless the output is empty or already ends
// with one.
func (r *render) blockBreak() {
	out := r.b.String()
	if out != "" && !strings.HasSuffix(out, "\n\n") {
		r.b.WriteByte('\n')
	}
}

// mdSection writes an object as the body of a section at heading level: its inline fields as a
// list, then a section per container field (a nested list below maxSectionLevel).
func (r *render) mdSection(obj gjson.Result, s *Schema, level, depth int) {
	fields, mark := r.objectFields(obj, s)
	listed := false
	for i := range fields {
		f := &fields[i]
		if !r.mdInline(f.value, depth) || r.compact() && isEmpty(f.value) {
			continue
		}
		if !listed {
			r.blockBreak()
			listed = true
		}
		r.mdMember(f, "", depth)
	}
	for i := range fields {
		f := &fields[i]
		if r.mdInline(f.value, depth) || r.compact() && isEmpty(f.value) {
			continue
		}
		r.mdHeading(level, f)
		if d := r.description(f.prop); d != "" {
			r.mdParagraph(collapseSpace(d))
		}
		switch {
		case f.value.IsArray():
			r.mdArrayBlock(f.value, itemsOf(schemaOf(f.prop)), depth+1)
		case level < maxSectionLevel:
			r.mdSection(f.value, schemaOf(f.prop), level+1, depth+1)
		default:
			r.blockBreak()
			r.mdObjectList(f.value, schemaOf(f.prop), "", depth+1)
		}
	}
	r.popFields(mark)
}

// mdInline reports whether v is written on its field's line: scalars, empty containers, arrays of
// scalars, and containers too deep to descend into.
func (r *render) mdInline(v gjson.Result, depth int) bool {
	return v.Type != gjson.JSON || depth+1 >= maxDepth || isEmpty(v) || scalarArray(v)
}

// mdArrayBlock writes a non-empty array that is not a list of scalars as a block: a table when it
// is a uniform array of objects, else a list with an item per element.
func (r *render) mdArrayBlock(arr gjson.Result, items *Schema, depth int) {
	if cols, mark, ok := r.tableColumns(arr, items); ok {
		r.mdTable(arr, cols)
		r.popColumns(mark)
		return
	}
	r.blockBreak()
	r.mdElements(arr, items, "", depth)
}

// mdElements writes one list item per element of arr, indented by ind: a record (an object) as
// its inline fields on one line and its other fields as sub-items; a nested array as "Item N" over
// its own items; anything else inline.
func (r *render) mdElements(arr gjson.Result, items *Schema, ind string, depth int) {
	i := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		r.b.WriteString(ind)
		r.b.WriteString("- ")
		switch {
		case r.mdInline(el, depth):
			r.mdInlineValue(el, depth)
			r.b.WriteByte('\n')
		case el.IsObject():
			r.mdRecord(el, items, ind, i, depth+1)
		default:
			r.mdItemNumber(i)
			r.b.WriteByte('\n')
			r.mdElements(el, itemsOf(items), ind+"  ", depth+1)
		}
		return true
	})
}

// mdItemNumber writes "Item N", the text of a list item that has only sub-items.
func (r *render) mdItemNumber(i int) {
	r.b.WriteString("Item ")
	r.b.WriteString(strconv.Itoa(i))
}

// mdRecord writes an object that is a list item: its inline fields on the item's line, separated
// by "; " ("Item N" when it has none), and its container fields as sub-items.
func (r *render) mdRecord(obj gjson.Result, s *Schema, ind string, index, depth int) {
	fields, mark := r.objectFields(obj, s)
	if !r.mdPairs(fields, depth, !r.compact()) {
		r.mdItemNumber(index)
	}
	r.b.WriteByte('\n')
	for i := range fields {
		f := &fields[i]
		if r.mdInline(f.value, depth) || r.compact() && isEmpty(f.value) {
			continue
		}
		r.mdMember(f, ind+"  ", depth)
	}
	r.popFields(mark)
}

// mdPairs writes the inline fields among fields as "Label: value" pairs separated by "; ", the
// labels bold when bold is set, and reports whether it wrote any.
func (r *render) mdPairs(fields []field, depth int, bold bool) bool {
	wrote := false
	for i := range fields {
		f := &fields[i]
		if !r.mdInline(f.value, depth) || r.compact() && isEmpty(f.value) {
			continue
		}
		if wrote {
			r.b.WriteString("; ")
		}
		wrote = true
		if bold {
			r.b.WriteString("**")
		}
		r.mdLabel(f.key, f.prop)
		r.b.WriteByte(':')
		if bold {
			r.b.WriteString("**")
		}
		r.b.WriteByte(' ')
		r.mdFieldValue(f, depth)
	}
	return wrote
}

// mdMember writes one field as a list item indented by ind: "- **Label:** value" for an inline
// value or an object of inline fields (written as pairs), else "- **Label:**" over sub-items.
func (r *render) mdMember(f *field, ind string, depth int) {
	bold := "**"
	if r.compact() {
		bold = ""
	}
	r.b.WriteString(ind)
	r.b.WriteString("- ")
	r.b.WriteString(bold)
	r.mdLabel(f.key, f.prop)
	r.b.WriteByte(':')
	r.b.WriteString(bold)
	switch {
	case r.mdInline(f.value, depth):
		r.b.WriteByte(' ')
		r.mdFieldValue(f, depth)
		r.mdDescription(f.prop)
		r.b.WriteByte('\n')
	case f.value.IsObject() && r.mdFlat(f.value, depth+1):
		r.b.WriteByte(' ')
		fields, mark := r.objectFields(f.value, schemaOf(f.prop))
		r.mdPairs(fields, depth+1, false)
		r.popFields(mark)
		r.mdDescription(f.prop)
		r.b.WriteByte('\n')
	case f.value.IsObject():
		r.mdDescription(f.prop)
		r.b.WriteByte('\n')
		r.mdObjectList(f.value, schemaOf(f.prop), ind+"  ", depth+1)
	default:
		r.mdDescription(f.prop)
		r.b.WriteByte('\n')
		r.mdElements(f.value, itemsOf(schemaOf(f.prop)), ind+"  ", depth+1)
	}
}

// mdObjectList writes the fields of obj as list items indented by ind.
func (r *render) mdObjectList(obj gjson.Result, s *Schema, ind string, depth int) {
	fields, mark := r.objectFields(obj, s)
	for i := range fields {
		f := &fields[i]
		if r.compact() && isEmpty(f.value) {
			continue
		}
		r.mdMember(f, ind, depth)
	}
	r.popFields(mark)
}

// mdFlat reports whether obj has an inline field and only inline fields (empty ones, which
// compact drops, aside).
func (r *render) mdFlat(obj gjson.Result, depth int) bool {
	n := 0
	ok := true
	obj.ForEach(func(_, v gjson.Result) bool {
		if r.compact() && isEmpty(v) {
			return true
		}
		n++
		ok = r.mdInline(v, depth)
		return ok
	})
	return ok && n > 0
}

// mdFieldValue writes an inline field value: a scalar with its unit or as a percentage, or a list.
func (r *render) mdFieldValue(f *field, depth int) {
	if f.value.Type == gjson.JSON {
		r.mdInlineValue(f.value, depth)
		if u := r.mdUnit(f.key, f.prop); u != "" && scalarArray(f.value) {
			r.b.WriteByte(' ')
			writeEscaped(&r.b, u)
		}
		return
	}
	r.mdValue(f.key, f.prop, f.value, true)
}

// mdDescription writes " — description" at verbose.
func (r *render) mdDescription(p *Property) {
	if d := r.description(p); d != "" {
		r.b.WriteString(" — ")
		writeEscaped(&r.b, collapseSpace(d))
	}
}

// mdInlineValue writes a value on one line: a scalar, "{}" or "[]", a list of scalars, or (for a
// container too deep to descend into) its escaped minified JSON.
func (r *render) mdInlineValue(v gjson.Result, depth int) {
	switch {
	case v.Type != gjson.JSON:
		r.mdScalar(v)
	case isEmpty(v):
		r.writeEmpty(v)
	case scalarArray(v) && depth+1 < maxDepth:
		r.mdList(v)
	default:
		r.mdMinified(v)
	}
}

func (r *render) mdKey(key string) {
	if key == "" {
		r.b.WriteString(`""`)
		return
	}
	writeEscaped(&r.b, key)
}

// mdScalar writes a string escaped, and a number, boolean or null as its JSON text.
func (r *render) mdScalar(v gjson.Result) {
	if v.Type != gjson.String {
		r.b.WriteString(v.Raw)
		return
	}
	if v.Str == "" {
		r.b.WriteString(`""`)
		return
	}
	writeEscaped(&r.b, v.Str)
}

// mdList writes an array of scalars as a comma-separated list; a string that is empty or holds a
// comma is put in double quotes so the list stays unambiguous.
func (r *render) mdList(arr gjson.Result) {
	first := true
	arr.ForEach(func(_, el gjson.Result) bool {
		if !first {
			r.b.WriteString(", ")
		}
		first = false
		if el.Type == gjson.String && (el.Str == "" || strings.IndexByte(el.Str, ',') >= 0) {
			r.b.WriteByte('"')
			writeEscaped(&r.b, el.Str)
			r.b.WriteByte('"')
			return true
		}
		r.mdScalar(el)
		return true
	})
}

// mdMinified writes a container as its minified JSON text, escaped.
func (r *render) mdMinified(v gjson.Result) {
	r.scratch.buf = appendMinified(r.scratch.buf[:0], v.Raw)
	writeEscaped(&r.b, string(r.scratch.buf))
}

func (r *render) mdParagraph(text string) {
	r.blockBreak()
	writeEscaped(&r.b, text)
	r.b.WriteByte('\n')
}

// mdHeading writes the heading of field f's section; at verbose an array's element count follows.
func (r *render) mdHeading(level int, f *field) {
	r.blockBreak()
	r.b.WriteString("######"[:min(level, 6)])
	r.b.WriteByte(' ')
	r.mdLabel(f.key, f.prop)
	if r.verbose() && f.value.IsArray() {
		r.b.WriteString(" (")
		r.b.WriteString(strconv.Itoa(count(f.value)))
		r.b.WriteByte(')')
	}
	r.b.WriteByte('\n')
}

package renderers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// maxSectionLevel is the deepest heading level a nested object or table gets; containers below it
// are written inline (as escaped minified JSON), leaving level 6 for the elements of a numbered array.
const maxSectionLevel = 5

// Markdown renders value as markdown. An object becomes a "- **key:** value" list (plain "- key:
// value" at compact) followed by a "## key" section per nested object or array; a uniform array of
// objects becomes a GFM table, an array of scalars a comma-separated list, any other array a
// heading with numbered subsections ("### 1", "### 2"). Every string from the data, keys included,
// is escaped with EscapeMarkdown. Compact drops null and empty fields (and table columns); verbose
// adds schema descriptions after " — ", units after values and in table headers, and element counts
// in array headings.
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
		r.mdObject(v, r.opts.Schema, 2, 0)
	case v.IsArray() && !isEmpty(v) && !scalarArray(v):
		r.mdArray(v, itemsOf(r.opts.Schema), 2, 0)
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

func (r *render) mdObject(obj gjson.Result, s *Schema, level, depth int) {
	fields, mark := r.objectFields(obj, s)
	listed := false
	for i := range fields {
		f := &fields[i]
		if !r.mdInline(f.value, level, depth) || r.compact() && isEmpty(f.value) {
			continue
		}
		if !listed {
			r.blockBreak()
			listed = true
		}
		r.mdItem(f, depth)
	}
	for i := range fields {
		f := &fields[i]
		if r.mdInline(f.value, level, depth) {
			continue
		}
		r.mdHeading(level, f.key, 0, f.value)
		if d := r.description(f.prop); d != "" {
			r.mdParagraph(collapseSpace(d))
		}
		if f.value.IsObject() {
			r.mdObject(f.value, schemaOf(f.prop), level+1, depth+1)
		} else {
			r.mdArray(f.value, itemsOf(schemaOf(f.prop)), level+1, depth+1)
		}
	}
	r.popFields(mark)
}

// mdInline reports whether v is written on its field's list line: scalars, empty containers,
// arrays of scalars, and containers too deep for a section.
func (r *render) mdInline(v gjson.Result, level, depth int) bool {
	return v.Type != gjson.JSON || level > maxSectionLevel || depth+1 >= maxDepth || isEmpty(v) ||
		scalarArray(v)
}

// mdItem writes one "- **key:** value" line.
func (r *render) mdItem(f *field, depth int) {
	bold := "**"
	if r.compact() {
		bold = ""
	}
	r.b.WriteString("- ")
	r.b.WriteString(bold)
	r.mdKey(f.key)
	r.b.WriteByte(':')
	r.b.WriteString(bold)
	r.b.WriteByte(' ')
	r.mdInlineValue(f.value, depth)
	if u := r.unit(f.key); u != "" && f.value.Type != gjson.Null {
		r.b.WriteByte(' ')
		writeEscaped(&r.b, u)
	}
	if d := r.description(f.prop); d != "" {
		r.b.WriteString(" — ")
		writeEscaped(&r.b, collapseSpace(d))
	}
	r.b.WriteByte('\n')
}

// mdInlineValue writes a value on one line: a scalar, "{}" or "[]", a list of scalars, or (for a
// container too deep for sections) its escaped minified JSON.
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

// mdHeading writes a heading: the escaped label, then the element index when index > 0, then at
// verbose the element count when v is an array.
func (r *render) mdHeading(level int, label string, index int, v gjson.Result) {
	r.blockBreak()
	r.b.WriteString("######"[:min(level, 6)])
	r.b.WriteByte(' ')
	switch {
	case label != "":
		writeEscaped(&r.b, label)
	case index == 0:
		r.b.WriteString(`""`)
	}
	if index > 0 {
		if label != "" {
			r.b.WriteByte(' ')
		}
		r.b.WriteString(strconv.Itoa(index))
	}
	if r.verbose() && v.IsArray() {
		r.b.WriteString(" (")
		r.b.WriteString(strconv.Itoa(count(v)))
		r.b.WriteByte(')')
	}
	r.b.WriteByte('\n')
}

// mdArray writes the body of a non-empty array that is not a list of scalars: a table when it is a
// uniform array of objects, else one numbered section per element at level.
func (r *render) mdArray(arr gjson.Result, items *Schema, level, depth int) {
	if cols, mark, ok := r.tableColumns(arr, items); ok {
		r.mdTable(arr, cols)
		r.popColumns(mark)
		return
	}
	i := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		r.mdHeading(level, "", i, gjson.Result{})
		switch {
		case el.IsObject() && !isEmpty(el) && depth+1 < maxDepth:
			r.mdObject(el, items, level+1, depth+1)
		case el.IsArray() && !isEmpty(el) && !scalarArray(el) && level < 6 && depth+1 < maxDepth:
			r.mdArray(el, itemsOf(items), level+1, depth+1)
		default:
			r.blockBreak()
			r.mdInlineValue(el, depth)
			r.b.WriteByte('\n')
		}
		return true
	})
}

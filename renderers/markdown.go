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
// array; a uniform array of objects becomes a GFM table, at any depth; an array of scalars a
// comma-separated list; any other array a list with one item per element, an object element
// written as a record: its scalar fields one per line ("**A:** 1" hard line breaks between), then
// each nested field under its label (a table, or a nested list). Text that holds line breaks keeps
// them (hard line breaks). Null reads "none", an empty array "empty list", an empty object "empty
// object" and an empty string `""`.
// The label of a property the schema declares is its title, else its name made readable
// ("precipitation_probability" gives "Precipitation probability"); a key the schema does not
// declare is made readable too when every key of its object reads as a property name
// ("entityType" gives "Entity type"), else it is data and shown as it is. Units (Options.Units,
// else the schema's "unit") follow values and head table columns; a schema fraction is shown as a
// percentage. Every string from the data, keys included, is escaped with EscapeMarkdown. Compact
// drops null and empty fields (and table columns); verbose adds schema descriptions after " — "
// and element counts in headings.
func (Generic) markdown(value []byte, opts Options) (string, error) {
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
	case v.IsObject() && !isEmpty(v):
		r.mdSection(v, r.opts.Schema, 2, 0)
	case v.IsArray() && !isEmpty(v) && !scalarArray(v):
		r.mdArrayBlock(v, itemsOf(r.opts.Schema), "", 0)
	default:
		r.blockBreak()
		r.mdInlineValue(v, "", 0)
		r.mdEndLine()
	}
	if r.b.Len() == start { // nothing left, e.g. compact of an object holding only empty fields
		r.blockBreak()
		r.b.WriteString(none)
		r.b.WriteByte('\n')
	}
}

// What markdown shows for null and for an empty array or object (the empty string is `""`), and
// for a record or section left with nothing to show. A string that reads as one of them is quoted.
const (
	none        = "none"
	emptyList   = "empty list"
	emptyObject = "empty object"
)

// readsEmpty reports whether s, written as it is, would read as an empty value.
func readsEmpty(s string) bool { return s == none || s == emptyList || s == emptyObject }

// writeEmptyWords writes what markdown shows for v, an empty array or object.
func (r *render) writeEmptyWords(v gjson.Result) {
	if v.IsArray() {
		r.b.WriteString(emptyList)
		return
	}
	r.b.WriteString(emptyObject)
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
	names := namesOnly(fields)
	listed := false
	for i := range fields {
		f := &fields[i]
		if !r.mdInline(f.value, depth) || r.skip(f.value) {
			continue
		}
		if !listed {
			r.blockBreak()
			listed = true
		}
		r.mdMember(f, names, "", depth)
	}
	for i := range fields {
		f := &fields[i]
		if r.mdInline(f.value, depth) || r.skip(f.value) {
			continue
		}
		r.mdHeading(level, f, names)
		if d := r.description(f.prop); d != "" {
			r.mdParagraph(collapseSpace(d))
		}
		switch {
		case f.value.IsArray():
			r.mdArrayBlock(f.value, itemsOf(schemaOf(f.prop)), "", depth+1)
		case level < maxSectionLevel:
			r.mdSection(f.value, schemaOf(f.prop), level+1, depth+1)
		default:
			r.blockBreak()
			r.mdObjectList(f.value, schemaOf(f.prop), "", depth+1)
		}
	}
	r.popFields(mark)
}

// skip reports whether a field holding v is left out: compact drops empty values.
func (r *render) skip(v gjson.Result) bool {
	return r.compact() && isEmpty(v)
}

// mdInline reports whether v is written on its field's line: scalars, empty containers, arrays of
// scalars, and containers too deep to descend into.
func (r *render) mdInline(v gjson.Result, depth int) bool {
	return v.Type != gjson.JSON || depth+1 >= maxDepth || isEmpty(v) || scalarArray(v)
}

// mdArrayBlock writes a non-empty array that is not a list of scalars as a block indented by ind:
// a table when it is a uniform array of objects whose cells are short lines (mdTableColumns), else
// a list with an item per element.
func (r *render) mdArrayBlock(arr gjson.Result, items *Schema, ind string, depth int) {
	if cols, mark, ok := r.mdTableColumns(arr, items); ok {
		r.mdTable(arr, cols, ind)
		r.popColumns(mark)
		return
	}
	r.blockBreak()
	r.mdElements(arr, items, ind, depth)
}

// mdElements writes one list item per element of arr, indented by ind: a record (an object) as
// its fields (mdRecord); a nested array as "Item N" over its own elements, so that each level of
// nesting is a level of the list; anything else inline. When every element is an array (rows of
// a matrix), an array of scalars is written inline, "1, 2": no element can then be read as a
// scalar.
func (r *render) mdElements(arr gjson.Result, items *Schema, ind string, depth int) {
	rows := true
	arr.ForEach(func(_, el gjson.Result) bool {
		rows = el.IsArray()
		return rows
	})
	i := 0
	sub := ind + "  "
	quiet := r.mdQuiet
	defer func() { r.mdQuiet = quiet }()
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		r.mdQuiet = quiet || i > 1 // descriptions once, with the first element
		r.b.WriteString(ind)
		r.b.WriteString("- ")
		switch {
		case el.IsObject() && !isEmpty(el) && depth+1 < maxDepth:
			r.mdRecord(el, items, sub, depth+1)
		case el.IsArray() && !isEmpty(el) && depth+1 < maxDepth && !(rows && scalarArray(el)):
			r.b.WriteString("Item ")
			r.b.WriteString(strconv.Itoa(i))
			if cols, mark, ok := r.mdTableColumns(el, itemsOf(items)); ok {
				r.b.WriteString("\n\n")
				r.mdTable(el, cols, sub)
				r.popColumns(mark)
				break
			}
			r.b.WriteByte('\n')
			r.mdElements(el, itemsOf(items), sub, depth+1)
		default:
			r.mdInlineValue(el, sub, depth)
			r.mdEndLine()
		}
		return true
	})
}

// mdRecord writes the fields of obj as the body of a list item whose content is indented by ind
// (the item's marker is written): its inline fields one per line, hard line breaks between, then
// each container field under its label, a table or a nested list. A record with no field to show
// (compact drops empty ones) reads "none".
func (r *render) mdRecord(obj gjson.Result, s *Schema, ind string, depth int) {
	fields, mark := r.objectFields(obj, s)
	names := namesOnly(fields)
	lines := 0 // lines written in the item's current paragraph
	for i := range fields {
		f := &fields[i]
		if !r.mdInline(f.value, depth) || r.skip(f.value) {
			continue
		}
		if lines > 0 {
			r.mdNextLine(ind)
		}
		lines++
		r.mdLabelled(f, names, ind, depth)
	}
	blocks := 0 // container fields written
	for i := range fields {
		f := &fields[i]
		if r.mdInline(f.value, depth) || r.skip(f.value) {
			continue
		}
		switch {
		case lines > 0 && blocks == 0:
			r.mdNextLine(ind)
		case blocks > 0:
			// A blank line ends the previous block: a label written right after a nested list
			// would continue its last item's paragraph.
			r.b.WriteString("\n")
			r.b.WriteString(ind)
		}
		blocks++
		r.mdContainer(f, names, ind, depth)
	}
	if lines == 0 && blocks == 0 {
		r.b.WriteString(none)
	}
	if blocks == 0 && !r.mdBlockEnd {
		r.b.WriteByte('\n')
	}
	r.mdBlockEnd = false
	r.popFields(mark)
}

// mdEndLine ends the current line, unless a code block has ended it.
func (r *render) mdEndLine() {
	if !r.mdBlockEnd {
		r.b.WriteByte('\n')
	}
	r.mdBlockEnd = false
}

// mdNextLine starts the next line of a record, indented by ind: after a hard line break, or after
// a code block, which has ended its line.
func (r *render) mdNextLine(ind string) {
	if !r.mdBlockEnd {
		r.b.WriteString("\\")
		r.b.WriteByte('\n')
	}
	r.mdBlockEnd = false
	r.b.WriteString(ind)
}

// mdContainer writes a container field as a bold label and, below it, its value indented by ind: a
// table (after a blank line), or a nested list of its elements or fields. The label is written
// where the caller left off.
func (r *render) mdContainer(f *field, names bool, ind string, depth int) {
	r.mdBoldLabel(f, names)
	r.mdDescription(f.prop)
	if f.value.IsArray() {
		if cols, mark, ok := r.mdTableColumns(f.value, itemsOf(schemaOf(f.prop))); ok {
			r.b.WriteString("\n\n")
			r.mdTable(f.value, cols, ind)
			r.popColumns(mark)
			return
		}
		r.b.WriteByte('\n')
		r.mdElements(f.value, itemsOf(schemaOf(f.prop)), ind, depth+1)
		return
	}
	r.b.WriteByte('\n')
	r.mdObjectList(f.value, schemaOf(f.prop), ind, depth+1)
}

// mdMember writes one field as a list item indented by ind: "- **Label:** value" for an inline
// value, else "- **Label:**" over its value (mdContainer).
func (r *render) mdMember(f *field, names bool, ind string, depth int) {
	r.b.WriteString(ind)
	r.b.WriteString("- ")
	if r.mdInline(f.value, depth) {
		r.mdLabelled(f, names, ind+"  ", depth)
		r.mdEndLine()
		return
	}
	r.mdContainer(f, names, ind+"  ", depth)
}

// mdLabelled writes an inline field as "**Label:** value" (no bold at compact), with its
// description at verbose; text with line breaks continues on lines indented by ind.
func (r *render) mdLabelled(f *field, names bool, ind string, depth int) {
	r.mdBoldLabel(f, names)
	if f.value.Type != gjson.String || !r.mdCode(f.value.Str) {
		r.b.WriteByte(' ')
	}
	r.mdFieldValue(f, ind, depth)
	if r.mdBlockEnd && r.description(f.prop) != "" && !r.mdQuiet {
		r.b.WriteString(ind) // a paragraph below the code block
		r.mdDescription(f.prop)
		r.b.WriteByte('\n')
	} else {
		r.mdDescription(f.prop)
	}
}

// mdBoldLabel writes "**Label:**" (at compact "Label:").
func (r *render) mdBoldLabel(f *field, names bool) {
	bold := !r.compact()
	if bold {
		r.b.WriteString("**")
	}
	r.mdLabel(f.key, f.prop, names)
	r.b.WriteByte(':')
	if bold {
		r.b.WriteString("**")
	}
}

// mdObjectList writes the fields of obj as list items indented by ind.
func (r *render) mdObjectList(obj gjson.Result, s *Schema, ind string, depth int) {
	fields, mark := r.objectFields(obj, s)
	names := namesOnly(fields)
	wrote := false
	for i := range fields {
		f := &fields[i]
		if r.skip(f.value) {
			continue
		}
		wrote = true
		r.mdMember(f, names, ind, depth)
	}
	if !wrote {
		r.b.WriteString(ind)
		r.b.WriteString("- ")
		r.b.WriteString(none)
		r.b.WriteByte('\n')
	}
	r.popFields(mark)
}

// mdFieldValue writes an inline field value: a scalar with its unit or as a percentage, or a list.
// Text with line breaks continues on lines indented by ind.
func (r *render) mdFieldValue(f *field, ind string, depth int) {
	if f.value.Type == gjson.JSON {
		r.mdInlineValue(f.value, ind, depth)
		if u := r.mdUnit(f.key, f.prop); u != "" && scalarArray(f.value) {
			r.b.WriteByte(' ')
			writeEscaped(&r.b, u)
		}
		return
	}
	r.mdValue(f.key, f.prop, f.value, true, ind)
}

// mdDescription writes " — description" at verbose (once per array: not for the elements after
// the first).
func (r *render) mdDescription(p *Property) {
	if d := r.description(p); d != "" && !r.mdQuiet {
		r.b.WriteString(" — ")
		writeEscaped(&r.b, collapseSpace(d))
	}
}

// mdInlineValue writes a value within a paragraph: a scalar, "empty list" or "empty object", a
// list of scalars, or (for a container too deep to descend into) its escaped minified JSON. Text
// with line breaks continues on lines indented by ind.
func (r *render) mdInlineValue(v gjson.Result, ind string, depth int) {
	switch {
	case v.Type != gjson.JSON:
		r.mdScalar(v, ind)
	case isEmpty(v):
		r.writeEmptyWords(v)
	case scalarArray(v) && depth+1 < maxDepth:
		r.mdList(v, ind)
	default:
		r.mdMinified(v)
	}
}

// mdKey writes a key shown as it is: escaped, `""` when empty.
func (r *render) mdKey(key string) {
	if key == "" {
		r.b.WriteString(`""`)
		return
	}
	writeEscaped(&r.b, key)
}

// mdScalar writes a string as text (mdText), null as "none", and a number or boolean as its JSON
// text. The empty string is `""`, and a string that reads "none", "empty list" or "empty object"
// is quoted so it cannot be taken for an empty value.
func (r *render) mdScalar(v gjson.Result, ind string) {
	switch {
	case v.Type == gjson.Null:
		r.b.WriteString(none)
	case v.Type != gjson.String:
		r.b.WriteString(v.Raw)
	case v.Str == "":
		r.b.WriteString(`""`)
	case readsEmpty(v.Str):
		r.b.WriteByte('"')
		r.b.WriteString(v.Str)
		r.b.WriteByte('"')
	default:
		r.mdText(v.Str, ind)
	}
}

// mdText writes s escaped; its line breaks become hard line breaks ("\" at the end of a line),
// the next line indented by ind. Line breaks and white space at either end of s, which markdown
// would drop, stay character references, as does the leading white space of a line; each line is
// escaped on its own, so it cannot start block syntax, and a backslash that ends it cannot merge
// with the hard break. Preformatted text (preformatted) is a fenced code block instead, which
// keeps its white space as it is.
func (r *render) mdText(s string, ind string) {
	if strings.IndexByte(s, '\n') < 0 {
		writeEscaped(&r.b, s)
		return
	}
	s = validText(s)
	if r.mdCode(s) {
		r.mdCodeBlock(s, ind)
		return
	}
	lead, trail := spaceEdges(s)
	writeEscaped(&r.b, s[:lead])
	body := s[lead:trail]
	for {
		line, rest, more := strings.Cut(body, "\n")
		if !more {
			writeEscaped(&r.b, line)
			break
		}
		// Spaces and tabs that end a line are written as they are: the "\" of the hard break
		// follows them, so markdown keeps them. A line of white space only would start the next
		// line, where markdown drops it.
		if t := strings.TrimRight(line, " \t"); t != "" {
			writeEscaped(&r.b, t)
			r.b.WriteString(line[len(t):])
		} else {
			writeEscaped(&r.b, line)
		}
		r.b.WriteString("\\\n")
		r.b.WriteString(ind)
		body = rest
	}
	writeEscaped(&r.b, s[trail:])
}

// mdCode reports whether mdText writes s as a code block.
func (r *render) mdCode(s string) bool {
	return !r.mdInList && strings.IndexByte(s, '\n') >= 0 && preformatted(validText(s))
}

// preformatted reports whether text s, which holds a line break, is laid out with white space
// that a paragraph would collapse or strip (a line indented, a tab, a run of three spaces: code,
// aligned columns) and can be a code block: no control character other than line feed and tab,
// since a code block shows its text as it is, with no character references.
func preformatted(s string) bool {
	laidOut := s[0] == ' ' || s[0] == '\t'
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			laidOut = laidOut || i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t')
		case c == '\t':
			laidOut = true
		case c < ' ' || c == 0x7f || isC1(s, i):
			return false
		case c == ' ' && strings.HasPrefix(s[i:], "   "):
			laidOut = true
		}
	}
	return laidOut
}

// mdCodeBlock writes s as a fenced code block whose lines are indented by ind, on the lines after
// the current one (unless a list item has just been opened), and ends the line after it. The fence
// is longer than any run of backticks in s, so s cannot close it.
func (r *render) mdCodeBlock(s, ind string) {
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	fence := strings.Repeat("`", max(3, longest+1))
	if out := r.b.String(); out != "" && !strings.HasSuffix(out, "- ") && !strings.HasSuffix(out, "\n") {
		r.b.WriteByte('\n')
		r.b.WriteString(ind)
	}
	r.b.WriteString(fence)
	r.b.WriteByte('\n')
	for line := range strings.SplitSeq(s, "\n") {
		r.b.WriteString(ind)
		r.b.WriteString(line)
		r.b.WriteByte('\n')
	}
	r.b.WriteString(ind)
	r.b.WriteString(fence)
	r.b.WriteByte('\n')
	r.mdBlockEnd = true
}

// mdList writes an array of scalars as a comma-separated list; a string that is empty, holds a
// comma or reads "none" is put in double quotes so the list stays unambiguous.
func (r *render) mdList(arr gjson.Result, ind string) {
	r.mdInList = true
	defer func() { r.mdInList = false }()
	first := true
	arr.ForEach(func(_, el gjson.Result) bool {
		if !first {
			r.b.WriteString(", ")
		}
		first = false
		if el.Type == gjson.String && strings.IndexByte(el.Str, ',') >= 0 {
			r.b.WriteByte('"')
			r.mdText(el.Str, ind)
			r.b.WriteByte('"')
			return true
		}
		r.mdScalar(el, ind)
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
func (r *render) mdHeading(level int, f *field, names bool) {
	r.blockBreak()
	r.b.WriteString("######"[:min(level, 6)])
	r.b.WriteByte(' ')
	r.mdLabel(f.key, f.prop, names)
	if r.verbose() && f.value.IsArray() {
		r.b.WriteString(" (")
		r.b.WriteString(strconv.Itoa(count(f.value)))
		r.b.WriteByte(')')
	}
	r.b.WriteByte('\n')
}

package renderers

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/tidwall/gjson"
)

// maxCellWidth is the widest text, in display columns, that a markdown table cell holds; a record
// with longer text is a labelled list, where the text can wrap as a paragraph.
const maxCellWidth = 120

// mdTableColumns returns the columns of arr as a markdown table (tableColumns) when every cell
// is one short line that escapes without a character reference (a table cell has no plain way to
// hold a line break or edge white space); otherwise ok is false and arr is a list of records.
func (r *render) mdTableColumns(arr gjson.Result, items *Schema) (cols []column, mark int, ok bool) {
	cols, mark, ok = r.tableColumns(arr, items)
	if !ok {
		return cols, mark, ok
	}
	arr.ForEach(func(_, el gjson.Result) bool {
		el.ForEach(func(_, v gjson.Result) bool {
			ok = v.Type != gjson.String || cellFits(v.Str)
			return ok
		})
		return ok
	})
	if !ok {
		r.popColumns(mark)
		return nil, mark, false
	}
	return cols, mark, true
}

// cellFits reports whether s reads well in a table cell: at most maxCellWidth display columns,
// and nothing that EscapeMarkdown writes as a character reference (line breaks, control
// characters, white space at either end, a trailing run of backslashes; one is written escaped).
func cellFits(s string) bool {
	if len(s) > 4*maxCellWidth || strings.HasSuffix(s, `\\`) {
		return false // one trailing backslash is written escaped (mdCell), two would need a reference
	}
	s = validText(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f || isC1(s, i) {
			return false
		}
	}
	if s != "" {
		first, _ := utf8.DecodeRuneInString(s)
		last, _ := utf8.DecodeLastRuneInString(s)
		if unicode.IsSpace(first) || unicode.IsSpace(last) {
			return false
		}
	}
	return uniseg.StringWidth(s) <= maxCellWidth
}

// mdTable writes a GFM table, each line indented by ind; compact drops columns that are empty in
// every row and pads nothing.
func (r *render) mdTable(arr gjson.Result, cols []column, ind string) {
	pad, rule := " ", " --- |"
	if r.compact() {
		pad, rule = "", "-|"
	}
	names := columnNames(cols)
	r.blockBreak()
	r.b.WriteString(ind)
	r.b.WriteByte('|')
	for i := range cols {
		if !r.showColumn(cols, i) {
			continue
		}
		r.b.WriteString(pad)
		r.mdLabel(cols[i].key, cols[i].prop, names)
		if u := r.mdUnit(cols[i].key, cols[i].prop); u != "" && u != "%" && (cols[i].prop == nil || !cols[i].prop.Fraction) {
			r.b.WriteString(" (")
			writeEscaped(&r.b, u)
			r.b.WriteByte(')')
		}
		r.b.WriteString(pad)
		r.b.WriteByte('|')
	}
	r.b.WriteByte('\n')
	r.b.WriteString(ind)
	r.b.WriteByte('|')
	for i := range cols {
		if r.showColumn(cols, i) {
			r.b.WriteString(rule)
		}
	}
	r.b.WriteByte('\n')
	arr.ForEach(func(_, el gjson.Result) bool {
		cells := r.rowCells(el, cols)
		r.b.WriteString(ind)
		r.b.WriteByte('|')
		for i := range cols {
			if !r.showColumn(cols, i) {
				continue
			}
			r.b.WriteString(pad)
			r.mdCell(&cols[i], cells[i])
			r.b.WriteString(pad)
			r.b.WriteByte('|')
		}
		r.b.WriteByte('\n')
		return true
	})
	r.mdColumnDescriptions(cols, names, ind)
}

// mdCell writes a table cell of column c: a string escaped on one line (mdTableColumns lets no
// line break or edge white space into a table), null "none" and the empty string `""`
// (at compact both leave the cell empty), and a number in "%" or a fraction as a percentage (other
// units are in the header).
func (r *render) mdCell(c *column, v gjson.Result) {
	switch {
	case r.compact() && isEmpty(v):
	case v.Type == gjson.String && strings.HasSuffix(v.Str, `\`) && !strings.HasSuffix(v.Str, `\\`):
		// A trailing backslash is escaped ("\\"), and a space keeps it from the cell's '|': GFM
		// reads "\|" as an escaped pipe whatever precedes it.
		writeEscaped(&r.b, v.Str[:len(v.Str)-1])
		r.b.WriteString(`\\`)
		if r.compact() {
			r.b.WriteByte(' ')
		}
	case v.Type == gjson.String && v.Str != "" && !readsEmpty(v.Str):
		writeEscaped(&r.b, v.Str)
	default:
		r.mdValue(c.key, c.prop, v, false, "")
	}
}

// mdColumnDescriptions writes, at verbose, a list of the table's columns that have a description
// (once per array of records: not for the tables of the records after the first).
func (r *render) mdColumnDescriptions(cols []column, names bool, ind string) {
	if r.mdQuiet {
		return
	}
	listed := false
	for i := range cols {
		d := r.description(cols[i].prop)
		if d == "" {
			continue
		}
		if !listed {
			r.blockBreak()
			listed = true
		}
		r.b.WriteString(ind)
		r.b.WriteString("- **")
		r.mdLabel(cols[i].key, cols[i].prop, names)
		r.b.WriteString(":** ")
		writeEscaped(&r.b, collapseSpace(d))
		r.b.WriteByte('\n')
	}
}

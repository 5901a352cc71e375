package renderers

import (
	"github.com/tidwall/gjson"
)

// mdTable writes a GFM table; compact drops columns that are empty in every row and pads nothing.
func (r *render) mdTable(arr gjson.Result, cols []column) {
	pad, rule := " ", " --- |"
	if r.compact() {
		pad, rule = "", "-|"
	}
	r.blockBreak()
	r.b.WriteByte('|')
	for i := range cols {
		if !r.showColumn(cols, i) {
			continue
		}
		r.b.WriteString(pad)
		r.mdLabel(cols[i].key, cols[i].prop)
		if u := r.mdUnit(cols[i].key, cols[i].prop); u != "" && u != "%" && (cols[i].prop == nil || !cols[i].prop.Fraction) {
			r.b.WriteString(" (")
			writeEscaped(&r.b, u)
			r.b.WriteByte(')')
		}
		r.b.WriteString(pad)
		r.b.WriteByte('|')
	}
	r.b.WriteString("\n|")
	for i := range cols {
		if r.showColumn(cols, i) {
			r.b.WriteString(rule)
		}
	}
	r.b.WriteByte('\n')
	arr.ForEach(func(_, el gjson.Result) bool {
		cells := r.rowCells(el, cols)
		r.b.WriteByte('|')
		for i := range cols {
			if !r.showColumn(cols, i) {
				continue
			}
			r.b.WriteString(pad)
			if cells[i].Type != gjson.Null || !r.compact() {
				r.mdCell(&cols[i], cells[i])
			}
			r.b.WriteString(pad)
			r.b.WriteByte('|')
		}
		r.b.WriteByte('\n')
		return true
	})
	r.mdColumnDescriptions(cols)
}

// mdCell writes a table cell of column c; an empty string is left empty, a number in "%" or a
// fraction is written as a percentage (other units are in the header).
func (r *render) mdCell(c *column, v gjson.Result) {
	if v.Type == gjson.String {
		writeEscaped(&r.b, v.Str)
		return
	}
	r.mdValue(c.key, c.prop, v, false)
}

// mdColumnDescriptions writes, at verbose, a list of the table's columns that have a description.
func (r *render) mdColumnDescriptions(cols []column) {
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
		r.b.WriteString("- **")
		r.mdLabel(cols[i].key, cols[i].prop)
		r.b.WriteString(":** ")
		writeEscaped(&r.b, collapseSpace(d))
		r.b.WriteByte('\n')
	}
}

package renderers

import (
	"github.com/tidwall/gjson"
)

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

// mdCell writes a table cell of column c: a string escaped on one line (a line break stays a
// character reference: a cell has no other way to hold one), null "none" and the empty string `""`
// (at compact both leave the cell empty), and a number in "%" or a fraction as a percentage (other
// units are in the header).
func (r *render) mdCell(c *column, v gjson.Result) {
	switch {
	case r.compact() && isEmpty(v):
	case v.Type == gjson.String && v.Str != "" && v.Str != none:
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

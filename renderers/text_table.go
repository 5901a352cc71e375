package renderers

import (
	"github.com/rivo/uniseg"
	"github.com/tidwall/gjson"
)

// maxAlignedWidth is the widest cell, in display columns, of an aligned text table: a wider cell
// would pad every other row to its width, so the records are written as "key: value" lines.
const maxAlignedWidth = 40

// txtTableColumns returns the columns of arr as an aligned text table: a uniform array of objects
// (tableColumns) whose widest cell or header is at most maxAlignedWidth display columns, the
// columns measured. The caller pops them with popColumns.
func (r *render) txtTableColumns(arr gjson.Result, items *Schema) (cols []column, mark int, ok bool) {
	cols, mark, ok = r.tableColumns(arr, items)
	if !ok {
		return cols, mark, false
	}
	r.measureColumns(arr, cols)
	for i := range cols {
		if cols[i].width > maxAlignedWidth {
			r.popColumns(mark)
			return nil, mark, false
		}
	}
	return cols, mark, true
}

// txtTable writes the rows of a uniform array at indent as aligned columns (measured by
// txtTableColumns) under a header of keys (with units at verbose); compact text writes its own
// tables (text_compact.go).
func (r *render) txtTable(arr gjson.Result, cols []column, indent int) {
	r.writeIndent(indent)
	for i := range cols {
		w := r.b.Len()
		r.txtString(cols[i].key, keyRules|spaceSeparated)
		if u := r.unit(cols[i].key); u != "" {
			r.b.WriteString(" (")
			r.b.WriteString(u)
			r.b.WriteByte(')')
		}
		r.pad(cols, i, uniseg.StringWidth(r.b.String()[w:]))
	}
	r.b.WriteByte('\n')
	arr.ForEach(func(_, el gjson.Result) bool {
		cells := r.rowCells(el, cols)
		r.writeIndent(indent)
		for i := range cols {
			w := r.b.Len()
			r.txtScalar(cells[i], cellRule(i))
			r.pad(cols, i, uniseg.StringWidth(r.b.String()[w:]))
		}
		r.b.WriteByte('\n')
		return true
	})
}

func cellRule(i int) quoteRule {
	if i == 0 {
		return atLineStart | spaceSeparated
	}
	return spaceSeparated
}

// measureColumns sets the display width of every column of an aligned table, in the columns a
// terminal gives it (uniseg: East Asian wide characters and emoji two, combining marks none).
func (r *render) measureColumns(arr gjson.Result, cols []column) {
	for i := range cols {
		cols[i].width = quotedWidth(cols[i].key, keyRules|spaceSeparated)
		if u := r.unit(cols[i].key); u != "" {
			cols[i].width += uniseg.StringWidth(u) + 3
		}
	}
	arr.ForEach(func(_, el gjson.Result) bool {
		cells := r.rowCells(el, cols)
		for i := range cols {
			w := len(cells[i].Raw)
			if w > 4*maxAlignedWidth {
				w = 4 * maxAlignedWidth // too wide: measuring every character would not change that
			}
			if cells[i].Type == gjson.String {
				w = quotedWidth(jsonText(cells[i].Str, cells[i].Raw), cellRule(i))
			}
			cols[i].width = max(cols[i].width, w)
		}
		return true
	})
}

// pad ends cell i, written with width w: spaces up to the column width plus two, none after the
// last cell.
func (r *render) pad(cols []column, i, w int) {
	if i == len(cols)-1 {
		return
	}
	for n := cols[i].width - w + 2; n > 0; n-- {
		r.b.WriteByte(' ')
	}
}

package renderers

import (
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// txtHeader writes a compact table header: "{a,b,c}", every column (compact text drops nothing).
func (r *render) txtHeader(cols []column) {
	r.b.WriteByte('{')
	for i := range cols {
		if i > 0 {
			r.b.WriteByte(',')
		}
		r.txtString(cols[i].key, keyChars)
	}
	r.b.WriteByte('}')
}

// txtTable writes the rows of a uniform array at indent: comma-separated at compact, else aligned
// columns under a header of keys (with units at verbose).
func (r *render) txtTable(arr gjson.Result, cols []column, indent int) {
	if r.compact() {
		arr.ForEach(func(_, el gjson.Result) bool {
			r.cRow(r.rowCells(el, cols), indent)
			return true
		})
		return
	}
	r.measureColumns(arr, cols)
	r.writeIndent(indent)
	for i := range cols {
		w := r.b.Len()
		r.txtString(cols[i].key, keyRules|spaceSeparated)
		if u := r.unit(cols[i].key); u != "" {
			r.b.WriteString(" (")
			r.b.WriteString(u)
			r.b.WriteByte(')')
		}
		r.pad(cols, i, utf8.RuneCountInString(r.b.String()[w:]))
	}
	r.b.WriteByte('\n')
	arr.ForEach(func(_, el gjson.Result) bool {
		cells := r.rowCells(el, cols)
		r.writeIndent(indent)
		for i := range cols {
			w := r.b.Len()
			r.txtScalar(cells[i], cellRule(i))
			r.pad(cols, i, utf8.RuneCountInString(r.b.String()[w:]))
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

// measureColumns sets the display width (in runes) of every column of an aligned table.
func (r *render) measureColumns(arr gjson.Result, cols []column) {
	for i := range cols {
		cols[i].width = quotedWidth(cols[i].key, keyRules|spaceSeparated)
		if u := r.unit(cols[i].key); u != "" {
			cols[i].width += utf8.RuneCountInString(u) + 3
		}
	}
	arr.ForEach(func(_, el gjson.Result) bool {
		cells := r.rowCells(el, cols)
		for i := range cols {
			w := len(cells[i].Raw)
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

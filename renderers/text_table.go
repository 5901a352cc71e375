package renderers

import (
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// txtTable writes the rows of a uniform array at indent as aligned columns under a header of keys
// (with units at verbose); compact text writes its own tables (text_compact.go).
func (r *render) txtTable(arr gjson.Result, cols []column, indent int) {
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

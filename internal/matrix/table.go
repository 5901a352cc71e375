package matrix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// Widths of the table's free-text cells.
const (
	maxTagsCell   = 48
	maxReasonCell = 48
	maxTitleArgs  = 200
)

// tableHeader names the columns of the table.
var tableHeader = []string{"profile", "tags", "rendering", "text bytes", "result bytes", "tokens", "structuredContent", "elicited", "protocol"}

// numeric marks the columns that are right-aligned.
var numeric = []bool{false, false, false, true, true, true, false, true, false}

// WriteTable writes m as an aligned table, one row per profile, under a
// title naming the call, followed by the profiles' tag warnings and the
// server's elicitation messages. A failed row says "failed"; its error is
// in Row.Error, for the caller to report once.
func WriteTable(w io.Writer, m *Matrix) error {
	rows := [][]string{tableHeader}
	for _, r := range m.Rows {
		rows = append(rows, tableRow(r))
	}
	alignNumbers(rows)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %s  (tokens: %s)\n\n", cell(m.Tool, 64), clip(compactJSON(m.Arguments), maxTitleArgs), m.Tokenizer)
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	for _, cells := range rows {
		for i, c := range cells {
			if i > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, c)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the table: %w", err)
	}
	writeNotes(&buf, m)
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write the table: %w", err)
	}
	return nil
}

// tableRow returns the cells of one row.
func tableRow(r Row) []string {
	tags := Profile{Tags: r.Tags}.TagList()
	if r.Error != "" {
		return []string{cell(r.Profile, MaxNameLen), cell(tags, maxTagsCell), string(RenderFailed), "-", "-", "-", "-", strconv.Itoa(r.Elicitations), dash(r.Protocol)}
	}
	tokens := strconv.Itoa(r.Tokens)
	if r.TokensApprox {
		tokens = "~" + tokens
	}
	return []string{
		cell(r.Profile, MaxNameLen),
		cell(tags, maxTagsCell),
		string(r.Rendering),
		strconv.Itoa(r.TextBytes),
		strconv.Itoa(r.ResultBytes),
		tokens,
		cell(r.Structured.String(), len(r.Structured.Status)+2+maxReasonCell),
		strconv.Itoa(r.Elicitations),
		dash(r.Protocol),
	}
}

// alignNumbers pads the numeric columns on the left to a common width.
func alignNumbers(rows [][]string) {
	for col, isNum := range numeric {
		if !isNum {
			continue
		}
		width := 0
		for _, cells := range rows {
			width = max(width, len(cells[col]))
		}
		for _, cells := range rows {
			cells[col] = fmt.Sprintf("%*s", width, cells[col])
		}
	}
}

// writeNotes writes the profiles' tag warnings and elicitation messages
// under the table, one line each, after a blank line. Errors are not among
// them: the row says "failed", and the command says why once, on stderr.
func writeNotes(buf *bytes.Buffer, m *Matrix) {
	var notes []string
	for _, r := range m.Rows {
		name := cell(r.Profile, MaxNameLen)
		for _, wn := range r.Warnings {
			notes = append(notes, fmt.Sprintf("%s: tag warning: %s", name, escapeControls(wn)))
		}
		for _, msg := range r.ElicitationMessages {
			notes = append(notes, fmt.Sprintf("%s: the server elicited (declined): %s", name, strconv.Quote(msg)))
		}
	}
	if len(notes) == 0 {
		return
	}
	buf.WriteString("\n")
	for _, n := range notes {
		buf.WriteString(n)
		buf.WriteString("\n")
	}
}

// compactJSON returns raw without insignificant space, or raw as it is if it
// is not valid JSON.
func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// dash returns s, or "-" when s is empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the report as an aligned table, one line per check and
// era, and a summary line.
func WriteTable(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "era\tprotocol\tcheck\tlevel\tresult\tclause\tdetail\n")
	for _, res := range r.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", res.Era, dash(res.Protocol), res.Name, res.Level, res.Status,
			res.Clause, OneLine(res.Detail))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the table: %w", err)
	}
	verdict := "every MUST holds"
	if !r.OK() {
		verdict = "a MUST fails"
	}
	_, err := fmt.Fprintf(w, "\nMUST: %d pass, %d fail, %d skipped; SHOULD: %d pass, %d fail, %d skipped: %s\n",
		r.Count(Must, Pass), r.Count(Must, Fail), r.Count(Must, Skip),
		r.Count(Should, Pass), r.Count(Should, Fail), r.Count(Should, Skip), verdict)
	if err != nil {
		return fmt.Errorf("write the table: %w", err)
	}
	return nil
}

// WriteJSON writes the report as one JSON document, with "ok" saying
// whether every MUST holds.
func WriteJSON(w io.Writer, r *Report) error {
	doc := struct {
		OK bool `json:"ok"`
		*Report
	}{r.OK(), r}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write the JSON report: %w", err)
	}
	return nil
}

// OneLine keeps a detail on one line (of the table, or of the command's
// error message): control characters become spaces.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// dash returns s, or "-" when s is empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package main

import (
	"fmt"
	"io"
	"strings"
)

// budget is a limit on one rendering's o200k tokens (bytes, with bytes set) as a share of the
// minified JSON's: for every item (perItem, 0 for none) and over the whole corpus (corpus, the
// sums; 0 for none).
type budget struct {
	rendering       rendering
	perItem, corpus int // percent
	bytes           bool
}

// budgets are the corpus's size budgets: compact text at most the JSON for every item and at most
// 65% of it over the corpus; generic markdown (compact and standard) at most 110% over the corpus;
// standard text at most 110% of the JSON's bytes for every item (SPEC 5, text rules). TOON has no
// budget of its own (SPEC 4): compact text carries the token budget, and TOON's sizes are
// reported beside the others.
var budgets = []budget{
	{rendering: textCompact, perItem: 100, corpus: 65},
	{rendering: markdownCompact, corpus: 110},
	{rendering: markdownStandard, corpus: 110},
	{rendering: textStandard, perItem: 110, bytes: true},
}

// unit returns what b counts, and the count of s.
func (b budget) unit() string {
	if b.bytes {
		return "bytes"
	}
	return "tokens"
}

func (b budget) of(s size) int {
	if b.bytes {
		return s.bytes
	}
	return s.tokens
}

// budgetResult is one budget's outcome: a line for the report, and whether it was kept.
type budgetResult struct {
	rendering rendering
	line      string
	ok        bool
}

// checkBudgets measures sizes against every budget. A budget whose rendering is not measured is
// missed.
func checkBudgets(sizes []itemSizes) []budgetResult {
	all := totals(sizes)
	var out []budgetResult
	for _, b := range budgets {
		col, ok := column(b.rendering)
		if !ok {
			out = append(out, budgetResult{rendering: b.rendering, line: fmt.Sprintf("%s: FAIL: no renderer is built in", b.rendering)})
			continue
		}
		if b.perItem > 0 {
			var over []string
			worst, worstName := -1, ""
			for _, s := range sizes {
				got, want := b.of(s.renders[col]), b.of(s.json)
				if p := percent(got, want); p > worst {
					worst, worstName = p, s.name
				}
				if got*100 > want*b.perItem {
					over = append(over, fmt.Sprintf("%s %d%% (%d of %d %s, %d over)", s.name, percent(got, want), got, want, b.unit(), got-want*b.perItem/100))
				}
			}
			head := fmt.Sprintf("%s, every item <= %d%%:", b.rendering, b.perItem)
			if b.bytes {
				head = fmt.Sprintf("%s, every item <= %d%% of the bytes:", b.rendering, b.perItem)
			}
			if len(over) == 0 {
				out = append(out, budgetResult{rendering: b.rendering, line: fmt.Sprintf("%s ok (at most %d%%, %s)", head, worst, worstName), ok: true})
			} else {
				out = append(out, budgetResult{rendering: b.rendering, line: fmt.Sprintf("%s FAIL: %s", head, strings.Join(over, "; "))})
			}
		}
		if b.corpus == 0 {
			continue
		}
		got, want := b.of(all.renders[col]), b.of(all.json)
		head := fmt.Sprintf("%s, whole corpus <= %d%%:", b.rendering, b.corpus)
		if got*100 > want*b.corpus {
			out = append(out, budgetResult{rendering: b.rendering, line: fmt.Sprintf("%s FAIL: %.1f%% (%d of %d %s; the budget is %d)", head, share(got, want), got, want, b.unit(), want*b.corpus/100)})
		} else {
			out = append(out, budgetResult{rendering: b.rendering, line: fmt.Sprintf("%s ok (%.1f%%, %d of %d %s)", head, share(got, want), got, want, b.unit()), ok: true})
		}
	}
	return out
}

// share returns part as a percentage of whole, to one decimal when printed: a whole-corpus share
// near its budget reads as what it is (64.6%, not 65%).
func share(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) * 100 / float64(whole)
}

// writeCheck prints one line per budget and reports whether every budget was kept.
func writeCheck(w io.Writer, sizes []itemSizes) bool {
	kept := true
	for _, r := range checkBudgets(sizes) {
		fmt.Fprintln(w, r.line)
		kept = kept && r.ok
	}
	return kept
}

package main

import (
	"fmt"
	"io"
)

// totals sums the sizes of all items.
func totals(sizes []itemSizes) itemSizes {
	t := itemSizes{name: "all", renders: make([]size, len(renderings))}
	for _, s := range sizes {
		t.json.bytes += s.json.bytes
		t.json.tokens += s.json.tokens
		for i, r := range s.renders {
			t.renders[i].bytes += r.bytes
			t.renders[i].tokens += r.tokens
		}
	}
	return t
}

// percent returns part as a whole percentage of whole.
func percent(part, whole int) int {
	if whole == 0 {
		return 0
	}
	return (part*100 + whole/2) / whole
}

// writeTable prints one markdown table row per item: the JSON's bytes and tokens, then for each
// rendering its tokens and their share of the JSON's, and bytes.
func writeTable(w io.Writer, sizes []itemSizes) {
	fmt.Fprint(w, "| item | JSON bytes | JSON tokens |")
	for _, r := range renderings {
		fmt.Fprintf(w, " %s |", r)
	}
	fmt.Fprint(w, "\n|---|---:|---:|")
	for range renderings {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, s := range append(sizes, totals(sizes)) {
		name := s.name
		if s.uniform {
			name += " (table)"
		}
		fmt.Fprintf(w, "| %s | %d | %d |", name, s.json.bytes, s.json.tokens)
		for _, r := range s.renders {
			fmt.Fprintf(w, " %d tok (%d%%), %d B |", r.tokens, percent(r.tokens, s.json.tokens), r.bytes)
		}
		fmt.Fprintln(w)
	}
}

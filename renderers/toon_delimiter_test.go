package renderers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// toonDelimiters are the delimiters TOON 4.0 offers (section 11), each declared in every array
// header so that any decoder reads the document with its default options.
var toonDelimiters = []struct {
	name  string
	delim byte
}{
	{"comma", ','},
	{"tab", '\t'},
	{"pipe", '|'},
}

// TestTOONDelimiters checks what a delimiter changes: the headers declare it, rows and inline
// values are split by it, and only the strings that hold it are quoted for it (section 7.2): a
// comma is plain text under tab or pipe, in a "key: value" as in a cell. A tab is a control
// character, so it is quoted (and escaped) under any delimiter.
func TestTOONDelimiters(t *testing.T) {
	const value = `{"location":"Bern, Switzerland","tags":["a,b","c|d","e"],` +
		`"rows":[{"id":1,"note":"x, y"},{"id":2,"note":"p|q"}],"pairs":[[1,2],["t\tu"]]}`
	tests := []struct {
		name  string
		delim byte
		want  string
	}{
		{
			name:  "comma",
			delim: ',',
			want: `location: "Bern, Switzerland"
tags[3]: "a,b",c|d,e
rows[2]{id,note}:
  1,"x, y"
  2,p|q
pairs[2]:
  - [2]: 1,2
  - [1]: "t\tu"`,
		},
		{
			name:  "tab",
			delim: '\t',
			want: "location: Bern, Switzerland\n" +
				"tags[3\t]: a,b\tc|d\te\n" +
				"rows[2\t]{id\tnote}:\n" +
				"  1\tx, y\n" +
				"  2\tp|q\n" +
				"pairs[2\t]:\n" +
				"  - [2\t]: 1\t2\n" +
				`  - [1` + "\t" + `]: "t\tu"`,
		},
		{
			name:  "pipe",
			delim: '|',
			want: `location: Bern, Switzerland
tags[3|]: a,b|"c|d"|e
rows[2|]{id|note}:
  1|x, y
  2|"p|q"
pairs[2|]:
  - [2|]: 1|2
  - [1|]: "t\tu"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toonWith([]byte(value), Options{}, tt.delim)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			checkTOONRoundTripWith(t, []byte(value), Options{}, tt.delim)
		})
	}
}

// TestTOONDelimiterRoundTrip reads back every edge case and corpus value written with each
// delimiter: all three are TOON any decoder reads with its defaults.
func TestTOONDelimiterRoundTrip(t *testing.T) {
	for _, d := range toonDelimiters[1:] {
		t.Run(d.name, func(t *testing.T) {
			for _, v := range toonEdgeCases {
				checkTOONRoundTripWith(t, []byte(v), Options{}, d.delim)
			}
			for _, it := range corpusValues(t) {
				checkTOONRoundTripWith(t, it.value, Options{Schema: it.schema}, d.delim)
			}
		})
	}
}

// TestTOONCommaIsCheapest keeps the reason TOON uses the comma (docs/decisions.md): over the
// corpus, in o200k tokens, the comma costs less than the tab or the pipe. A tab or pipe saves the
// quotes around a string that holds a comma, but before a number or word it is a token of its own
// where the comma merges into the token that follows. With -v it prints the figures per item.
func TestTOONCommaIsCheapest(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int {
		ids, _, err := enc.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		return len(ids)
	}
	var table strings.Builder
	table.WriteString("| item | JSON | comma | tab | pipe |\n|---|---:|---:|---:|---:|\n")
	totals := make([]int, len(toonDelimiters))
	jsonTotal := 0
	row := func(name string, j int, toks []int) {
		fmt.Fprintf(&table, "| %s | %d |", name, j)
		for _, n := range toks {
			fmt.Fprintf(&table, " %d (%.0f%%) |", n, 100*float64(n)/float64(j))
		}
		table.WriteByte('\n')
	}
	for _, it := range corpusValues(t) {
		var min bytes.Buffer
		if err := json.Compact(&min, it.value); err != nil {
			t.Fatalf("%s: %v", it.name, err)
		}
		j := count(min.String())
		jsonTotal += j
		toks := make([]int, len(toonDelimiters))
		for i, d := range toonDelimiters {
			out, err := toonWith(it.value, Options{Schema: it.schema}, d.delim)
			if err != nil {
				t.Fatalf("%s, %s: %v", it.name, d.name, err)
			}
			toks[i] = count(out)
			totals[i] += toks[i]
		}
		row(it.name, j, toks)
	}
	row("all", jsonTotal, totals)
	t.Logf("o200k tokens of TOON with each delimiter:\n%s", table.String())
	for i, d := range toonDelimiters[1:] {
		if totals[i+1] <= totals[0] {
			t.Errorf("over the corpus TOON with the %s takes %d tokens, the comma %d: the comma is no longer the cheapest", d.name, totals[i+1], totals[0])
		}
	}
}

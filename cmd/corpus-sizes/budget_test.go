package main

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/renderers"
)

// TestCorpusItemBudgets checks the size budgets of the generic renderings that hold for every
// corpus item, in o200k tokens (and bytes for compact text): compact text at most the minified
// JSON, and markdown (compact and standard) of a uniform table at most the table's JSON: the whole
// item where it is the table, the table member alone where the item is a record holding one (its
// scalars are a labelled list, whose labels the corpus-wide markdown budget bounds).
func TestCorpusItemBudgets(t *testing.T) {
	sizes, cols := measureCorpus(t)
	for _, s := range sizes {
		if got := s.renders[cols.textCompact]; got.tokens > s.json.tokens || got.bytes > s.json.bytes {
			t.Errorf("%s: compact text is %d tokens, %d bytes; the JSON %d tokens, %d bytes", s.name, got.tokens, got.bytes, s.json.tokens, s.json.bytes)
		}
		for _, c := range []int{cols.mdCompact, cols.mdStandard} {
			if tb := s.table; tb != nil && tb.renders[c].tokens > tb.json.tokens {
				t.Errorf("%s (a table): %s of %s is %d tokens, its JSON %d", s.name, renderings[c], tb.name, tb.renders[c].tokens, tb.json.tokens)
			}
		}
	}
}

// TestCorpusBudgets checks the corpus's size budgets (what corpus-sizes -check checks): compact
// text at most the minified JSON's tokens for every item and 65% of them over the corpus,
// markdown at most 110% over the corpus, standard text at most 110% of the JSON's bytes for every
// item. TOON has none (SPEC 4).
func TestCorpusBudgets(t *testing.T) {
	sizes, _ := measureCorpus(t)
	for _, r := range checkBudgets(sizes) {
		if !r.ok {
			t.Error(r.line)
		}
	}
}

// budgetColumns are the indexes in renderings of the renderings the budgets bound.
type budgetColumns struct{ textCompact, mdCompact, mdStandard int }

// measureCorpus measures the whole corpus (at least 12 items).
func measureCorpus(t *testing.T) ([]itemSizes, budgetColumns) {
	t.Helper()
	items, err := loadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 12 {
		t.Fatalf("corpus has %d items, want at least 12", len(items))
	}
	sizes, err := measure(items)
	if err != nil {
		t.Fatal(err)
	}
	col := func(format, verbosity string) int {
		for i, r := range renderings {
			if r.format == format && r.verbosity.String() == verbosity {
				return i
			}
		}
		t.Fatalf("no rendering %s %s", format, verbosity)
		return 0
	}
	return sizes, budgetColumns{col("text", "compact"), col("markdown", "compact"), col("markdown", "standard")}
}

func TestCheckBudgets(t *testing.T) {
	// sized returns an item whose JSON is json tokens and whose every rendering is pct% of it,
	// except those in other.
	sized := func(name string, json, pct int, other map[rendering]int) itemSizes {
		s := itemSizes{name: name, json: size{tokens: json, bytes: json * 3}}
		for _, r := range renderings {
			p := pct
			if o, ok := other[r]; ok {
				p = o
			}
			s.renders = append(s.renders, size{tokens: json * p / 100, bytes: json * p / 100 * 3})
		}
		return s
	}
	tests := []struct {
		name     string
		sizes    []itemSizes
		wantFail []string // substrings of the lines of the missed budgets, in order
	}{
		{
			name:  "all kept",
			sizes: []itemSizes{sized("a", 1000, 60, nil), sized("b", 100, 100, nil)},
		},
		{
			name: "an item over the JSON",
			sizes: []itemSizes{
				sized("big", 1000, 50, nil),
				sized("small", 100, 50, map[rendering]int{textCompact: 103}),
			},
			wantFail: []string{"text compact, every item <= 100%: FAIL: small 103% (103 of 100 tokens, 3 over)"},
		},
		{
			name:     "the whole corpus over 65%",
			sizes:    []itemSizes{sized("a", 1000, 60, map[rendering]int{textCompact: 70})},
			wantFail: []string{"text compact, whole corpus <= 65%: FAIL: 70.0% (700 of 1000 tokens; the budget is 650)"},
		},
		{
			name:     "markdown over 110%",
			sizes:    []itemSizes{sized("a", 1000, 60, map[rendering]int{markdownStandard: 120})},
			wantFail: []string{"markdown standard, whole corpus <= 110%: FAIL: 120.0%"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var failed []string
			for _, r := range checkBudgets(tt.sizes) {
				if !r.ok {
					failed = append(failed, r.line)
				}
			}
			want := tt.wantFail
			if len(failed) != len(want) {
				t.Fatalf("missed budgets:\n%s\nwant %d: %q", strings.Join(failed, "\n"), len(want), want)
			}
			for i, w := range want {
				if !strings.Contains(failed[i], w) {
					t.Errorf("missed budget %d = %q, want one containing %q", i, failed[i], w)
				}
			}
		})
	}
}

func TestTableOf(t *testing.T) {
	schema := &renderers.Schema{Properties: []renderers.Property{
		{Name: "ok"},
		{Name: "rows", Schema: &renderers.Schema{Title: "rows"}},
	}}
	tests := []struct {
		name       string
		give       item
		wantOK     bool
		wantValue  string
		wantSchema *renderers.Schema
	}{
		{name: "a record holding a table: the table member and its schema", give: item{name: "x", value: []byte(`{"ok":true,"rows":[{"a":1}]}`), schema: schema}, wantOK: true, wantValue: `[{"a":1}]`, wantSchema: schema.Properties[1].Schema},
		{name: "without a schema", give: item{name: "x", value: []byte(`{"ok":true,"rows":[{"a":1}]}`)}, wantOK: true, wantValue: `[{"a":1}]`},
		{name: "the item is the table", give: item{name: "x", value: []byte(`[{"a":1}]`)}},
		{name: "an object without an array", give: item{name: "x", value: []byte(`{"a":1}`)}},
		{name: "not JSON", give: item{name: "x", value: []byte(`{"a":`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tableOf(tt.give)
			if ok != tt.wantOK {
				t.Fatalf("tableOf ok = %v, want %v", ok, tt.wantOK)
			}
			if !ok {
				return
			}
			if string(got.value) != tt.wantValue || got.schema != tt.wantSchema || got.name != "x.rows" {
				t.Errorf("tableOf = %s %q %p, want x.rows %q %p", got.name, got.value, got.schema, tt.wantValue, tt.wantSchema)
			}
		})
	}
}

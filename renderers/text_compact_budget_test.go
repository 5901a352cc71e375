package renderers

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"

	"github.com/contentneg/contentneg/internal/tokens"
)

// TestCompactTextCorpusBudget checks issue 17's budget for generic compact text on every value of
// testdata/corpus, rendered with its schema as a server would: at most the minified JSON's o200k
// tokens (and bytes) for every item, and at most 65% of the JSON's tokens over the whole corpus.
// `go run ./cmd/corpus-sizes -chart ""` prints the same figures.
func TestCompactTextCorpusBudget(t *testing.T) {
	items := ctCorpusValues(t)
	names := make([]string, 0, len(items))
	for name := range items {
		names = append(names, name)
	}
	sort.Strings(names)
	jsonTotal, textTotal := 0, 0
	for _, name := range names {
		item := items[name]
		var min bytes.Buffer
		if err := json.Compact(&min, item[0]); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var schema *Schema
		if item[1] != nil {
			var err error
			if schema, err = ParseSchema(item[1]); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		text := compactText(t, min.String(), schema)
		jt, tt := tokens.Count(min.String()), tokens.Count(text)
		if jt < 0 || tt < 0 {
			t.Fatal("the o200k vocabulary does not load")
		}
		if tt > jt || len(text) > min.Len() {
			t.Errorf("%s: compact text is %d tokens, %d bytes; the JSON %d tokens, %d bytes", name, tt, len(text), jt, min.Len())
		}
		jsonTotal += jt
		textTotal += tt
	}
	t.Logf("compact text over the corpus: %d of %d tokens, %.1f%%", textTotal, jsonTotal, float64(textTotal)*100/float64(jsonTotal))
	if textTotal*100 > jsonTotal*65 {
		t.Errorf("compact text over the corpus is %d tokens, %.1f%% of the JSON's %d; want at most 65%%",
			textTotal, float64(textTotal)*100/float64(jsonTotal), jsonTotal)
	}
}

package renderers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/internal/interopskip"

	"github.com/contentneg/contentneg/internal/jsontest"
)

// TestTOONReferenceDecoder renders every corpus value (with its schema's order and without) and
// the JSON of every encode and decode fixture of the TOON spec v4.0.0 through the TOON renderer,
// and checks that the reference decoder, @toon-format/toon as interop/toon pins it, reads each
// back with its default options as the same JSON value. The reference decoder holds numbers as
// float64: a number whose digits a float64 holds exactly (its shortest form) must come back
// exactly; one with more digits (12345678901234567890) must come back as the nearest float64.
// Skipped when node or interop/toon/node_modules is missing, unless CONTENTNEG_REQUIRE_INTEROP=1.
func TestTOONReferenceDecoder(t *testing.T) {
	dir := filepath.Join("..", "interop", "toon")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@toon-format", "toon", "package.json"))
	}
	if err != nil {
		interopskip.Unavailable(t, "the reference TOON decoder is not installed (%v): run (cd interop/toon && npm ci --no-audit --no-fund) with Node 20 or later", err)
	}

	type doc struct {
		name  string
		value []byte
		toon  string
	}
	var docs []doc
	add := func(name string, value []byte, opts Options) {
		out, err := Generic{}.toon(value, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, doc{name, value, out})
	}
	items := corpusValues(t)
	for _, it := range items {
		add("corpus/"+it.name, it.value, Options{})
		if it.schema != nil {
			add("corpus/"+it.name+"/schema order", it.value, Options{Schema: it.schema})
		}
	}
	fixtures := 0
	for _, category := range []string{"encode", "decode"} {
		paths, err := filepath.Glob(filepath.Join("..", "toon", "testdata", "spec-v4.0.0", category, "*.json"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no %s fixtures: %v", category, err)
		}
		for _, p := range paths {
			var f struct {
				Tests []struct {
					Name        string          `json:"name"`
					Input       json.RawMessage `json:"input"`
					Expected    json.RawMessage `json:"expected"`
					ShouldError bool            `json:"shouldError"`
				} `json:"tests"`
			}
			data, err := os.ReadFile(p)
			if err == nil {
				err = json.Unmarshal(data, &f)
			}
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, tt := range f.Tests {
				value := tt.Input // an encode fixture's JSON
				if category == "decode" {
					if tt.ShouldError {
						continue
					}
					value = tt.Expected
				}
				fixtures++
				add(category+"/"+strings.TrimSuffix(filepath.Base(p), ".json")+"/"+tt.Name, value, Options{})
			}
		}
	}
	if len(items) < 20 || fixtures < 300 {
		t.Fatalf("%d corpus items and %d fixtures, want them all", len(items), fixtures)
	}

	batch := make([]string, len(docs))
	for i, d := range docs {
		batch[i] = d.toon
	}
	in, err := json.Marshal(batch)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "decode.mjs", "--batch")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node decode.mjs --batch: %v\n%s", err, stderr.String())
	}
	var results []struct {
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(docs) {
		t.Fatalf("node decode.mjs --batch gave %d results for %d documents: %v", len(results), len(docs), err)
	}
	approximated := 0
	for i, d := range docs {
		r := results[i]
		if r.Error != "" {
			t.Errorf("%s: the reference decoder refuses\n%s\n%s", d.name, d.toon, r.Error)
			continue
		}
		want, err := jsontest.Read(d.value)
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		got, err := jsontest.Read(r.Value)
		if err != nil {
			t.Fatalf("%s: the reference decoder's JSON %q: %v", d.name, r.Value, err)
		}
		if diff := asFloat64(&approximated).Values(want, got, "$"); diff != "" {
			t.Errorf("%s: the reference decoder reads\n%s\nas %s: %s", d.name, d.toon, r.Value, diff)
		}
	}
	t.Logf("the reference decoder read %d documents (%d corpus renderings, %d fixtures) back; %d numbers had more digits than a float64 holds", len(docs), len(docs)-fixtures, fixtures, approximated)
}

// asFloat64 compares numbers as a decoder whose numbers are float64 reads
// them: a number of a that a float64 holds exactly must be the same number
// in b, any other b's nearest float64 (counted in approximated).
func asFloat64(approximated *int) jsontest.Compare {
	return jsontest.Compare{Numbers: func(a, b jsontest.Number, path string) string {
		f, err := strconv.ParseFloat(string(a), 64)
		if err != nil {
			return fmt.Sprintf("%s: number %s out of the float64 range: %v", path, a, err)
		}
		if jsontest.SameNumber(string(a), strconv.FormatFloat(f, 'g', -1, 64)) {
			if !jsontest.SameNumber(string(a), string(b)) {
				return fmt.Sprintf("%s: number %s vs %s", path, a, b)
			}
			return ""
		}
		*approximated++
		if g, err := strconv.ParseFloat(string(b), 64); err != nil || g != f {
			return fmt.Sprintf("%s: number %s (nearest float64 %v) vs %s", path, a, f, b)
		}
		return ""
	}}
}

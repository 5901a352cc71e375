package toon

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/jsontest"
)

// specVersion is the version of the TOON specification the package implements (the
// fixtures' "version").
const specVersion = "4.0"

// fixtureFile is one file of the spec's fixtures (tests/fixtures.schema.json).
type fixtureFile struct {
	Version  string    `json:"version"`
	Category string    `json:"category"`
	Tests    []fixture `json:"tests"`
}

type fixture struct {
	Name        string          `json:"name"`
	Input       json.RawMessage `json:"input"`
	Expected    json.RawMessage `json:"expected"`
	ShouldError bool            `json:"shouldError"`
	Options     struct {
		Delimiter  string `json:"delimiter"`
		IndentSize int    `json:"indentSize"`
		Strict     *bool  `json:"strict"`
	} `json:"options"`
	MinSpecVersion string `json:"minSpecVersion"`
}

// loadFixtures reads every fixture file of one category ("encode" or "decode") of the spec's
// test suite at v4.0.0.
func loadFixtures(tb testing.TB, category string) map[string][]fixture {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "spec-v4.0.0", category, "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no %s fixtures: %v", category, err)
	}
	out := map[string][]fixture{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		var f fixtureFile
		if err := json.Unmarshal(data, &f); err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		if f.Category != category || f.Version != specVersion || len(f.Tests) == 0 {
			tb.Fatalf("%s: category %q, version %q, %d tests", p, f.Category, f.Version, len(f.Tests))
		}
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = f.Tests
	}
	return out
}

// TestEncodeFixtures runs every encode fixture of the spec at v4.0.0: the JSON input, encoded with
// the fixture's options, is exactly the expected document.
func TestEncodeFixtures(t *testing.T) {
	n := 0
	for file, tests := range loadFixtures(t, "encode") {
		for _, tt := range tests {
			n++
			t.Run(file+"/"+tt.Name, func(t *testing.T) {
				if tt.MinSpecVersion != "" && tt.MinSpecVersion > specVersion {
					t.Fatalf("fixture needs spec %s", tt.MinSpecVersion)
				}
				opts := &EncodeOptions{Indent: tt.Options.IndentSize}
				if tt.Options.Delimiter != "" {
					opts.Delimiter = tt.Options.Delimiter[0]
				}
				got, err := FromJSON(tt.Input, opts)
				if tt.ShouldError {
					if err == nil {
						t.Fatalf("FromJSON(%s) = %q, want an error", tt.Input, got)
					}
					return
				}
				var want string
				if err := json.Unmarshal(tt.Expected, &want); err != nil {
					t.Fatal(err)
				}
				if err != nil || string(got) != want {
					t.Errorf("FromJSON(%s) = %q, %v\nwant %q", tt.Input, got, err, want)
				}
			})
		}
	}
	if n < 100 {
		t.Errorf("ran %d encode fixtures, want all of them", n)
	}
}

// TestDecodeFixtures runs every decode fixture of the spec at v4.0.0: the document decodes, with
// the fixture's options, to the expected JSON value (members in the same order), or fails when
// the fixture says it must.
func TestDecodeFixtures(t *testing.T) {
	n := 0
	for file, tests := range loadFixtures(t, "decode") {
		for _, tt := range tests {
			n++
			t.Run(file+"/"+tt.Name, func(t *testing.T) {
				var doc string
				if err := json.Unmarshal(tt.Input, &doc); err != nil {
					t.Fatal(err)
				}
				opts := &DecodeOptions{Indent: tt.Options.IndentSize}
				if tt.Options.Strict != nil {
					opts.Lenient = !*tt.Options.Strict
				}
				got, err := ToJSON([]byte(doc), opts)
				if tt.ShouldError {
					if err == nil {
						t.Fatalf("ToJSON(%q) = %s, want an error", doc, got)
					}
					if !strings.HasPrefix(err.Error(), "toon: line ") {
						t.Errorf("error %q does not name its line", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("ToJSON(%q): %v", doc, err)
				}
				if diff := (jsontest.Compare{Ordered: true}).Texts(tt.Expected, got); diff != "" {
					t.Errorf("ToJSON(%q) = %s\nwant %s\n%s", doc, got, tt.Expected, diff)
				}
			})
		}
	}
	if n < 300 {
		t.Errorf("ran %d decode fixtures, want all of them", n)
	}
}

package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const corpusDir = "../../testdata/corpus"

// TestGenerateReproducesCorpus regenerates the weather, forecast and journey items on the fixed
// clock and compares them with the stored ones.
func TestGenerateReproducesCorpus(t *testing.T) {
	dir := t.TempDir()
	if err := generateItems(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"weather", "forecast", "journey"} {
		for _, file := range []string{name + ".json", name + ".schema.json"} {
			got, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(corpusDir, file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs from the stored item (-stored +generated); rerun with -generate:\n%s", file, diff)
			}
		}
	}
}

// TestRunCheck runs -check on the corpus: one line per budget, and exit 1 exactly when one is missed.
func TestRunCheck(t *testing.T) {
	items, err := loadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := measure(items)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	wantCode := 0
	if !writeCheck(&want, sizes) {
		wantCode = 1
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-dir", corpusDir, "-check"}, &stdout, &stderr); code != wantCode || stdout.String() != want.String() {
		t.Errorf("run -check = %d, stdout:\n%s\nstderr: %s\nwant %d, stdout:\n%s", code, stdout.String(), stderr.String(), wantCode, want.String())
	}
	if lines := strings.Count(stdout.String(), "\n"); lines < len(budgets) {
		t.Errorf("run -check printed %d lines, want at least one per budget (%d)", lines, len(budgets))
	}
}

func TestRun(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "sizes.png")
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "table and chart", args: []string{"-dir", corpusDir, "-chart", chart}, wantStdout: "| all | "},
		{name: "unknown flag", args: []string{"-nope"}, wantCode: 2, wantStderr: "flag provided but not defined"},
		{name: "stray argument", args: []string{"-dir", corpusDir, "x"}, wantCode: 2, wantStderr: `unexpected argument "x"`},
		{name: "missing corpus", args: []string{"-dir", filepath.Join(t.TempDir(), "none"), "-chart", ""}, wantCode: 1, wantStderr: "no items"},
		{name: "record without the servers installed", args: []string{"-dir", t.TempDir(), "-record", filepath.Join(t.TempDir(), "none"), "-chart", ""}, wantCode: 1, wantStderr: "corpus-sizes: record"},
		{name: "invalid item", args: []string{"-dir", invalidCorpus(t), "-chart", ""}, wantCode: 1, wantStderr: "bad.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.wantCode || !strings.Contains(stdout.String(), tt.wantStdout) || !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, stdout with %q, stderr with %q",
					tt.args, code, stdout.String(), stderr.String(), tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
		})
	}
	png, err := os.ReadFile(chart)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("chart %s is not a PNG (%v)", chart, err)
	}
}

// invalidCorpus returns a directory holding one item that is not JSON.
func invalidCorpus(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"a":`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden renders every corpus item as standard markdown (what a person reads), standard text
// (a terminal), compact text and TOON (what a model reads) and compares with
// testdata/golden/ITEM.standard.md, ITEM.standard.txt, ITEM.compact.txt and ITEM.toon; rewrite
// them with -update.
func TestGolden(t *testing.T) {
	items, err := loadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		for _, g := range []struct {
			r    rendering
			file string
		}{
			{markdownStandard, it.name + ".standard.md"},
			{textStandard, it.name + ".standard.txt"},
			{textCompact, it.name + ".compact.txt"},
			{toon, it.name + ".toon"},
		} {
			t.Run(g.file, func(t *testing.T) {
				if _, ok := column(g.r); !ok {
					t.Skipf("no %s renderer", g.r)
				}
				got, err := render(it, g.r)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", "golden", g.file)
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (rewrite with -update)", err)
				}
				if diff := cmp.Diff(string(want), got+"\n"); diff != "" {
					t.Errorf("%s differs (-want +got):\n%s", path, diff)
				}
			})
		}
	}
}

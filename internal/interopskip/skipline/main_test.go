package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	got, err := read(strings.NewReader("a.test\tnode is missing\nb.test\tnode is missing\n"))
	if want := "interop: 2 tests skipped (a.test, b.test): node is missing (CONTENTNEG_REQUIRE_INTEROP=1 fails them instead)"; err != nil || got != want {
		t.Errorf("read = %q, %v; want %q", got, err, want)
	}
}

func TestReadRefusesABadLine(t *testing.T) {
	if got, err := read(strings.NewReader("no tab here\n")); err == nil {
		t.Errorf("read = %q, want an error", got)
	}
}

func TestAMissingFileIsNoSkip(t *testing.T) {
	got, err := summarize(filepath.Join(t.TempDir(), "none"))
	if err != nil || got != "interop: no test skipped" {
		t.Errorf("summarize = %q, %v", got, err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// write creates the files under root.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMeasure(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod": "module m\n",
		"p/p.go": `package p

// Names: F, T, Embedded, I, G, V, W, C (8); methods: T.M, G.M (2);
// members: T.A, T.B, T.N, T.N.X, T.Embedded, I.Do (6).
func F() {}
func f() {}
type T struct {
	A, B int
	c int
	N struct{ X, y int }
	Embedded
}
type Embedded struct{}
func (T) M() {}
func (T) m() {}
func (*t) M() {}
type t struct{ A int }
type I interface{ Do(); do() }
type G[K any] struct{}
func (G[K]) M() {}
var V, v, W = 1, 2, 3
const C = 1
`,
		"p/p_test.go":         "package p\n\nfunc Exported() {}\n",
		"p/ptest/ptest.go":    "package ptest\n\nfunc Helper() {}\n",
		"internal/x/x.go":     "package x\n\nfunc X() {}\n",
		"cmd/c/main.go":       "package main\n\nfunc Main() {}\n",
		"examples/e/e.go":     "package e\n\nfunc E() {}\n",
		"bench/go.mod":        "module b\n",
		"bench/b.go":          "package b\n\nfunc B() {}\n",
		"tool/main.go":        "package main\n\nfunc Tool() {}\n",
		"testdata/td/td.go":   "package td\n\nfunc TD() {}\n",
		"interop/i/i.go":      "package i\n\nfunc I() {}\n",
		"p/testdata/q/q.go":   "package q\n\nfunc Q() {}\n",
		"p/internal/pi/pi.go": "package pi\n\nfunc PI() {}\n",
	})
	got, err := measure(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []size{
		{pkg: "p", names: 8, methods: 2, members: 6},
		{pkg: "p/ptest", names: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("measure:\n got %+v\nwant %+v", got, want)
	}
}

func TestMeasureRefusesABrokenFile(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"go.mod": "module m\n", "p/p.go": "package p\n\nfunc {"})
	if _, err := measure(root); err == nil {
		t.Error("measure of a file that does not parse: no error")
	}
}

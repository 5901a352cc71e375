package yamlrefuse_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/contentneg/contentneg/internal/yamlrefuse"
)

// accepted are YAML files within the bounds, the tricky ones among them:
// brackets and quotes that are text, and nesting right at the limit.
var accepted = []struct{ name, data string }{
	{"empty", ""},
	{"a mapping", "default: human\ntools:\n  echo:\n    markdown: true\n"},
	{"brackets in a comment", "a: 1 # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n"},
	{"brackets in quotes", `a: "` + strings.Repeat("[", 100) + `"` + "\nb: '" + strings.Repeat("{", 100) + "'\n"},
	{"brackets in a quote over lines", "a: \"" + strings.Repeat("[", 50) + "\n  " + strings.Repeat("[", 50) + "\"\n"},
	{"escapes in quotes", `a: "\"[[[[" ` + "\nb: 'it''s [[['\n"},
	{"brackets in a block scalar", "a:\n  markdown: |\n    " + strings.Repeat("[", 100) + "\n    don't [\n\n    ]]]\n  b: 1\n"},
	{"a folded scalar in a sequence", "- >-\n  " + strings.Repeat("{", 100) + "\n- b\n"},
	{"a block scalar under a sequence entry", "- a: |\n    " + strings.Repeat("[", 100) + "\n  b: c\n"},
	{"an apostrophe in plain text", "a: don't [stop] me now\nb: it's\n"},
	{"a URL", "a: https://example.ch/a_b?c=d#e\n"},
	{"flow at the limit", "a: " + strings.Repeat("[", yamlrefuse.MaxDepth-1) + strings.Repeat("]", yamlrefuse.MaxDepth-1) + "\n"},
	{"blocks at the limit", nested(yamlrefuse.MaxDepth)},
	{"a sequence of sequences at the limit", strings.Repeat("- ", yamlrefuse.MaxDepth-1) + "a\n"},
	{"one document with markers", "---\na: 1\n...\n"},
	{"2,000 keys", keys(1990)},
	{"a negated tag unquoted", "default:\n  - human\n  - !interactive\n"},
	{"tabs and carriage returns", "a:\t1\r\nb: [1,\t2]\r\n"},
	{"not YAML", "\x00\xff{[\"\n\t:"},
}

// refused are files past a bound, with where the bound is crossed.
var refused = []struct {
	name       string
	data       string
	want       error
	line, col  int
	parserCost string // what the parser took for it before (issue 28)
}{
	{"8,000 [", strings.Repeat("[", 8000), yamlrefuse.ErrTooDeep, 1, 64, "129 MB"},
	{"32,000 [", strings.Repeat("[", 32000), yamlrefuse.ErrTooDeep, 1, 64, "1.6 GB"},
	{"240 KB of {a: ", strings.Repeat("{a: ", 60000), yamlrefuse.ErrTooDeep, 1, 253, "7.4 GB"},
	{"[ on lines", strings.Repeat("a: [\n", 100), yamlrefuse.ErrTooDeep, 64, 4, ""},
	{"- nested", strings.Repeat("- ", 100) + "a\n", yamlrefuse.ErrTooDeep, 1, 127, ""},
	{"indentation", nested(yamlrefuse.MaxDepth + 1), yamlrefuse.ErrTooDeep, 65, 65, ""},
	{"a run of anchors", "a: " + strings.Repeat("&a ", 100) + "b\n", yamlrefuse.ErrTooDeep, 1, 193, ""},
	{"flow past the limit under text", "a: text [\nb: " + strings.Repeat("[", 63), yamlrefuse.ErrTooDeep, 2, 66, ""},
	{"a quote that starts a line is text unless it ends there", "a: b\n  'x\n" + strings.Repeat("[", 100) + "\n'\n", yamlrefuse.ErrTooDeep, 3, 64, ""},
	{"100,001 nodes", "[" + strings.Repeat("a,", 50000) + "a]", yamlrefuse.ErrTooManyNodes, 1, 100001, ""},
	{"words", "a: " + strings.Repeat("b ", 100000), yamlrefuse.ErrTooManyNodes, 1, 200000, ""},
	{"1,001 aliases", strings.Repeat("- *a\n", 1001), yamlrefuse.ErrTooManyIndirections, 1001, 3, ""},
	{"17 documents", strings.Repeat("--- a\n", 17), yamlrefuse.ErrTooManyDocuments, 17, 1, ""},
	{"2,001 keys", keys(2001), yamlrefuse.ErrTooManyKeys, 2001, 6, ""},
	{"2,001 complex keys", strings.Repeat("? a\n", 2001), yamlrefuse.ErrTooManyKeys, 2001, 1, ""},
}

func nested(depth int) string {
	var b strings.Builder
	for i := range depth - 1 {
		b.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	b.WriteString(strings.Repeat(" ", depth-1) + "b\n")
	return b.String()
}

func keys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	return b.String()
}

func TestBoundAccepts(t *testing.T) {
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "gateway", "gateway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := append([]struct{ name, data string }{{"the example config", string(example)}}, accepted...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := yamlrefuse.Bound([]byte(tt.data)); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}

// TestBoundRefuses: each file past a bound is refused with the bound and
// where it was crossed, and the check allocates next to nothing, whatever
// the parser would have taken.
func TestBoundRefuses(t *testing.T) {
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			var err error
			allocated := bytesAllocated(func() { err = yamlrefuse.Bound(data) })
			var be *yamlrefuse.BoundError
			if !errors.As(err, &be) || !errors.Is(err, tt.want) || be.Line != tt.line || be.Column != tt.col {
				t.Fatalf("Bound = %v, want %v at %d:%d", err, tt.want, tt.line, tt.col)
			}
			if want := fmt.Sprintf("%d:%d: %v", tt.line, tt.col, tt.want); err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
			if allocated > 16<<10 {
				t.Errorf("Bound allocated %d bytes, want at most 16 KiB", allocated)
			}
		})
	}
}

// TestBoundNeverUnderCounts: for every file Bound accepts that the parser
// reads, the parser's syntax tree nests no deeper than MaxDepth: the
// pre-scan may count text as structure, never structure as text.
func TestBoundNeverUnderCounts(t *testing.T) {
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			CheckAgreesWithParser(t, []byte(tt.data))
		})
	}
}

// CheckAgreesWithParser fails t when Bound accepts data and the parser
// reads a tree from it that nests deeper than MaxDepth.
func CheckAgreesWithParser(t *testing.T, data []byte) {
	t.Helper()
	if yamlrefuse.Bound(data) != nil {
		return
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return
	}
	d := &depthVisitor{max: new(int)}
	for _, doc := range f.Docs {
		ast.Walk(d, doc)
	}
	if *d.max > yamlrefuse.MaxDepth {
		t.Errorf("Bound accepted a tree %d deep: %q", *d.max, clip(data))
	}
}

// depthVisitor records the deepest nesting of collections, anchors and
// tags in a syntax tree.
type depthVisitor struct {
	depth int
	max   *int
}

func (v *depthVisitor) Visit(n ast.Node) ast.Visitor {
	if n == nil {
		return nil
	}
	d := v.depth
	switch n.(type) {
	case *ast.SequenceNode, *ast.MappingNode, *ast.AnchorNode, *ast.TagNode:
		d++
	}
	*v.max = max(*v.max, d)
	return &depthVisitor{depth: d, max: v.max}
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// bytesAllocated returns the bytes f allocates, on the heap.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func FuzzBound(f *testing.F) {
	for _, tt := range accepted {
		f.Add([]byte(tt.data))
	}
	for _, tt := range refused {
		if len(tt.data) < 4096 {
			f.Add([]byte(tt.data))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		CheckAgreesWithParser(t, data)
	})
}

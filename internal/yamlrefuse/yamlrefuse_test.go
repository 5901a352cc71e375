package yamlrefuse_test

import (
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/contentneg/contentneg/internal/yamlrefuse"
)

// TestFirstTag: the tag of a file that does not parse is found, as written
// (the flow punctuation the lexer swallows trimmed), and files without one
// give nil, bad input included.
func TestFirstTag(t *testing.T) {
	tests := []struct {
		name, data, want string
		line             int
	}{
		{name: "flow sequence", data: "default: [agent, !interactive]\n", want: "!interactive", line: 1},
		{name: "block sequence", data: "default:\n  - human\n  - !interactive\n", want: "!interactive", line: 3},
		{name: "quoted", data: "default: [agent, \"!interactive\"]\n"},
		{name: "not YAML", data: "\x00\xff{[\"\n\t:"},
		{name: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk, tag := yamlrefuse.FirstTag([]byte(tt.data))
			if tt.want == "" {
				if tk != nil {
					t.Fatalf("found a tag %q in %q", tag, tt.data)
				}
				return
			}
			if tk == nil || tag != tt.want || tk.Position == nil || tk.Position.Line != tt.line {
				t.Fatalf("got %v %q, want %q at line %d", tk, tag, tt.want, tt.line)
			}
		})
	}
}

// TestWalk: every anchor, alias and tag is reported, in order, and the
// walk stops when asked.
func TestWalk(t *testing.T) {
	f, err := parser.ParseBytes([]byte("a: &x 1\nb: *x\nc: !interactive\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	yamlrefuse.Walk(f.Docs[0].Body, func(n ast.Node, tag string) bool {
		got = append(got, n.Type().String()+" "+tag)
		return true
	})
	want := []string{"Anchor ", "Alias ", "Tag !interactive"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	n := 0
	yamlrefuse.Walk(f.Docs[0].Body, func(ast.Node, string) bool { n++; return false })
	if n != 1 {
		t.Errorf("the walk went on after false: %d nodes", n)
	}
	if got := yamlrefuse.TagMessage("!interactive"); got != `YAML reads !interactive as a tag; quote a negated feature tag: "!interactive"` {
		t.Errorf("TagMessage: %q", got)
	}
}

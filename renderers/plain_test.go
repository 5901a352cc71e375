package renderers

import (
	"fmt"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/google/go-cmp/cmp"
)

func TestPlainText(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
		code bool // the source holds code lines, kept exactly: they may read as markup
	}{
		{name: "heading and paragraph", give: "# Weather\n\nLight *rain*, **cold**.", want: "Weather\n\nLight rain, cold."},
		{name: "soft break kept", give: "a\nb", want: "a\nb"},
		{name: "list items keep their markers", give: "- a\n- b\n  - c\n\nafter", want: "- a\n- b\n  - c\n\nafter"},
		{name: "bullets keep their character", give: "* a\n* b\n\n+ c", want: "* a\n* b\n\n+ c"},
		{name: "a diff written as lists keeps its markers", give: "- total = 10\n+ total = 12", want: "- total = 10\n+ total = 12"},
		{name: "ordered list", give: "1. one\n2. two", want: "1. one\n2. two"},
		{name: "ordered list from 3", give: "3) three\n4) four\n   more", want: "3. three\n4. four\n   more"},
		{name: "task list", give: "- [x] done\n- [ ] todo", want: "- ☑ done\n- ☐ todo"},
		{name: "loose list", give: "- a\n\n  b\n- c", want: "- a\n  b\n- c"},
		{name: "block syntax in an item is quoted", give: "- \\# x\n- \\- y", want: "- \"# x\"\n- \"- y\""},
		{name: "link", give: "see [docs](https://x.y/a_b \"title\")", want: "see docs (https://x.y/a_b)"},
		{name: "autolink", give: "<https://x.y> and https://z.w", want: "https://x.y and https://z.w"},
		{name: "link whose text is the url", give: "[https://x.y](https://x.y)", want: "https://x.y"},
		{name: "image", give: "![a cat](cat.png)", want: "a cat (cat.png)"},
		{name: "code span", give: "run `ls -l`", want: "run ls -l"},
		{name: "fenced code", give: "```sh\necho hi\n  indented\n```", want: "echo hi\n  indented"},
		{name: "table", give: "| a | b |\n|---|---|\n| 1 | 2 |", want: "a | b\n1 | 2"},
		{name: "html dropped", give: "a <b>bold</b>\n\n<div>\nblock\n</div>\n\nz", want: "a bold\n\nz"},
		{name: "block quote", give: "> quoted\n> text", want: "quoted\ntext"},
		{name: "thematic break dropped", give: "a\n\n---\n\nb", want: "a\n\nb"},
		{name: "entities decoded", give: "&amp; &copy; &#65; \\*", want: "& © A *"},
		{name: "numbered heading quoted", give: "# 1. Introduction", want: `"1. Introduction"`},
		{name: "code lines kept exactly", give: "```\n# comment\n- item\n```", want: "# comment\n- item", code: true},
		{name: "indented code kept exactly", give: "```\n    x\n    y\n```", want: "    x\n    y", code: true},
		{name: "a diff keeps its markers", give: "```diff\n-total = 10\n+total = 12\n```", want: "-total = 10\n+total = 12", code: true},
		{name: "code keeps blank lines and markup", give: "```\na  \n\n__init__ <b>\n```\n\nafter", want: "a  \n\n__init__ <b>\n\nafter", code: true},
		{name: "code in a list item", give: "- x\n\n  ```\n  -y\n  ```\n- z", want: "- x\n  -y\n- z", code: true},
		{name: "inline markup in code escaped", give: "call `__init__` and `<div>`", want: `call \_\_init\_\_ and \<div>`},
		{name: "escaped emphasis escaped again", give: `\*a\* b`, want: `\*a\* b`},
		{name: "inert star kept", give: "`5 * 3` and snake_case", want: "5 * 3 and snake_case"},
		{name: "link text escaped", give: "see `[a](b)`", want: `see \[a\](b)`},
		{name: "empty", give: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PlainText(tt.give)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PlainText(%q) mismatch (-want +got):\n%s", tt.give, diff)
			}
			if !tt.code {
				requireNoError(t, checkConverted(got))
			}
		})
	}
}

// checkConverted returns an error if a markdown parser finds in s anything but paragraphs, plain
// text and lists: PlainText keeps the source's list markers and nothing else of its markup.
func checkConverted(s string) error {
	src := []byte(s)
	doc := plainParser().Parse(text.NewReader(src))
	var err error
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.Kind() {
		case ast.KindDocument, ast.KindParagraph, ast.KindText, ast.KindString, ast.KindList,
			ast.KindListItem, ast.KindTextBlock:
			return ast.WalkContinue, nil
		}
		err = fmt.Errorf("%w: %s at line %d in %q", errMarkup, n.Kind(), lineOf(src, n), s)
		return ast.WalkStop, nil
	})
	return err
}

// TestPlainTextHostile converts hostile markdown and checks that the result is plain text.
func TestPlainTextHostile(t *testing.T) {
	tests := []string{
		"<script>alert(1)</script>", "[a](javascript:alert(1))", "`**x**`", "\\# x", "\\- x", "\\> q",
		"`a` `b`", "``` ` ```", "~~s~~", "\\~\\~s\\~\\~", "a\\\nb", "\\<https://x.y\\>", "`<!-- x -->`",
		"1\\. x", "\\| a \\|\n\\|---\\|", "&lt;b&gt;x&lt;/b&gt;", "&#42;a&#42;", "\\[x\\]: /u",
		"- a\n\n      code", "text\n\n    code", "\x00", "a\xffb",
	}
	for _, give := range tests {
		t.Run(give, func(t *testing.T) {
			requireNoError(t, checkConverted(PlainText(give)))
		})
	}
}

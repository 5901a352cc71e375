package renderers

import (
	"bytes"
	"errors"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// testSchema orders the fields "b", "a" and describes "b"; "c" is an extra field.
var testSchema = &Schema{Properties: []Property{
	{Name: "b", Description: "The b\nfield"},
	{Name: "a"},
	{Name: "obj", Description: "An object", Schema: &Schema{Properties: []Property{{Name: "y"}, {Name: "x"}}}},
	{Name: "rows", Description: "Rows", Schema: &Schema{Items: &Schema{Properties: []Property{
		{Name: "v", Description: "Value"}, {Name: "k"},
	}}}},
}}

func TestGenericMarkdown(t *testing.T) {
	compact := Options{Verbosity: negotiation.Compact}
	verbose := Options{Verbosity: negotiation.Verbose, Schema: testSchema, Units: map[string]string{"a": "°C", "v": "m"}}
	tests := []struct {
		name string
		give string
		opts Options
		want string
	}{
		{name: "raw key order", give: `{"b":1,"a":"x"}`, want: "- **b:** 1\n- **a:** x"},
		{name: "schema order, extras last", give: `{"c":3,"a":"x","b":1}`, opts: Options{Schema: testSchema}, want: "- **b:** 1\n- **a:** x\n- **c:** 3"},
		{name: "numbers as written", give: `{"a":1.50,"b":1e400,"c":-0,"d":12345678901234567890}`, want: "- **a:** 1.50\n- **b:** 1e400\n- **c:** -0\n- **d:** 12345678901234567890"},
		{name: "literals and empties", give: `{"a":null,"b":true,"c":"","d":[],"e":{}}`, want: "- **a:** null\n- **b:** true\n- **c:** \"\"\n- **d:** []\n- **e:** {}"},
		{name: "compact drops empties and bold", give: `{"a":null,"b":1,"c":"","d":[],"e":{}}`, opts: compact, want: "- b: 1"},
		{name: "compact of only empties", give: `{"a":null}`, opts: compact, want: "{}"},
		{name: "scalar array", give: `{"tags":["a","b, c","",1,null]}`, want: "- **tags:** a, \"b, c\", \"\", 1, null"},
		{name: "scalars before sections", give: `{"obj":{"x":1},"a":2}`, want: "- **a:** 2\n\n## obj\n\n- **x:** 1"},
		{name: "table", give: `{"rows":[{"k":"a","v":1},{"v":2,"k":"b|c"}]}`, want: "## rows\n\n| k | v |\n| --- | --- |\n| a | 1 |\n| b\\|c | 2 |"},
		{name: "compact table drops empty columns", give: `{"rows":[{"k":"a","v":null},{"k":"b","v":null}]}`, opts: compact, want: "## rows\n\n|k|\n|-|\n|a|\n|b|"},
		{name: "table with null cell", give: `[{"k":null},{"k":1}]`, want: "| k |\n| --- |\n| null |\n| 1 |"},
		{name: "non-uniform array", give: `{"list":[{"a":1},{"b":2},3]}`, want: "## list\n\n### 1\n\n- **a:** 1\n\n### 2\n\n- **b:** 2\n\n### 3\n\n3"},
		{name: "array of arrays", give: `[[1,2],[]]`, want: "## 1\n\n1, 2\n\n## 2\n\n[]"},
		{name: "nested objects", give: `{"a":{"b":{"c":1}}}`, want: "## a\n\n### b\n\n- **c:** 1"},
		{name: "sections stop at level 5", give: `{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`, want: "## a\n\n### b\n\n#### c\n\n##### d\n\n- **e:** {\"f\":1}"},
		{name: "root scalar", give: `"# x"`, want: `\# x`},
		{name: "root number", give: `-1.5e3`, want: `-1.5e3`},
		{name: "root scalar array", give: `["a","b"]`, want: "a, b"},
		{name: "empty key", give: `{"":1,"x":{"":2}}`, want: "- **\"\":** 1\n\n## x\n\n- **\"\":** 2"},
		{name: "title", give: `{"a":1}`, opts: Options{Title: "Current\nweather #"}, want: "# Current weather \\#\n\n- **a:** 1"},
		{
			name: "verbose adds descriptions, units and counts",
			give: `{"a":8.1,"b":"x","obj":{"x":1},"rows":[{"k":"a","v":1}]}`,
			opts: verbose,
			want: "- **b:** x — The b field\n- **a:** 8.1 °C\n\n## obj\n\nAn object\n\n- **x:** 1\n\n## rows (1)\n\nRows\n\n" +
				"| v (m) | k |\n| --- | --- |\n| 1 | a |\n\n- **v:** Value",
		},
		{name: "verbose schema title and description", give: `{"a":1}`, opts: Options{Verbosity: negotiation.Verbose, Schema: &Schema{Title: "T", Description: "D"}}, want: "# T\n\nD\n\n- **a:** 1"},
		{name: "no unit on null", give: `{"a":null}`, opts: verbose, want: "- **a:** null"},
		{name: "unset verbosity is standard", give: `{"a":null}`, opts: Options{Verbosity: negotiation.VerbosityUnset}, want: "- **a:** null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.Markdown([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
			requireNoError(t, CheckMarkdown(got))
			requireNoError(t, checkStructure(got))
		})
	}
}

// TestGenericMarkdownHostile puts each hostile string in every place data goes (value, key, table
// cell, table header, list element, heading, title, unit, description) and checks that the output
// keeps Generic's structure.
func TestGenericMarkdownHostile(t *testing.T) {
	for _, h := range hostile {
		t.Run(h, func(t *testing.T) {
			value, err := JSON(map[string]any{
				"v": h, h: 1, "rows": []map[string]any{{"k": h, h: h}, {"k": h, h: 2}},
				"list": []string{h, h}, "obj": map[string]any{h: map[string]any{"x": h}},
			})
			requireNoError(t, err)
			opts := Options{
				Verbosity: negotiation.Verbose, Title: h, Units: map[string]string{"v": h, h: h},
				Schema: &Schema{Description: h, Properties: []Property{{Name: "v", Description: h}, {Name: "obj", Description: h}}},
			}
			for _, v := range []negotiation.Verbosity{negotiation.Compact, negotiation.Standard, negotiation.Verbose} {
				opts.Verbosity = v
				got, err := Generic{}.Markdown(value, opts)
				requireNoError(t, err)
				requireNoError(t, CheckMarkdown(got))
				requireNoError(t, checkStructure(got))
			}
		})
	}
}

func TestGenericMarkdownInvalid(t *testing.T) {
	tests := []struct {
		name string
		give string
	}{
		{name: "truncated", give: `{"a":`},
		{name: "empty", give: ``},
		{name: "two values", give: `1 2`},
		{name: "nested deeper than 10000", give: strings.Repeat("[", 10001) + strings.Repeat("]", 10001)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Generic{}.Markdown([]byte(tt.give), Options{})
			if !errors.Is(err, ErrInvalidJSON) || !strings.HasPrefix(err.Error(), "renderers: markdown: invalid JSON") {
				t.Errorf("Markdown error = %v, want a wrapped ErrInvalidJSON", err)
			}
		})
	}
}

// TestGenericMarkdownBounds renders large and deep values: work stays linear and the output valid.
func TestGenericMarkdownBounds(t *testing.T) {
	tests := []struct {
		name    string
		give    string
		maxSize int
	}{
		{name: "deep objects", give: strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000), maxSize: 40000},
		{name: "deep arrays", give: strings.Repeat(`[`, 9000) + strings.Repeat("]", 9000), maxSize: 40000},
		{name: "huge string", give: `{"s":"` + strings.Repeat("a|", 500000) + `"}`, maxSize: 1600000},
		{name: "wide object", give: `{` + strings.Repeat(`"k":1,`, 20000) + `"z":0}`, maxSize: 300000},
		{name: "long table", give: `[` + strings.Repeat(`{"a":1,"b":"x"},`, 20000) + `{"a":1,"b":"x"}]`, maxSize: 300000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.Markdown([]byte(tt.give), Options{})
			requireNoError(t, err)
			if len(got) > tt.maxSize {
				t.Errorf("output is %d bytes, want at most %d", len(got), tt.maxSize)
			}
			requireNoError(t, CheckMarkdown(got))
		})
	}
}

// tableRows renders md to HTML with goldmark (GFM) and returns the text of every table cell, row
// by row, header first.
func tableRows(t *testing.T, md string) [][]string {
	t.Helper()
	var buf bytes.Buffer
	requireNoError(t, gfmHTML.Convert([]byte(md), &buf))
	var rows [][]string
	for _, tr := range strings.Split(buf.String(), "<tr>")[1:] {
		var row []string
		for _, m := range cellPattern.FindAllStringSubmatch(tr, -1) {
			row = append(row, html.UnescapeString(m[1]))
		}
		rows = append(rows, row)
	}
	return rows
}

var cellPattern = regexp.MustCompile(`<t[hd]>(.*?)</t[hd]>`)

// TestMarkdownTableBrokenByData checks that data ending in a backslash cannot escape the pipe that
// ends its cell (in a row or in the header), at every verbosity.
func TestMarkdownTableBrokenByData(t *testing.T) {
	tests := []struct {
		name string
		give string
		want [][]string
	}{
		{
			name: "cell",
			give: `[{"path":"C:\\temp\\","size":1},{"path":"x","size":2}]`,
			want: [][]string{{"path", "size"}, {`C:\temp\`, "1"}, {"x", "2"}},
		},
		{
			name: "header",
			give: `[{"C:\\temp\\":1,"size":1},{"C:\\temp\\":2,"size":2}]`,
			want: [][]string{{`C:\temp\`, "size"}, {"1", "1"}, {"2", "2"}},
		},
		{
			name: "cell before an empty cell",
			give: `[{"a":"x\\","b":""},{"a":"\\\\","b":"y"}]`,
			want: [][]string{{"a", "b"}, {`x\`, ""}, {`\\`, "y"}},
		},
	}
	for _, tt := range tests {
		for _, v := range []negotiation.Verbosity{negotiation.Compact, negotiation.Standard} {
			t.Run(tt.name+"/"+v.String(), func(t *testing.T) {
				got, err := Generic{}.Markdown([]byte(tt.give), Options{Verbosity: v})
				requireNoError(t, err)
				if diff := cmp.Diff(tt.want, tableRows(t, got)); diff != "" {
					t.Errorf("Markdown(%s) = %q: cells mismatch (-want +got):\n%s", tt.give, got, diff)
				}
			})
		}
	}
}

// TestMarkdownLabelSpace checks that a key starting or ending with Unicode white space keeps its
// bold label (standard) and reads back exactly.
func TestMarkdownLabelSpace(t *testing.T) {
	for _, key := range []string{"\u00a0x", "x\u00a0", "\u2003y z\u2003"} {
		t.Run(key, func(t *testing.T) {
			value, err := JSON(map[string]string{key: "v"})
			requireNoError(t, err)
			got, err := Generic{}.Markdown(value, Options{})
			requireNoError(t, err)
			src := []byte(got)
			doc := gfmParser().Parse(text.NewReader(src))
			var bold string
			_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				if e, ok := n.(*ast.Emphasis); ok && entering && e.Level == 2 && bold == "" {
					for c := e.FirstChild(); c != nil; c = c.NextSibling() {
						if tx, ok := c.(*ast.Text); ok {
							bold += unescapeMarkdown(tx.Segment.Value(src))
						}
					}
				}
				return ast.WalkContinue, nil
			})
			if bold != key+":" {
				t.Errorf("Markdown(%s) = %q: bold label %q, want %q", value, got, bold, key+":")
			}
		})
	}
}

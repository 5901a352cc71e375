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
	labels := &Schema{Properties: []Property{
		{Name: "precipitation_probability"}, {Name: "observedAt"}, {Name: "uv_index"}, {Name: "user_id"},
		{Name: "HTTPStatus"}, {Name: "__init__.py"}, {Name: "a b"}, {Name: "_id"}, {Name: "x__y"}, {Name: "n", Title: "Number\nof *items*"},
	}}
	tests := []struct {
		name string
		give string
		opts Options
		want string
	}{
		{name: "raw key order", give: `{"b":1,"a":"x"}`, want: "- **b:** 1\n- **a:** x"},
		{name: "schema order, extras last", give: `{"c":3,"a":"x","b":1}`, opts: Options{Schema: testSchema}, want: "- **B:** 1\n- **A:** x\n- **c:** 3"},
		{
			name: "labels of declared properties",
			give: `{"precipitation_probability":1,"observedAt":2,"uv_index":3,"user_id":4,"HTTPStatus":5,"n":6,"other_key":7}`,
			opts: Options{Schema: labels},
			want: "- **Precipitation probability:** 1\n- **Observed at:** 2\n- **UV index:** 3\n- **User ID:** 4\n- **HTTP status:** 5\n- **Number of \\*items\\*:** 6\n- **other_key:** 7",
		},
		{
			name: "declared keys that are not names stay as they are",
			give: `{"__init__.py":1,"a b":4,"_id":5,"x__y":6}`,
			opts: Options{Schema: labels},
			want: "- **\\_\\_init\\_\\_.py:** 1\n- **a b:** 4\n- **\\_id:** 5\n- **x__y:** 6",
		},
		{name: "undeclared keys are data", give: `{"README_*draft*.md":2,"C:\\temp\\":3,"content-type":1}`, want: "- **README\\_\\*draft\\*.md:** 2\n- **C:\\temp&#92;:** 3\n- **content-type:** 1"},
		{name: "numbers as written", give: `{"a":1.50,"b":1e400,"c":-0,"d":12345678901234567890}`, want: "- **a:** 1.50\n- **b:** 1e400\n- **c:** -0\n- **d:** 12345678901234567890"},
		{name: "literals and empties", give: `{"a":null,"b":true,"c":"","d":[],"e":{}}`, want: "- **a:** null\n- **b:** true\n- **c:** \"\"\n- **d:** []\n- **e:** {}"},
		{name: "compact drops empties and bold", give: `{"a":null,"b":1,"c":"","d":[],"e":{}}`, opts: compact, want: "- b: 1"},
		{name: "compact of only empties", give: `{"a":null}`, opts: compact, want: "{}"},
		{name: "scalar array", give: `{"tags":["a","b, c","",1,null]}`, want: "- **tags:** a, \"b, c\", \"\", 1, null"},
		{name: "scalars before sections", give: `{"obj":{"x":1},"a":2}`, want: "- **a:** 2\n\n## obj\n\n- **x:** 1"},
		{name: "table", give: `{"rows":[{"k":"a","v":1},{"v":2,"k":"b|c"}]}`, want: "## rows\n\n| k | v |\n| --- | --- |\n| a | 1 |\n| b\\|c | 2 |"},
		{name: "compact table drops empty columns", give: `{"rows":[{"k":"a","v":null},{"k":"b","v":null}]}`, opts: compact, want: "## rows\n\n|k|\n|-|\n|a|\n|b|"},
		{name: "table with null cell", give: `[{"k":null},{"k":1}]`, want: "| k |\n| --- |\n| null |\n| 1 |"},
		{
			name: "records holding arrays are nested lists",
			give: `{"orders":[{"id":"o1","tags":["x","y"],"items":[{"sku":"A","qty":2}],"by":{"name":"Ada"}},{"id":"o2","items":[],"note":null}]}`,
			want: "## orders\n\n- **id:** o1; **tags:** x, y\n  - **items:**\n    - **sku:** A; **qty:** 2\n  - **by:** name: Ada\n- **id:** o2; **items:** []; **note:** null",
		},
		{
			name: "compact records",
			give: `{"orders":[{"id":"o1","items":[{"sku":"A","qty":2}]},{"id":"o2","items":[],"note":null}]}`,
			opts: compact,
			want: "## orders\n\n- id: o1\n  - items:\n    - sku: A; qty: 2\n- id: o2",
		},
		{name: "non-uniform array", give: `{"list":[{"a":1},{"b":2},3]}`, want: "## list\n\n- **a:** 1\n- **b:** 2\n- 3"},
		{name: "record without scalars", give: `[{"a":{"b":[1]}},{"c":[{"d":{"e":1}}]}]`, want: "- Item 1\n  - **a:** b: 1\n- Item 2\n  - **c:**\n    - Item 1\n      - **d:** e: 1"},
		{name: "array of arrays", give: `[[1,2],[],[[3],[{"a":1}]]]`, want: "- 1, 2\n- []\n- Item 3\n  - 3\n  - Item 2\n    - **a:** 1"},
		{name: "nested objects", give: `{"a":{"b":{"c":1}}}`, want: "## a\n\n### b\n\n- **c:** 1"},
		{name: "sections stop at level 4", give: `{"a":{"b":{"c":{"d":{"e":{"f":1},"g":2}}}}}`, want: "## a\n\n### b\n\n#### c\n\n- **d:**\n  - **e:** f: 1\n  - **g:** 2"},
		{name: "root scalar", give: `"# x"`, want: `\# x`},
		{name: "root number", give: `-1.5e3`, want: `-1.5e3`},
		{name: "root scalar array", give: `["a","b"]`, want: "a, b"},
		{name: "empty key", give: `{"":1,"x":{"":2}}`, want: "- **\"\":** 1\n\n## x\n\n- **\"\":** 2"},
		{name: "title", give: `{"a":1}`, opts: Options{Title: "Current\nweather #"}, want: "# Current weather \\#\n\n- **a:** 1"},
		{
			name: "verbose adds descriptions, units and counts",
			give: `{"a":8.1,"b":"x","obj":{"x":1},"rows":[{"k":"a","v":1}]}`,
			opts: verbose,
			want: "- **B:** x — The b field\n- **A:** 8.1 °C\n\n## Obj\n\nAn object\n\n- **X:** 1\n\n## Rows (1)\n\nRows\n\n" +
				"| V (m) | K |\n| --- | --- |\n| 1 | a |\n\n- **V:** Value",
		},
		{name: "verbose schema title and description", give: `{"a":1}`, opts: Options{Verbosity: negotiation.Verbose, Schema: &Schema{Title: "T", Description: "D"}}, want: "# T\n\nD\n\n- **a:** 1"},
		{name: "no unit on null", give: `{"a":null}`, opts: verbose, want: "- **A:** null"},
		{name: "units at every verbosity", give: `{"a":8.1,"rows":[{"v":1}]}`, opts: Options{Verbosity: negotiation.Compact, Units: verbose.Units}, want: "- a: 8.1 °C\n\n## rows\n\n|v (m)|\n|-|\n|1|"},
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
			value, err := encodeJSON(map[string]any{
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
			value, err := encodeJSON(map[string]string{key: "v"})
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

// TestMarkdownForPeople checks what makes generic markdown readable: schema titles, units from
// the schema or the options (a unit-spelling last word dropped from the label), and percentages
// for "%" units and schema fractions, exactly, in lists and tables.
func TestMarkdownForPeople(t *testing.T) {
	schema, err := ParseSchema([]byte(`{"type":"object","properties":{
		"high_c":{"type":"number","unit":"°C"},
		"precipitation_probability":{"type":"number"},
		"share":{"type":"number","minimum":0,"maximum":1},
		"ratio":{"type":"number"},
		"humidity_percent":{"type":"integer","x-unit":"%"},
		"ttl_s":{"type":"integer","title":"Time to live","unit":"s"},
		"days":{"type":"array","items":{"type":"object","properties":{
			"high_c":{"type":"number","unit":"°C"},"chance":{"type":"number","title":"Chance of rain","maximum":1,"minimum":0}}}}}}`))
	requireNoError(t, err)
	tests := []struct {
		name string
		give string
		opts Options
		want string
	}{
		{
			name: "list",
			give: `{"high_c":8.5,"precipitation_probability":0.155,"share":1,"ratio":0.5,"humidity_percent":82,"ttl_s":300}`,
			opts: Options{Schema: schema},
			want: "- **High:** 8.5 °C\n- **Precipitation probability:** 15.5%\n- **Share:** 100%\n- **Ratio:** 0.5\n- **Humidity:** 82%\n- **Time to live:** 300 s",
		},
		{
			name: "out of range or exponent stays a number",
			give: `{"precipitation_probability":1.5,"share":1e-1}`,
			opts: Options{Schema: schema},
			want: "- **Precipitation probability:** 1.5\n- **Share:** 1e-1",
		},
		{
			name: "table",
			give: `{"days":[{"high_c":8,"chance":0.07},{"high_c":-1.5,"chance":0}]}`,
			opts: Options{Schema: schema},
			want: "## Days\n\n| High (°C) | Chance of rain |\n| --- | --- |\n| 8 | 7% |\n| -1.5 | 0% |",
		},
		{
			name: "options units win",
			give: `{"high_c":8,"wind_speed_kmh":10.4}`,
			opts: Options{Schema: schema, Units: map[string]string{"high_c": "K", "wind_speed_kmh": "km/h"}},
			want: "- **High c:** 8 K\n- **wind_speed_kmh:** 10.4 km/h",
		},
		{
			name: "no schema, no percentage",
			give: `{"precipitation_probability":0.15}`,
			want: "- **precipitation_probability:** 0.15",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.Markdown([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

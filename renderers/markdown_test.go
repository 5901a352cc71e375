package renderers

import (
	"bytes"
	"errors"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
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
	compact := Options{Verbosity: format.Compact}
	verbose := Options{Verbosity: format.Verbose, Schema: testSchema, Units: map[string]string{"a": "°C", "v": "m"}}
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
		{name: "raw key order", give: `{"b":1,"a":"x"}`, want: "- **B:** 1\n- **A:** x"},
		{name: "schema order, extras last", give: `{"c":3,"a":"x","b":1}`, opts: Options{Schema: testSchema}, want: "- **B:** 1\n- **A:** x\n- **C:** 3"},
		{
			name: "labels of declared properties",
			give: `{"precipitation_probability":1,"observedAt":2,"uv_index":3,"user_id":4,"HTTPStatus":5,"n":6,"other_key":7}`,
			opts: Options{Schema: labels},
			want: "- **Precipitation probability:** 1\n- **Observed at:** 2\n- **UV index:** 3\n- **User ID:** 4\n- **HTTP status:** 5\n- **Number of \\*items\\*:** 6\n- **Other key:** 7",
		},
		{
			name: "declared keys that are not names stay as they are",
			give: `{"__init__.py":1,"a b":4,"_id":5,"x__y":6}`,
			opts: Options{Schema: labels},
			want: "- **\\_\\_init\\_\\_.py:** 1\n- **a b:** 4\n- **\\_id:** 5\n- **x__y:** 6",
		},
		{name: "undeclared keys are data", give: `{"README_*draft*.md":2,"C:\\temp\\":3,"content-type":1}`, want: "- **README\\_\\*draft\\*.md:** 2\n- **C:\\temp&#92;:** 3\n- **content-type:** 1"},
		{name: "numbers as written", give: `{"a":1.50,"b":1e400,"c":-0,"d":12345678901234567890}`, want: "- **A:** 1.50\n- **B:** 1e400\n- **C:** -0\n- **D:** 12345678901234567890"},
		{name: "literals and empties", give: `{"a":null,"b":true,"c":"","d":[],"e":{}}`, want: "- **A:** none\n- **B:** true\n- **C:** \"\"\n- **D:** empty list\n- **E:** empty object"},
		{name: "compact drops empties and bold", give: `{"a":null,"b":1,"c":"","d":[],"e":{}}`, opts: compact, want: "- B: 1"},
		{name: "compact of only empties", give: `{"a":null}`, opts: compact, want: "none"},
		{name: "scalar array", give: `{"tags":["a","b, c","",1,null]}`, want: "- **Tags:** a, \"b, c\", \"\", 1, none"},
		{name: "scalars before sections", give: `{"obj":{"x":1},"a":2}`, want: "- **A:** 2\n\n## Obj\n\n- **X:** 1"},
		{name: "table", give: `{"rows":[{"k":"a","v":1},{"v":2,"k":"b|c"}]}`, want: "## Rows\n\n| K | V |\n| --- | --- |\n| a | 1 |\n| b\\|c | 2 |"},
		{name: "compact table drops empty columns", give: `{"rows":[{"k":"a","v":null},{"k":"b","v":null}]}`, opts: compact, want: "## Rows\n\n|K|\n|-|\n|a|\n|b|"},
		{name: "table with null cell", give: `[{"k":null},{"k":1}]`, want: "| K |\n| --- |\n| none |\n| 1 |"},
		{
			name: "records holding arrays: labelled lines, line items as a table",
			give: `{"orders":[{"id":"o1","tags":["x","y"],"items":[{"sku":"A","qty":2}],"by":{"name":"Ada"}},{"id":"o2","items":[],"note":null}]}`,
			want: "## Orders\n\n- **ID:** o1\\\n  **Tags:** x, y\\\n  **Items:**\n\n  | SKU | Qty |\n  | --- | --- |\n  | A | 2 |\n\n" +
				"  **By:**\n  - **Name:** Ada\n- **ID:** o2\\\n  **Items:** empty list\\\n  **Note:** none",
		},
		{
			name: "compact records",
			give: `{"orders":[{"id":"o1","items":[{"sku":"A","qty":2}]},{"id":"o2","items":[],"note":null}]}`,
			opts: compact,
			want: "## Orders\n\n- ID: o1\\\n  Items:\n\n  |SKU|Qty|\n  |-|-|\n  |A|2|\n- ID: o2",
		},
		{name: "non-uniform array", give: `{"list":[{"a":1},{"b":2},3]}`, want: "## List\n\n- **A:** 1\n- **B:** 2\n- 3"},
		{name: "record without scalars", give: `[{"a":{"b":[1]}},{"c":[{"d":{"e":1}}]}]`, want: "- **A:**\n  - **B:** 1\n- **C:**\n  - **D:**\n    - **E:** 1"},
		{
			name: "array of arrays: each level a list level, rows of scalars inline",
			give: `[[1,2],[],[[3],[{"a":1}]]]`,
			want: "- 1, 2\n- empty list\n- Item 3\n  - 3\n  - Item 2\n\n    | A |\n    | --- |\n    | 1 |",
		},
		{name: "nested objects", give: `{"a":{"b":{"c":1}}}`, want: "## A\n\n### B\n\n- **C:** 1"},
		{name: "sections stop at level 4", give: `{"a":{"b":{"c":{"d":{"e":{"f":1},"g":2}}}}}`, want: "## A\n\n### B\n\n#### C\n\n- **D:**\n  - **E:**\n    - **F:** 1\n  - **G:** 2"},
		{name: "root scalar", give: `"# x"`, want: `\# x`},
		{name: "root number", give: `-1.5e3`, want: `-1.5e3`},
		{name: "root scalar array", give: `["a","b"]`, want: "a, b"},
		{name: "empty key", give: `{"":1,"x":{"":2}}`, want: "- **\"\":** 1\n\n## x\n\n- **\"\":** 2"},
		{name: "title", give: `{"a":1}`, opts: Options{Title: "Current\nweather #"}, want: "# Current weather \\#\n\n- **A:** 1"},
		{
			name: "verbose adds descriptions, units and counts",
			give: `{"a":8.1,"b":"x","obj":{"x":1},"rows":[{"k":"a","v":1}]}`,
			opts: verbose,
			want: "- **B:** x — The b field\n- **A:** 8.1 °C\n\n## Obj\n\nAn object\n\n- **X:** 1\n\n## Rows (1)\n\nRows\n\n" +
				"| V (m) | K |\n| --- | --- |\n| 1 | a |\n\n- **V:** Value",
		},
		{name: "verbose schema title and description", give: `{"a":1}`, opts: Options{Verbosity: format.Verbose, Schema: &Schema{Title: "T", Description: "D"}}, want: "# T\n\nD\n\n- **A:** 1"},
		{name: "no unit on null", give: `{"a":null}`, opts: verbose, want: "- **A:** none"},
		{name: "units at every verbosity", give: `{"a":8.1,"rows":[{"v":1}]}`, opts: Options{Verbosity: format.Compact, Units: verbose.Units}, want: "- A: 8.1 °C\n\n## Rows\n\n|V (m)|\n|-|\n|1|"},
		{name: "unset verbosity is standard", give: `{"a":null}`, opts: Options{Verbosity: format.Verbosity(0)}, want: "- **A:** none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.markdown([]byte(tt.give), tt.opts)
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
				Verbosity: format.Verbose, Title: h, Units: map[string]string{"v": h, h: h},
				Schema: &Schema{Description: h, Properties: []Property{{Name: "v", Description: h}, {Name: "obj", Description: h}}},
			}
			for _, v := range []format.Verbosity{format.Compact, format.Standard, format.Verbose} {
				opts.Verbosity = v
				got, err := Generic{}.markdown(value, opts)
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
			_, err := Generic{}.markdown([]byte(tt.give), Options{})
			if !errors.Is(err, errInvalidJSON) || !strings.HasPrefix(err.Error(), "renderers: markdown: invalid JSON") {
				t.Errorf("Markdown error = %v, want a wrapped errInvalidJSON", err)
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
			got, err := Generic{}.markdown([]byte(tt.give), Options{})
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
		name         string
		give         string
		want         [][]string
		wantStandard [][]string // when it differs from want
	}{
		{
			name: "cell",
			give: `[{"path":"C:\\temp\\","size":1},{"path":"x","size":2}]`,
			want: [][]string{{"Path", "Size"}, {`C:\temp\`, "1"}, {"x", "2"}},
		},
		{
			// Two trailing backslashes would need a character reference: the records are a
			// labelled list (issue 26), and no table is broken.
			name: "cell ending with two backslashes",
			give: `[{"path":"C:\\temp\\\\","size":1},{"path":"x","size":2}]`,
		},
		{
			name: "header",
			give: `[{"C:\\temp\\":1,"size":1},{"C:\\temp\\":2,"size":2}]`,
			want: [][]string{{`C:\temp\`, "size"}, {"1", "1"}, {"2", "2"}},
		},
		{
			name: "cell before an empty cell",
			give: `[{"a":"x\\","b":""},{"a":"\\\\","b":"y"}]`,
		},
		{
			name: "cell with backslashes before an empty cell",
			give: `[{"a":"x\\y","b":""},{"a":"\\\\z","b":"y"}]`,
			want: [][]string{{"A", "B"}, {`x\y`, ""}, {`\\z`, "y"}},
			// standard writes the empty string `""`
			wantStandard: [][]string{{"A", "B"}, {`x\y`, `""`}, {`\\z`, "y"}},
		},
	}
	for _, tt := range tests {
		for _, v := range []format.Verbosity{format.Compact, format.Standard} {
			t.Run(tt.name+"/"+v.String(), func(t *testing.T) {
				got, err := Generic{}.markdown([]byte(tt.give), Options{Verbosity: v})
				requireNoError(t, err)
				want := tt.want
				if v == format.Standard && tt.wantStandard != nil {
					want = tt.wantStandard
				}
				if diff := cmp.Diff(want, tableRows(t, got)); diff != "" {
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
			got, err := Generic{}.markdown(value, Options{})
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
			want: "- **High c:** 8 K\n- **Wind speed:** 10.4 km/h",
		},
		{
			name: "no schema, no percentage",
			give: `{"precipitation_probability":0.15}`,
			want: "- **Precipitation probability:** 0.15",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.markdown([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

// TestMarkdownReadable checks what makes generic markdown read as a person would write it (issue
// 17, defects 2 and 7): a record's fields one per line, line items as a table at any depth, line
// breaks as hard line breaks, empty values as "none" with "" told apart, labels readable without
// a schema, and every level of nested arrays visible.
func TestMarkdownReadable(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "records: one labelled line per field, keys readable without a schema",
			give: `{"entities":[{"name":"Zoë","entityType":"person","observations":["since 2024","role=admin"]},{"name":"Bob","entity_type":"bot","observations":[]}]}`,
			want: "## Entities\n\n- **Name:** Zoë\\\n  **Entity type:** person\\\n  **Observations:** since 2024, role=admin\n" +
				"- **Name:** Bob\\\n  **Entity type:** bot\\\n  **Observations:** empty list",
		},
		{
			name: "line items of a record in a list are a table",
			give: `[{"id":"o1","lines":[{"sku":"A1","qty":1},{"sku":"B7","qty":2}],"total":9.5}]`,
			want: "- **ID:** o1\\\n  **Total:** 9.5\\\n  **Lines:**\n\n  | SKU | Qty |\n  | --- | --- |\n  | A1 | 1 |\n  | B7 | 2 |",
		},
		{
			name: "line items below the section levels are a table",
			give: `{"a":{"b":{"c":{"d":{"lines":[{"sku":"A1"}],"n":1}}}}}`,
			want: "## A\n\n### B\n\n#### C\n\n- **D:**\n  - **Lines:**\n\n    | SKU |\n    | --- |\n    | A1 |\n  - **N:** 1",
		},
		{
			name: "line breaks are hard line breaks",
			give: `{"body":"line 1  \nline 2\n\nend\n","path":"C:\\temp\\\n# next"}`,
			want: "- **Body:** line 1  \\\n  line 2\\\n  \\\n  end&#10;\n- **Path:** C:\\temp&#92;\\\n  \\# next",
		},
		{
			name: "preformatted text is a code block",
			give: `[{"listing":"[DIR] cmd      \n  <b>*x*</b>\n` + "```" + `\n","n":1},{"n":2}]`,
			want: "- **Listing:**\n  ````\n  [DIR] cmd      \n    <b>*x*</b>\n  ```\n  \n  ````\n  **N:** 1\n- **N:** 2",
		},
		{
			name: "line breaks in a record's field continue under it",
			give: `[{"note":"a\nb","n":1},{"n":2}]`,
			want: "- **Note:** a\\\n  b\\\n  **N:** 1\n- **N:** 2",
		},
		{name: "a table cell holds one line: records with a line break are a list", give: `[{"k":"a\nb"}]`, want: "- **K:** a\\\n  b"},
		{
			name: "empty values read none, empty list, empty object; the empty string and the word none are quoted",
			give: `{"tags":[],"meta":{},"note":null,"text":"","word":"none","list":["none","",null]}`,
			want: "- **Tags:** empty list\n- **Meta:** empty object\n- **Note:** none\n- **Text:** \"\"\n- **Word:** \"none\"\n- **List:** \"none\", \"\", none",
		},
		{
			name: "empty cells",
			give: `[{"a":null,"b":"","c":"none"},{"a":1,"b":"x","c":"y"}]`,
			want: "| A | B | C |\n| --- | --- | --- |\n| none | \"\" | \"none\" |\n| 1 | x | y |",
		},
		{
			name: "labels of identifiers and acronyms",
			give: `{"entityType":1,"entity_type":2,"EntityType":3,"id":4,"url":5,"uv_index":6,"html_url":7,"fileCount":8}`,
			want: "- **Entity type:** 1\n- **Entity type:** 2\n- **Entity type:** 3\n- **ID:** 4\n- **URL:** 5\n- **UV index:** 6\n- **HTML URL:** 7\n- **File count:** 8",
		},
		{
			name: "keys of a map are data",
			give: `{"dependencies":{"left-pad":"1.3.0","lodash":"4.17.21"},"files":[{"README.md":1,"go_mod":2}]}`,
			want: "## Dependencies\n\n- **left-pad:** 1.3.0\n- **lodash:** 4.17.21\n\n## Files\n\n| README.md | go_mod |\n| --- | --- |\n| 1 | 2 |",
		},
		{
			name: "nested arrays keep every level",
			give: `{"a":{"b":[1,[2,[3]]]},"name":"some longer text so that text is shorter than json"}`,
			want: "- **Name:** some longer text so that text is shorter than json\n\n## A\n\n### B\n\n- 1\n- Item 2\n  - 2\n  - Item 2\n    - 3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.markdown([]byte(tt.give), Options{})
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
			requireNoError(t, CheckMarkdown(got))
			requireNoError(t, checkStructure(got))
			requireNoError(t, readsBack(got, []byte(tt.give), false))
		})
	}
}

// TestMarkdownLineBreaksReadBack checks that text with line breaks, as a field of an object and of
// a record in a list, parses back to the same text (hard line breaks as "\n", or a code block for
// preformatted text) and leaves the labels after it bold.
func TestMarkdownLineBreaksReadBack(t *testing.T) {
	for _, s := range []string{"a\nb", "a\\\nb\\", "a  \nb", "\n\nx\n\n\ny\n", "# a\n- b\n1. c\n---\n===\n    code", "a\n\\", "a\r\nb", "x\n|a|b|\n|-|-|", "x\n\tb", "```\n  ````"} {
		t.Run(s, func(t *testing.T) {
			value, err := encodeJSON(map[string]any{"v": s, "w": 1, "rows": []map[string]any{{"v": s, "w": 2, "x": []int{1}}}})
			requireNoError(t, err)
			got, err := Generic{}.markdown(value, Options{})
			requireNoError(t, err)
			requireNoError(t, checkStructure(got))
			n := 0
			for _, b := range blockTexts(got) {
				if strings.Contains(b, s) {
					n++
				}
			}
			if n != 2 {
				t.Errorf("Markdown(%s) = %q: %d blocks hold %q, want 2 (blocks %q)", value, got, n, s, blockTexts(got))
			}
			if bold := strings.Join(boldTexts(got), " "); bold != "V: W: V: W: X:" {
				t.Errorf("Markdown(%s) = %q: bold %q, want the five labels", value, got, bold)
			}
		})
	}
}

// boldTexts returns the text of every bold span of md, in order.
func boldTexts(md string) []string {
	src := []byte(md)
	doc := gfmParser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if e, ok := n.(*ast.Emphasis); ok && entering && e.Level == 2 {
			var b strings.Builder
			for c := e.FirstChild(); c != nil; c = c.NextSibling() {
				if tx, ok := c.(*ast.Text); ok {
					b.WriteString(unescapeMarkdown(tx.Segment.Value(src)))
				}
			}
			out = append(out, b.String())
		}
		return ast.WalkContinue, nil
	})
	return out
}

// TestMarkdownVerboseRecords checks that verbose shows the schema's descriptions of an array's
// records (their fields and their tables' columns) once, with the first record.
func TestMarkdownVerboseRecords(t *testing.T) {
	schema, err := ParseSchema([]byte(`{"type":"array","items":{"type":"object","properties":{
		"id":{"type":"string","description":"Order id"},
		"lines":{"type":"array","description":"Line items","items":{"type":"object","properties":{
			"sku":{"type":"string","description":"Stock unit"}}}}}}}`))
	requireNoError(t, err)
	got, err := Generic{}.markdown([]byte(`[{"id":"o1","lines":[{"sku":"A"}]},{"id":"o2","lines":[{"sku":"B"}]}]`),
		Options{Verbosity: format.Verbose, Schema: schema})
	requireNoError(t, err)
	want := "- **ID:** o1 — Order id\\\n  **Lines:** — Line items\n\n  | SKU |\n  | --- |\n  | A |\n\n  - **SKU:** Stock unit\n" +
		"- **ID:** o2\\\n  **Lines:**\n\n  | SKU |\n  | --- |\n  | B |"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Markdown mismatch (-want +got):\n%s", diff)
	}
	requireNoError(t, checkStructure(got))
}

package renderers

import (
	"errors"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/google/go-cmp/cmp"
)

func TestGenericText(t *testing.T) {
	compact := Options{Verbosity: format.Compact}
	verbose := Options{Verbosity: format.Verbose, Schema: testSchema, Units: map[string]string{"a": "°C", "v": "m"}}
	tests := []struct {
		name string
		give string
		opts Options
		want string
	}{
		{name: "raw key order", give: `{"b":1,"a":"x"}`, want: "b: 1\na: x"},
		{name: "schema order, extras last", give: `{"c":3,"a":"x","b":1}`, opts: Options{Schema: testSchema}, want: "b: 1\na: x\nc: 3"},
		{name: "numbers as written", give: `{"a":1.50,"b":1e400,"c":12345678901234567890}`, opts: compact, want: "a=1.50 b=1e400 c=12345678901234567890"},
		{name: "literals and empties", give: `{"a":null,"b":false,"c":"","d":[],"e":{}}`, want: "a: null\nb: false\nc: \"\"\nd: []\ne: {}"},
		{name: "compact keeps empties", give: `{"a":null,"b":1,"c":"","d":[],"e":{}}`, opts: compact, want: `a=null b=1 c="" d=[] e={}`},
		{name: "compact of only empties", give: `{"a":""}`, opts: compact, want: `a=""`},
		{name: "nested object", give: `{"a":{"b":{"c":1}},"d":2}`, want: "a:\n  b:\n    c: 1\nd: 2"},
		{name: "scalar array", give: `{"tags":["a","b, c",1,null,""]}`, want: `tags[5]: a, "b, c", 1, null, ""`},
		{name: "compact scalar array", give: `{"tags":["a","b c"]}`, opts: compact, want: `tags[]=a,"b c"`},
		{name: "compact one-element array is not a scalar", give: `{"tags":["a"],"tag":"a"}`, opts: compact, want: "tags[]=a tag=a"},
		{name: "compact strings that read as other values", give: `{"a":["null","true","12","1e5","[]","{}"],"b":"-0"}`, opts: compact, want: `a[]="null","true","12","1e5","[]","{}" b="-0"`},
		{
			name: "compact table",
			give: `{"location":"Bern, Switzerland","days":[{"date":"2026-11-20","high_c":8,"low_c":2,"conditions":"Light rain"},{"date":"2026-11-21","high_c":7,"low_c":-1,"conditions":"Sun, wind"}]}`,
			opts: compact,
			want: "location=\"Bern, Switzerland\"\ndays[]{date,high_c,low_c,conditions}:\n2026-11-20,8,2,Light rain\n2026-11-21,7,-1,\"Sun, wind\"",
		},
		{name: "compact table keeps empty columns", give: `[{"k":"a","v":null},{"k":"b","v":""}]`, opts: compact, want: "[]{k,v}:\na,null\nb,\"\""},
		{name: "compact table null cell", give: `[{"k":null,"v":1},{"k":"b","v":2}]`, opts: compact, want: "[]{k,v}:\nnull,1\nb,2"},
		{name: "compact table of records", give: `{"t":[{"k":"a b","v":[1],"w":{}},{"k":"c","v":{"x":[{"y":1}]},"w":{}}]}`, opts: compact, want: "t[]{k,w}:\na b,{}\n v[]=1\nc,{}\n v:\n  x[]{y}:\n  1"},
		{name: "aligned table", give: `{"t":[{"k":"alpha","v":10},{"k":"long  gap","v":2},{"k":"gamma","v":3}]}`, want: "t[3]:\n  k            v\n  alpha        10\n  \"long  gap\"  2\n  gamma        3"},
		{name: "aligned table counts runes", give: `[{"k":"Zürich","v":1},{"k":"x","v":2}]`, want: "k       v\nZürich  1\nx       2"},
		{name: "non-uniform array", give: `{"list":[{"a":"the first element of the list here"},"the second element of the list here",["the third element","of the list here"],{}]}`, want: "list[4]:\n  1:\n    a: the first element of the list here\n  2: the second element of the list here\n  3[2]: the third element, of the list here\n  4: {}"},
		{name: "small non-uniform array: standard text over 1.1 times the JSON is compact", give: `{"list":[{"a":1},3,[4,5],{}]}`, want: "list[4]:\na=1\n3\n[]=4,5\n{}"},
		{name: "compact non-uniform array keeps every element", give: `{"list":[{"a":1,"b":"x y"},null,3,{},[1,2],{"c":[{"d":1},{"e":2}]}]}`, opts: compact, want: "list[6]:\na=1 b=\"x y\"\nnull\n3\n{}\n[]=1,2\n6:\n c[2]:\n d=1\n e=2"},
		{name: "compact flat object on one line", give: `{"o":{"a":"x=y","b":"","c":[1,2],"d 1":2}}`, opts: compact, want: `o: a="x=y" b="" c[]=1,2 "d 1"=2`},
		{name: "compact list in a line of pairs", give: `{"o":{"a":["x y","p=q","r,s"],"b":1}}`, opts: compact, want: `o: a[]="x y","p=q","r,s" b=1`},
		{name: "compact larger than JSON gives the JSON", give: `{"a":{"b":{"c":{"d":{"e":{"f":[{"g":{"h":[1]}}]}}}}}}`, opts: compact, want: `{"a":{"b":{"c":{"d":{"e":{"f":[{"g":{"h":[1]}}]}}}}}}`},
		{name: "root scalar array", give: `["a","- b"]`, want: "a, - b"},
		{name: "root scalar array at line start", give: `["- a","b"]`, want: `"- a", b`},
		{name: "compact root scalar array", give: `["a","b"]`, opts: compact, want: "[]=a,b"},
		{name: "root non-uniform array", give: `[{"a":"the first element of the list"},"the second element of the list"]`, want: "1:\n  a: the first element of the list\n2: the second element of the list"},
		{name: "root scalar", give: `"plain"`, want: "plain"},
		{name: "root block syntax quoted", give: `"# x"`, want: `"# x"`},
		{name: "title and blank line", give: `{"a":1}`, opts: Options{Title: "Weather\nnow"}, want: "Weather now\n\na: 1"},
		{name: "compact title without blank line", give: `{"a":1}`, opts: Options{Title: "1. W", Verbosity: format.Compact}, want: "\"1. W\"\na=1"},
		{
			name: "verbose adds descriptions and units",
			give: `{"a":8.1,"b":"x","obj":{"x":1},"rows":[{"k":"a","v":1}]}`,
			opts: verbose,
			want: "b: x — The b field\na: 8.1 °C\nobj: — An object\n  x: 1\nrows[1]: — Rows\n  v (m)  k\n  1      a",
		},
		{name: "deep value minified", give: strings.Repeat(`{"a":`, 33) + "1" + strings.Repeat("}", 33), opts: compact, want: strings.Repeat(`{"a":`, 33) + "1" + strings.Repeat("}", 33)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.text([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

// TestGenericTextQuoting checks each reason a value is quoted, and that the output stays plain.
func TestGenericTextQuoting(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{name: "newline", give: `{"k":"a\nb"}`, want: `k: "a\nb"`},
		{name: "leading and trailing blanks", give: `{"k":" a "}`, want: `k: " a "`},
		{name: "leading quote", give: `{"k":"\"a\" b"}`, want: `k: "\"a\" b"`},
		{name: "inner quote quoted", give: `{"k":"a \"b\""}`, want: `k: "a \"b\""`},
		{name: "equals sign quoted", give: `{"k":"role=admin"}`, want: `k: "role=admin"`},
		{name: "strings that read as other values quoted", give: `{"a":"12","b":"null","c":12,"d":"[x]","e":"01"}`, want: "a: \"12\"\nb: \"null\"\nc: 12\nd: \"[x]\"\ne: 01"},
		{name: "the issue's list in standard text", give: `{"observations":["maintainer since 2024","role=admin verified=true"]}`, want: `observations[2]: maintainer since 2024, "role=admin verified=true"`},
		{name: "escape sequence", give: `{"k":"\u001b[31mred"}`, want: `k: "\u001b[31mred"`},
		{name: "bidi override", give: `{"k":"a\u202eb"}`, want: `k: "a\u202eb"`},
		{name: "line separator", give: `{"k":"a\u2028b"}`, want: `k: "a\u2028b"`},
		{name: "inline markup kept verbatim", give: `{"k":"*a* [l](u) <b>"}`, want: "k: *a* [l](u) <b>"},
		{name: "block syntax mid-line kept", give: `{"k":"# x"}`, want: "k: # x"},
		{name: "heading key", give: `{"# x":1}`, want: `"# x": 1`},
		{name: "list key", give: `{"- x":1}`, want: `"- x": 1`},
		{name: "ordered list key", give: `{"1. x":1}`, want: `"1. x": 1`},
		{name: "ordered list paren key", give: `{"2) x":1}`, want: `"2) x": 1`},
		{name: "quote key", give: `{"> x":1}`, want: `"> x": 1`},
		{name: "thematic break key", give: `{"***":1}`, want: `"***": 1`},
		{name: "setext key", give: `{"===":1}`, want: `"===": 1`},
		{name: "fence key", give: "{\"```go\":1}", want: "\"```go\": 1"},
		{name: "html key", give: `{"<div>":1}`, want: `"<div>": 1`},
		{name: "tilde fence key", give: `{"~~~":1}`, want: `"~~~": 1`},
		{name: "table key", give: `{"|a|":1}`, want: `"|a|": 1`},
		{name: "link definition key", give: `{"[a]":1}`, want: `"[a]": 1`},
		{name: "delimiter key", give: `{":--":1}`, want: `":--": 1`},
		{name: "separator in key", give: `{"a: b":1,"c=d":2}`, want: "\"a: b\": 1\n\"c=d\": 2"},
		{name: "empty key", give: `{"":1}`, want: `"": 1`},
		{name: "harmless key", give: `{"-5":1,"#tag":2,"1.5":3}`, want: "-5: 1\n#tag: 2\n1.5: 3"},
		{name: "first cell block syntax", give: `[{"k":"- a","v":"- b"}]`, want: "k      v\n\"- a\"  - b"},
		{name: "invalid UTF-8", give: "{\"k\":\"a\xffb\"}", want: "k: a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.text([]byte(tt.give), Options{})
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

// TestGenericTextLineStarts puts block syntax everywhere data goes in text (keys, values, first
// cells, root values, titles) at every verbosity and checks that a markdown parser finds only
// plain text. The strings avoid characters that pair into inline markup ('*' or '_' next to a
// word, '`', a complete HTML tag): text keeps those verbatim, by design.
func TestGenericTextLineStarts(t *testing.T) {
	starts := []string{
		"# x", "## x", "> q", "- x", "+ x", "* x", "1. x", "1) x", "---", "- - -", "===",
		"~~~", "| a |", ":--", "<div", "<!-- x", "    indented", "\tx", "[a]: /u", "-", "#", "2.",
	}
	for _, s := range starts {
		t.Run(s, func(t *testing.T) {
			value, err := encodeJSON(map[string]any{
				s: s, "x": map[string]any{s: []any{s, s}}, "rows": []map[string]any{{"k": s}, {"k": s}},
				"deep": map[string]any{"d": map[string]any{s: map[string]any{s: s}}},
			})
			requireNoError(t, err)
			for _, v := range []format.Verbosity{format.Compact, format.Standard, format.Verbose} {
				got, err := Generic{}.text(value, Options{Verbosity: v, Title: s})
				requireNoError(t, err)
				requireNoError(t, CheckPlain(got))
				root, err := Generic{}.text([]byte(`[`+string(mustJSON(t, s))+`]`), Options{Verbosity: v})
				requireNoError(t, err)
				requireNoError(t, CheckPlain(root))
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := encodeJSON(v)
	requireNoError(t, err)
	return b
}

func TestGenericTextInvalid(t *testing.T) {
	tests := []struct {
		name string
		give string
	}{
		{name: "truncated", give: `[1,`},
		{name: "bare word", give: `nope`},
		{name: "nested deeper than 10000", give: strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Generic{}.text([]byte(tt.give), Options{})
			if !errors.Is(err, errInvalidJSON) || !strings.HasPrefix(err.Error(), "renderers: text: invalid JSON") {
				t.Errorf("Text error = %v, want a wrapped errInvalidJSON", err)
			}
		})
	}
}

func TestGenericTextBounds(t *testing.T) {
	tests := []struct {
		name    string
		give    string
		maxSize int
	}{
		{name: "deep objects", give: strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000), maxSize: 60000},
		{name: "huge string", give: `{"s":"` + strings.Repeat(`a\n`, 500000) + `"}`, maxSize: 1600000},
		{name: "long table", give: `[` + strings.Repeat(`{"a":1,"b":"x"},`, 20000) + `{"a":1,"b":"x"}]`, maxSize: 200000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.text([]byte(tt.give), Options{})
			requireNoError(t, err)
			if len(got) > tt.maxSize {
				t.Errorf("output is %d bytes, want at most %d", len(got), tt.maxSize)
			}
		})
	}
}

// TestGenericTextNoBlankRow checks that a one-column table whose cell is null writes "null" rather
// than a line of indentation, after which the next indented line would read as a code block.
func TestGenericTextNoBlankRow(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "nested one-column table, null first row",
			give: `{"a":{"b":{"rows":[{"k":null},{"k":"x"}]}}}`,
			want: "a:\n b:\n  rows[]{k}:\n  null\n  x",
		},
		{name: "root one-column table", give: `[{"k":null},{"k":null}]`, want: "[]{k}:\nnull\nnull"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.text([]byte(tt.give), Options{Verbosity: format.Compact})
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
			requireNoError(t, CheckPlain(got))
		})
	}
}

package renderers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
)

// compactText renders value as generic compact text.
func compactText(t testing.TB, value string, schema *Schema) string {
	t.Helper()
	out, err := Generic{}.Render([]byte(value), Options{MediaType: format.Text.MediaType, Verbosity: format.Compact, Schema: schema})
	if err != nil {
		t.Fatalf("render %q: %v", value, err)
	}
	return out
}

// checkRoundTrip renders value as compact text and decodes the text: it must give the same value.
func checkRoundTrip(t testing.TB, value string, schema *Schema) string {
	t.Helper()
	want, err := ctDecodeJSON([]byte(value))
	if err != nil {
		t.Fatalf("decode the value %q: %v", value, err)
	}
	out := compactText(t, value, schema)
	got, err := decodeCompact(out)
	if err != nil {
		t.Fatalf("compact text of %q does not decode: %v\n%s", value, err, out)
	}
	if !equalJSON(got, want) {
		t.Fatalf("compact text of %q decodes to another value:\n%s\ngot  %#v\nwant %#v", value, out, got, want)
	}
	return out
}

// compactEdgeCases are values whose compact text must read back exactly.
var compactEdgeCases = []string{
	`null`, `true`, `false`, `0`, `-0`, `1e-7`, `12345678901234567890`, `1.50`, `1E+400`,
	`""`, `" "`, `"x"`, `"null"`, `"true"`, `"false"`, `"12"`, `"-0"`, `"1e5"`, `"01"`, `"+1"`,
	`"[]"`, `"{}"`, `"[1]=2"`, `"a:"`, `"1:"`, `"a=b"`, `"say \"hi\""`, `"a,b"`, `"a b"`,
	`"# not a heading"`, `"- not a list"`, `"1. x"`, `"---"`, `"line\nbreak"`, `"tab\there"`,
	`"\u0000\u001b[31m"`, `"\u2028\u202e"`, `"Zoë 日本"`, `"\\"`, `"C:\\temp\\"`, `"<b>"`, `"|a|"`,
	`[]`, `{}`, `[[]]`, `[{}]`, `{"":""}`, `{"a":{}}`, `{"a":[]}`, `[null]`, `[""]`, `["x"]`, `[[1]]`,
	`{"entities":null,"relations":null}`,
	`{"a":"","b":null,"c":[],"d":{},"e":[null,""],"f":"null","g":"12"}`,
	`{"a":{"b":[1,[2,[3]]]},"name":"some longer text so that text is shorter than json, some more"}`,
	`[1,[2,[3,[4,[5]]]],"x",{"k":"v"},[],{},null,""]`,
	`[[{"a":1},{"a":2}],[{"a":3}]]`,
	`[{"a":{"b":{"c":1}}},{"d":[{"e":[1,{"f":2}]}]}]`,
	`{"k":[{"x":[{"y":[]}]}]}`,
	`{"entities":[{"name":"Zoë","observations":["maintainer since 2024","role=admin verified=true"]},{"name":"Bob","observations":["x"]}]}`,
	`{"snippets":["# not a heading","- not a list"],"observationsCount":3}`,
	`{"rows":[{"a":1,"b":null},{"a":null,"b":"x,y"},{"a":"","b":"- z"}]}`,
	`{"rows":[{"a":null},{"a":null}]}`,
	`[{"# h":1,"- l":2},{"# h":3,"- l":4}]`,
	`{"a b":{"c d":"e f","g=h":"i"},"\"q\"":1,"[k]":2,"k:":3,"{x}":4,"x,y":5," lead":6}`,
	`{"o":{"p":"v w","q":["a b","c,d",""],"r":{}}}`,
	`{"o":[{"p":{"q":{"r":{}}}},{"p":[]}]}`,
	`[{"a":1,"a":2}]`, `{"a":1,"a":{"b":2}}`,
	`{"":[{"":{"":{}},"":[]}]}`, `[{"k":[1],"k":2,"v":3},{"k":4,"v":5}]`, `[{"k":{"x":1},"k":2},3]`, // a key repeated after a member that is not a cell
	`{"text":"line one\nline two\n# heading?\n- item?\n    code?"}`,
	`{"deep":` + strings.Repeat("[", 40) + "1" + strings.Repeat("]", 40) + "}",
	`{"u":"\ud83d\ude00","bad":"\ud800"}`,
	`{"\ud800\u0000":"\udc00\u0000","x":"\uD800\u0041"}`, // gjson pairs a lone surrogate with the next escape
	// tables without a count, a row's one hoisted table right under it
	`[[{"a":1},{"a":2}],"x",[{"a":null,"b":null},{"a":[],"b":{}}]]`,
	`[{"id":1,"p":[1,2],"items":[{"s":"a"},{"s":null}]},{"id":2,"items":[{"s":"c"}]},{"id":null,"items":[]}]`,
	`[{"id":1,"items":[{"s":"a","t":{"u":[{"v":1},{"v":2}]}},{"s":"b"}]},{"id":2,"items":[{"s":"c"}]}]`,
	`{"t":[{"a":null,"b":"x","l":[null,"y",null]},{"a":"","b":null,"l":[null,null]}],"t2":[{"k":"v:"},{"k":"a=b"}],"after":{"x":1}}`,
	`[{"id":1,"x":[{"a":1},{"a":2}],"y":[{"b":1}]},{"id":2,"x":[{"a":3}],"y":[{"b":2},{"b":3}]},{"id":3,"x":{"a":4},"y":[]}]`,
	`{"a":[{"k":"one two"},{"k":"three"}],"a":1,"b":[{"k":"x"},{"k":"y"}]}`,
	// hoisted headers, folded columns, list columns and lines of pairs
	`[{"id":1,"x":[{"a":1}],"x":[{"a":5}]},{"id":2,"x":[{"a":2}]},{"id":3,"x":[{"b":3}]},{"id":4,"x":[]}]`,
	`[{"id":1,"x":[{"a":1}]},{"id":2,"x":[{"a":2}]},{"id":3,"x":[1,{"a":3}]}]`,
	`[{"n":1,"u":{"l":"a","i":7},"t":["x y","1"]},{"n":2,"u":{"i":8,"l":"b"},"t":["z"]}]`,
	`[{"a.b":1,"c":{"d.e":2,"":""}},{"a.b":3,"c":{"d.e":4,"":null}}]`,
	`{"a":1,"b":"x y","c":{"d":[{"e":1},{"e":2}]},"f":"p q","g":["h i"],"j":"k=l"}`,
}

func TestCompactTextRoundTrip(t *testing.T) {
	for _, value := range compactEdgeCases {
		t.Run(value, func(t *testing.T) {
			out := checkRoundTrip(t, value, nil)
			if err := CheckPlain(out); err != nil && !strings.ContainsAny(value, "*_`<[|~") {
				t.Errorf("compact text of %q is not plain: %v\n%s", value, err, out)
			}
		})
	}
}

// ctCorpusValues returns the values of testdata/corpus (not the schemas) by name, with their schemas.
func ctCorpusValues(t testing.TB) map[string][2][]byte {
	t.Helper()
	paths, err := filepath.Glob("../testdata/corpus/*.json")
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string][2][]byte)
	for _, p := range paths {
		if strings.HasSuffix(p, ".schema.json") {
			continue
		}
		value, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		schema, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".schema.json")
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = [2][]byte{value, schema}
	}
	if len(out) == 0 {
		t.Fatal("no corpus items")
	}
	return out
}

// TestCompactTextRoundTripCorpus reads the compact text of every corpus value back, with and
// without its schema (which only orders the members).
func TestCompactTextRoundTripCorpus(t *testing.T) {
	for name, item := range ctCorpusValues(t) {
		t.Run(name, func(t *testing.T) {
			checkRoundTrip(t, string(item[0]), nil)
			if item[1] == nil {
				return
			}
			schema, err := ParseSchema(item[1])
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, string(item[0]), schema)
		})
	}
}

// TestCompactTextIssue17 holds the reproducers of issue 17's compact text defects.
func TestCompactTextIssue17(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "the issue's list: every element that holds '=' is quoted (a list column's items are cells)",
			give: `{"entities":[{"name":"Zoë","observations":["maintainer since 2024","role=admin verified=true"]},{"name":"Bob","observations":["x"]}]}`,
			want: "entities[]{name,observations[]}:\nZoë,maintainer since 2024,\"role=admin verified=true\"\nBob,x",
		},
		{
			name: "a list in a line of pairs quotes every element that holds a space or '='",
			give: `{"entity":{"name":"Zoë","observations":["maintainer since 2024","role=admin verified=true"]}}`,
			want: "entity: name=Zoë observations[]=\"maintainer since 2024\",\"role=admin verified=true\"",
		},
		{
			name: "list elements that look like markdown blocks",
			give: `{"entities":[{"snippets":["# not a heading","- not a list"],"observationsCount":3},{"snippets":[],"observationsCount":0}]}`,
			want: "entities[2]:\nsnippets[]=\"# not a heading\",\"- not a list\" observationsCount=3\nsnippets=[] observationsCount=0",
		},
		{
			name: "a line of pairs with lists that look like markdown blocks",
			give: `{"entity":{"snippets":["# not a heading","- not a list"],"observationsCount":3}}`,
			want: "entity: snippets[]=\"# not a heading\",\"- not a list\" observationsCount=3",
		},
		{
			name: "nested arrays: the issue's value is shorter as its JSON text",
			give: `{"a":{"b":[1,[2,[3]]]},"name":"some longer text so that text is shorter than json"}`,
			want: `{"a":{"b":[1,[2,[3]]]},"name":"some longer text so that text is shorter than json"}`,
		},
		{
			name: "nested arrays keep their levels",
			give: `{"a":{"b":[1,[2,[3]]]},"id":"a1","name":"Ada","role":"admin","team":"core","city":"London","country":"England","lang":"en","plan":"pro"}`,
			want: "id=a1 name=Ada role=admin team=core city=London country=England lang=en plan=pro\na:\n b[2]:\n 1\n [2]=\n  2\n  []=3",
		},
		{
			name: "null and empty members stay",
			give: `{"entities":null,"relations":null}`,
			want: "entities=null relations=null",
		},
		{
			name: "empty string, empty containers and null everywhere",
			give: `{"id":"x","note":"","tags":[],"meta":{},"owner":null,"list":[null,""]}`,
			want: "id=x note=\"\" tags=[] meta={} owner=null list[]=null,\"\"",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkRoundTrip(t, tt.give, nil)
			if got != tt.want {
				t.Errorf("compact text of %s\ngot:\n%s\nwant:\n%s", tt.give, got, tt.want)
			}
		})
	}
}

// TestCompactTextLayout shows the layouts that keep compact text short: a table hoists the header
// of the tables its rows hold, folds an object member whose keys every row shares into "key.sub"
// columns, and takes a list of scalars that every row holds as its last cells; an object writes
// each run of pairable members as one line of pairs; a list of scalars has no count.
func TestCompactTextLayout(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "nested tables with the same columns: the header once, in the outer header",
			give: `{"orders":[{"id":1,"items":[{"sku":"A","qty":1}]},{"id":2,"items":[{"sku":"B","qty":2},{"sku":"C","qty":3}]}]}`,
			want: "orders[]{id,items{sku,qty}}:\n1\n A,1\n2\n B,2\n C,3",
		},
		{
			name: "two hoisted tables: each row's tables under their keys",
			give: `[{"id":1,"l":[{"n":"a"},{"n":"b"}],"m":[{"o":"x"}]},{"id":2,"l":[{"n":"c"}],"m":[{"o":"y"},{"o":"z"}]}]`,
			want: "[]{id,l{n},m{o}}:\n1\n l:\n a\n b\n m:\n x\n2\n l:\n c\n m:\n y\n z",
		},
		{
			name: "a hoisted table beside another member that is not a pair keeps its key",
			give: `[{"id":1,"items":[{"sku":"A"},{"sku":"B"}],"meta":{"x":[{"k":1},{"k":2}]}},{"id":2,"items":[{"sku":"C"}]}]`,
			want: "[]{id,items{sku}}:\n1\n items:\n A\n B\n meta:\n  x[]{k}:\n  1\n  2\n2\n C",
		},
		{
			name: "no hoisting where a row holds an object under the key: \"key:\" would read as its rows",
			give: `[{"id":1,"l":[{"n":"a"}],"m":[{"o":"x"}]},{"id":2,"l":{"n":"c"},"m":[{"o":"y"}]},{"id":3,"l":[{"n":"d"}],"m":[]}]`,
			want: "[]{id,m{o}}:\n1\n l[]{n}:\n a\n m:\n x\n2\n l: n=c\n m:\n y\n3\n m=[]\n l[]{n}:\n d",
		},
		{
			name: "a null cell is null; the empty string is quoted",
			give: `{"t":[{"a":null,"b":"","c":null},{"a":1,"b":null,"c":null}],"u":[{"k":null},{"k":""}],"v":[{"i":1,"l":["x",null]},{"i":null,"l":[null,null]}]}`,
			want: "t[]{a,b,c}:\nnull,\"\",null\n1,null,null\nu[]{k}:\nnull\n\"\"\nv[]{i,l[]}:\n1,x,null\nnull,null,null",
		},
		{
			name: "a nested table with other columns keeps its header; an empty one is []",
			give: `[{"id":1,"x":[{"a":1}]},{"id":2,"x":[{"a":2}]},{"id":3,"x":[{"b":3}]},{"id":4,"x":[]}]`,
			want: "[]{id,x{a}}:\n1\n 1\n2\n 2\n3\n x[]{b}:\n 3\n4\n x=[]",
		},
		{
			name: "no hoisting when a row holds an array that is not a table under that key",
			give: `[{"identifier":1,"x":[{"alpha":1}]},{"identifier":2,"x":[{"alpha":2}]},{"identifier":3,"x":[1,{"alpha":3}]}]`,
			want: "[]{identifier}:\n1\n x[]{alpha}:\n 1\n2\n x[]{alpha}:\n 2\n3\n x[2]:\n 1\n alpha=3",
		},
		{
			name: "nested tables that differ only in a list column or a folded member keep their headers",
			give: `[{"i":1,"x":[{"a":1,"t":["p"]},{"a":2,"t":["q"]}]},{"i":2,"x":[{"a":3,"t":"r"},{"a":4,"t":"s"}]},{"i":3,"x":[{"a":5,"t":{"u":1}},{"a":6,"t":{"u":2}}]}]`,
			want: "[]{i}:\n1\n x[]{a,t[]}:\n 1,p\n 2,q\n2\n x[]{a,t}:\n 3,r\n 4,s\n3\n x[]{a,t.u}:\n 5,1\n 6,2",
		},
		{
			name: "an object with the same keys in every row folds into columns",
			give: `[{"n":1,"user":{"login":"a","id":7}},{"n":2,"user":{"id":8,"login":"b"}}]`,
			want: "[]{n,user.login,user.id}:\n1,a,7\n2,b,8",
		},
		{
			name: "a member beside a folded object keeps its line (found by the fuzzer)",
			give: `[{"u":{"a":1,"b":2},"v":{"c":[1]}},{"u":{"a":3,"b":4},"v":{"c":[2]}}]`,
			want: "[]{u.a,u.b}:\n1,2\n v: c[]=1\n3,4\n v: c[]=2",
		},
		{
			name: "objects with other keys do not fold",
			give: `[{"n":1,"u":{"a":1}},{"n":2,"u":{"b":1}}]`,
			want: "[]{n}:\n1\n u: a=1\n2\n u: b=1",
		},
		{
			name: "a key holding '.' is quoted in a header",
			give: `[{"a.b":1,"c":{"d.e":2}},{"a.b":3,"c":{"d.e":4}}]`,
			want: "[]{\"a.b\",c.\"d.e\"}:\n1,2\n3,4",
		},
		{
			name: "a list in every row is the last column, its items the last cells",
			give: `[{"k":"a","tags":["x y","z"]},{"k":"b","tags":["1"]}]`,
			want: "[]{k,tags[]}:\na,x y,z\nb,\"1\"",
		},
		{
			name: "no list column when a row's list is empty",
			give: `[{"k":"a","t":["x"]},{"k":"b","t":[]}]`,
			want: "[2]=\nk=a t[]=x\nk=b t=[]",
		},
		{
			name: "no list column for one element",
			give: `[{"k":"a","t":["x"]}]`,
			want: "[1]=\nk=a t[]=x",
		},
		{
			name: "pairable members make one line of pairs, before the other members",
			give: `{"a":1,"b":"x y","c":{"d":[{"e":1},{"e":2}]},"f":"p q"}`,
			want: "a=1 b=\"x y\" f=\"p q\"\nc:\n d[]{e}:\n 1\n 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkRoundTrip(t, tt.give, nil)
			if got != tt.want {
				t.Errorf("compact text of %s\ngot:\n%s\nwant:\n%s", tt.give, got, tt.want)
			}
			if err := CheckPlain(got); err != nil {
				t.Errorf("compact text of %s is not plain: %v\n%s", tt.give, err, got)
			}
		})
	}
}

// TestCompactTextNilSlice: a Go nil slice marshals as null, an empty one as []; compact text keeps
// each as it is, as every other layout does.
func TestCompactTextNilSlice(t *testing.T) {
	type result struct {
		Entities  []string `json:"entities"`
		Relations []string `json:"relations"`
	}
	raw, err := json.Marshal(result{Relations: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []format.Verbosity{format.Compact, format.Standard, format.Verbose} {
		out, err := Generic{}.Render(raw, Options{MediaType: format.Text.MediaType, Verbosity: v})
		if err != nil {
			t.Fatal(err)
		}
		want := "entities: null\nrelations: []"
		if v == format.Compact {
			want = "entities=null relations=[]"
		}
		if out != want {
			t.Errorf("%v: got %q, want %q", v, out, want)
		}
	}
}

// TestCompactTextJSONEscape: where the layout would be longer than the minified JSON, the text is
// the JSON itself, which the grammar reads as the value.
func TestCompactTextJSONEscape(t *testing.T) {
	const give = `{"a":{"b":[1,[2,[3]]]}}`
	if got := checkRoundTrip(t, give, nil); got != give {
		t.Errorf("got %q, want the JSON %q", got, give)
	}
}

// FuzzCompactTextRoundTrip renders arbitrary JSON as compact text and decodes it: the value must
// come back exactly (numbers by their digits, strings byte for byte, as encoding/json reads them).
func FuzzCompactTextRoundTrip(f *testing.F) {
	for _, v := range compactEdgeCases {
		f.Add([]byte(v))
	}
	for _, item := range ctCorpusValues(f) {
		f.Add(item[0])
	}
	f.Fuzz(func(t *testing.T, value []byte) {
		want, err := ctDecodeJSON(value)
		if err != nil || validate(value) != nil {
			if _, rerr := (Generic{}).Render(value, Options{MediaType: format.Text.MediaType, Verbosity: format.Compact}); rerr == nil && err != nil {
				t.Fatalf("invalid JSON %q rendered without an error", value)
			}
			t.Skip()
		}
		out := compactText(t, string(value), nil)
		got, err := decodeCompact(out)
		if err != nil {
			t.Fatalf("compact text of %q does not decode: %v\n%s", value, err, out)
		}
		if !equalJSON(got, want) {
			t.Fatalf("compact text of %q decodes to another value:\n%s\ngot  %#v\nwant %#v", value, out, got, want)
		}
	})
}

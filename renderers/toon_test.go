package renderers

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
)

func TestTOONLayouts(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{"object", `{"id":123,"name":"Ada","active":true,"score":null}`, "id: 123\nname: Ada\nactive: true\nscore: null"},
		{"nested object", `{"user":{"id":1,"tags":{}}}`, "user:\n  id: 1\n  tags:"},
		{"empty root object is the empty document", `{}`, ""},
		{"root primitive", `"hello world"`, "hello world"},
		{"root number", `42`, "42"},
		{"empty root array", `[]`, "[]"},
		{"empty array member", `{"items":[]}`, "items: []"},
		{"inline primitive array", `{"tags":["a","b c",1,true,null,""]}`, `tags[6]: a,b c,1,true,null,""`},
		{"root primitive array", `[1,2]`, "[2]: 1,2"},
		{"tabular array", `{"users":[{"id":1,"name":"Alice"},{"name":"Bob","id":2}]}`, "users[2]{id,name}:\n  1,Alice\n  2,Bob"},
		{"root tabular array", `[{"a":1},{"a":2}]`, "[2]{a}:\n  1\n  2"},
		{"keys differ: list items", `[{"a":1},{"b":2}]`, "[2]:\n  - a: 1\n  - b: 2"},
		{"a nested value: list items", `[{"a":1,"b":[1]},{"a":2,"b":[]}]`, "[2]:\n  - a: 1\n    b[1]: 1\n  - a: 2\n    b: []"},
		{"empty object element", `[{"a":1},{}]`, "[2]:\n  - a: 1\n  -"},
		{"mixed array", `{"m":[1,"x",{"a":1},[2,3],[]]}`, "m[5]:\n  - 1\n  - x\n  - a: 1\n  - [2]: 2,3\n  - [0]:"},
		{"arrays of arrays", `{"a":{"b":[1,[2,[3]]]}}`, "a:\n  b[2]:\n    - 1\n    - [2]:\n      - 2\n      - [1]: 3"},
		{"array of objects inside a list item", `[[{"a":1},{"a":2}]]`, "[1]:\n  - [2]:\n    - a: 1\n    - a: 2"},
		{"table first in a list item", `[{"rows":[{"x":1},{"x":2}],"n":2}]`, "[1]:\n  - rows[2]{x}:\n      1\n      2\n    n: 2"},
		{"object first in a list item", `[{"o":{"p":1},"q":2},{"q":3}]`, "[2]:\n  - o:\n      p: 1\n    q: 2\n  - q: 3"},
		{"uniform nested object: a table", `[{"o":{"p":1},"q":2}]`, "[1]{o{p},q}:\n  1,2"},
		{"list first in a list item", `[{"l":[[1]],"q":2}]`, "[1]:\n  - l[1]:\n      - [1]: 1\n    q: 2"},
		{"table later in a list item", `[{"q":2,"rows":[{"x":1}]}]`, "[1]:\n  - q: 2\n    rows[1]{x}:\n      1"},
		{"repeated key: first place, last value", `{"a":1,"b":2,"a":3}`, "a: 3\nb: 2"},
		{"repeated key in a row", `[{"a":1,"a":2},{"a":3}]`, "[2]{a}:\n  2\n  3"},
		{"quoted keys", `{"my-key":1,"2x":2,"a.b":3,"":4,"ok_1":5,"k\"q":[1]}`,
			"\"my-key\": 1\n\"2x\": 2\na.b: 3\n\"\": 4\nok_1: 5\n\"k\\\"q\"[1]: 1"},
		{"nested field group", `{"orders":[{"id":1,"customer":{"name":"Ada","country":"DK"}},{"id":2,"customer":{"country":"UK","name":"Bob"}}]}`,
			"orders[2]{id,customer{name,country}}:\n  1,Ada,DK\n  2,Bob,UK"},
		{"keyed table", `{"servers":{"alpha":{"host":"a.example.com","port":8080},"beta":{"port":9090,"host":"b.example.com"}}}`,
			"servers[2:]{host,port}:\n  alpha: a.example.com,8080\n  beta: b.example.com,9090"},
		{"keyed table at the root", `{"alice":{"age":30},"bob":{"age":25}}`, "[2:]{age}:\n  alice: 30\n  bob: 25"},
		{"one entry is no keyed table", `{"m":{"only":{"a":1}}}`, "m:\n  only:\n    a: 1"},
		{"keyed table first in a list item", `[{"m":{"a":{"x":1},"b":{"x":2}},"n":1},5]`, "[2]:\n  - m[2:]{x}:\n      a: 1\n      b: 2\n    n: 1\n  - 5"},
		{"quoted field names", `[{"first name":"A","id":1}]`, "[1]{\"first name\",id}:\n  A,1"},
		{"white space is kept", `{"t":"a  b"}`, "t: a  b"},
		{"unicode unquoted", `{"city":"Zürich 東京 🚀"}`, "city: Zürich 東京 🚀"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.toon([]byte(tt.give), Options{})
			if err != nil || got != tt.want {
				t.Errorf("TOON(%s) = %q, %v\nwant %q", tt.give, got, err, tt.want)
			}
		})
	}
}

func TestTOONQuotesStrings(t *testing.T) {
	tests := []struct {
		give string // a JSON string
		want string
	}{
		{`""`, `""`},
		{`" lead"`, `" lead"`},
		{`"trail "`, `"trail "`},
		{`"\u00a0nbsp"`, "\"\u00a0nbsp\""},
		{`"true"`, `"true"`},
		{`"false"`, `"false"`},
		{`"null"`, `"null"`},
		{`"True"`, `True`},
		{`"42"`, `"42"`},
		{`"-3.14"`, `"-3.14"`},
		{`"1e-6"`, `"1e-6"`},
		{`"1E+9"`, `"1E+9"`},
		{`"05"`, `"05"`},
		{`"+1"`, `"+1"`},
		{`"1.5.2"`, `1.5.2`},
		{`"12 apples"`, `12 apples`},
		{`"a:b"`, `"a:b"`},
		{`"a,b"`, `"a,b"`},
		{`"a|b"`, `a|b`},
		{`"say \"hi\""`, `"say \"hi\""`},
		{`"C:\\tmp"`, `"C:\\tmp"`},
		{`"[x]"`, `"[x]"`},
		{`"{x}"`, `"{x}"`},
		{`"-"`, `"-"`},
		{`"- item"`, `"- item"`},
		{`"#tag"`, `"#tag"`},
		{`"a#b"`, `a#b`},
		{`"line\nbreak"`, `"line\nbreak"`},
		{`"cr\rtab\t"`, `"cr\rtab\t"`},
		{`"bell\u0007nul\u0000"`, `"bell\u0007nul\u0000"`},
		{`"esc\u001b"`, `"esc\u001b"`},
		{`"lone \ud800 surrogate"`, "lone \uFFFD surrogate"},
		{"\"bad \xff byte\"", "bad \uFFFD byte"},
		{`"*emphasis* stays"`, `*emphasis* stays`},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, err := Generic{}.toon([]byte(tt.give), Options{})
			if err != nil || got != tt.want {
				t.Errorf("TOON(%s) = %s, %v; want %s", tt.give, got, err, tt.want)
			}
		})
	}
}

func TestTOONNumbers(t *testing.T) {
	tests := []struct{ give, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"-0.0", "0"},
		{"0e99", "0"},
		{"-0.000e-9", "0"},
		{"1", "1"},
		{"-17", "-17"},
		{"1.0", "1"},
		{"1.5000", "1.5"},
		{"100", "100"},
		{"0.5", "0.5"},
		{"-0.05", "-0.05"},
		{"12345678901234567890", "12345678901234567890"},
		{"123456789012345678901.5", "123456789012345678901.5"},
		{"123456789012345678901234567890.000000000000000000001", "1.23456789012345678901234567890000000000000000000001e+29"},
		{"1e6", "1000000"},
		{"1E+6", "1000000"},
		{"1e-6", "0.000001"},
		{"1e-7", "1e-7"},
		{"-2.5E-3", "-0.0025"},
		{"12.34e1", "123.4"},
		{"12.34e2", "1234"},
		{"12.34e3", "12340"},
		{"0.00120e2", "0.12"},
		{"0.00120e3", "1.2"},
		{"1e21", "1e+21"},
		{"1.5e300", "1.5e+300"},
		{"5e-324", "5e-324"},
		{"1e1000", "1e+1000"},
		{"-1.50e-1500", "-1.5e-1500"},
		{"123e999999999", "1.23e+1000000001"},
		{"1e999999999999999", "1e+999999999999999"},
		{"12.50e+0999999999999999999999", "1.25e+1000000000000000000000"},
		{"-0.0100e-99999999999999999999", "-1e-100000000000000000001"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, err := Generic{}.toon([]byte(`{"n":`+tt.give+`}`), Options{})
			if err != nil || got != "n: "+tt.want {
				t.Errorf("TOON({n:%s}) = %q, %v; want n: %s", tt.give, got, err, tt.want)
			}
		})
	}
}

// TestTOONNumbersAreBounded: a number is never longer in TOON than its JSON text plus the
// few characters of an exponent ("e+"), however large its exponent: outside 1e-6 <= |n| < 1e21
// it is written with one.
func TestTOONNumbersAreBounded(t *testing.T) {
	got, err := Generic{}.toon([]byte(`[1e1000,1e20,1e-40,1e1000,1e5,2]`), Options{})
	want := "[6]: 1e+1000,100000000000000000000,1e-40,1e+1000,100000,2"
	if err != nil || got != want {
		t.Errorf("TOON = %q, %v\nwant %q", got, err, want)
	}
	value := []byte("[" + strings.Repeat("1.5e300,", 9999) + "1e999999999]")
	got, err = Generic{}.toon(value, Options{})
	if err != nil || len(got) > len(value)+2*10000+16 {
		t.Errorf("TOON of %d bytes of big numbers is %d bytes, %v", len(value), len(got), err)
	}
	if !strings.HasSuffix(got, ",1.5e+300,1e+999999999") {
		t.Errorf("the last numbers are %q, want exponent notation", got[len(got)-40:])
	}
}

func TestTOONFollowsTheSchemaOrder(t *testing.T) {
	s := &Schema{Properties: []Property{
		{Name: "name"},
		{Name: "rows", Schema: &Schema{Items: &Schema{Properties: []Property{{Name: "b"}, {Name: "a"}}}}},
	}}
	got, err := Generic{}.toon([]byte(`{"rows":[{"a":1,"b":2}],"extra":true,"name":"x"}`), Options{Schema: s})
	want := "name: x\nrows[1]{b,a}:\n  2,1\nextra: true"
	if err != nil || got != want {
		t.Errorf("TOON with a schema = %q, %v; want %q", got, err, want)
	}
}

func TestTOONIgnoresPresentationOptions(t *testing.T) {
	value := []byte(`{"a":"","b":null,"c":[]}`)
	want := "a: \"\"\nb: null\nc: []"
	for _, opts := range []Options{
		{MediaType: format.TOON.MediaType},
		{MediaType: format.TOON.MediaType + "; charset=utf-8", Verbosity: 1, Title: "Title", Units: map[string]string{"a": "°C"}},
	} {
		got, err := Generic{}.Render(value, opts)
		if err != nil || got != want {
			t.Errorf("Render(%+v) = %q, %v; want %q", opts, got, err, want)
		}
	}
}

func TestTOONBadInput(t *testing.T) {
	deep := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	deepArray := func(n int) string { return strings.Repeat(`[`, n) + "1" + strings.Repeat("]", n) }
	deepList := func(n int) string { return strings.Repeat(`[{"a":`, n) + "1" + strings.Repeat("}]", n) }
	tests := []struct {
		name string
		give string
		want error // nil: renders
	}{
		{"invalid JSON", `{"a":`, errInvalidJSON},
		{"trailing garbage", `{} x`, errInvalidJSON},
		{"32 nested objects", deep(32), nil},
		{"33 nested objects", deep(33), errTooDeep},
		{"32 nested arrays", deepArray(32), nil},
		{"33 nested arrays", deepArray(33), errTooDeep},
		{"16 levels of list items", deepList(16), nil},
		{"17 levels of list items", deepList(17), errTooDeep},
		{"deeper than JSON allows", deepArray(10001), errInvalidJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Generic{}.toon([]byte(tt.give), Options{})
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("TOON = %v, want %v", err, tt.want)
			}
			if tt.want != nil && out != "" {
				t.Errorf("TOON failed with output %q", out)
			}
		})
	}
}

// toonGrowthShapes are the growth shapes plus two that are hostile to a TOON encoder: numbers
// whose plain form is long, and records nested 31 levels deep (indentation on every line).
var toonGrowthShapes = append(growthShapes[:len(growthShapes):len(growthShapes)],
	struct {
		name  string
		value func(n int) []byte
		opts  func(n int) Options
	}{name: "exponents", value: func(n int) []byte {
		return []byte("[" + strings.Repeat("1.5e300,-2e-320,", n/16-1) + "1e999999999]")
	}},
	struct {
		name  string
		value func(n int) []byte
		opts  func(n int) Options
	}{name: "nested", value: func(n int) []byte {
		inner := `{"k":[1,"a b",{"x":1},[2]]}`
		unit := strings.Repeat(`{"a":[`, 14) + inner + strings.Repeat(`]}`, 14)
		return []byte("[" + strings.Repeat(unit+",", n/len(unit)-1) + unit + "]")
	}},
)

// BenchmarkTOONGrowth encodes each shape at 1 KB, 100 KB and 1 MB: compare cpu-ns/op across sizes,
// the exponent log(t2/t1)/log(n2/n1) must stay near 1 (docs/renderers.md reports it).
func BenchmarkTOONGrowth(b *testing.B) {
	for _, shape := range toonGrowthShapes {
		for _, sz := range growthSizes {
			value := shape.value(sz.size)
			opts := Options{}
			if shape.opts != nil {
				opts = shape.opts(sz.size)
			}
			b.Run(shape.name+"/"+sz.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(value)))
				runtime.GC()
				cpu := cpuTime()
				for b.Loop() {
					if _, err := (Generic{}).toon(value, opts); err != nil {
						b.Fatal(err)
					}
				}
				if cpu > 0 {
					b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}

package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/internal/jsontest"
)

func TestCanonicalNumber(t *testing.T) {
	tests := []struct{ give, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"-0.0", "0"},
		{"0e99", "0"},
		{"-0.000e-9", "0"},
		{"0e99999999999999999999999", "0"},
		{"1", "1"},
		{"-17", "-17"},
		{"1.0", "1"},
		{"1.5000", "1.5"},
		{"100", "100"},
		{"0.5", "0.5"},
		{"-0.05", "-0.05"},
		{"12345678901234567890", "12345678901234567890"},
		{"123456789012345678901", "123456789012345678901"},
		{"999999999999999999999.9", "999999999999999999999.9"},
		{"1e21", "1e+21"},
		{"1000000000000000000000", "1e+21"},
		{"123456789012345678901234567890.000000000000000000001", "1.23456789012345678901234567890000000000000000000001e+29"},
		{"1e6", "1000000"},
		{"1E+6", "1000000"},
		{"-1E+03", "-1000"},
		{"1e-6", "0.000001"},
		{"0.0000010", "0.000001"},
		{"9.99e-7", "9.99e-7"},
		{"1e-7", "1e-7"},
		{"-2.5E-3", "-0.0025"},
		{"12.34e1", "123.4"},
		{"12.34e2", "1234"},
		{"12.34e3", "12340"},
		{"0.00120e2", "0.12"},
		{"0.00120e3", "1.2"},
		{"1e20", "100000000000000000000"},
		{"1.5e300", "1.5e+300"},
		{"5e-324", "5e-324"},
		{"123e999999999", "1.23e+1000000001"},
		{"1e999999999999999", "1e+999999999999999"},
		{"12.50e+0999999999999999999999", "1.25e+1000000000000000000000"},
		{"-0.0100e-99999999999999999999", "-1e-100000000000000000001"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := canonicalNumber(tt.give); got != tt.want {
				t.Errorf("canonicalNumber(%s) = %s, want %s", tt.give, got, tt.want)
			}
			if !jsontest.SameNumber(tt.give, tt.want) {
				t.Errorf("%s and %s are different numbers", tt.give, tt.want)
			}
			// Decoding gives the same canonical form.
			got, err := ToJSON([]byte("n: "+tt.give), nil)
			if err != nil || string(got) != `{"n":`+tt.want+`}` {
				t.Errorf("ToJSON(n: %s) = %s, %v", tt.give, got, err)
			}
		})
	}
}

func TestMarshalGoValues(t *testing.T) {
	type point struct {
		Lat float64 `json:"lat"`
		Lon float64 `json:"lon"`
	}
	type city struct {
		Name string `json:"name"`
		At   point  `json:"at"`
	}
	tests := []struct {
		name string
		give any
		want string
	}{
		{"nil", nil, "null"},
		{"string", "hello world", "hello world"},
		{"float", 0.1, "0.1"},
		{"negative zero", math.Copysign(0, -1), "0"},
		{"large float", 1e21, "1e+21"},
		{"small float", 1e-7, "1e-7"},
		{"empty map", map[string]int{}, ""},
		{"empty slice", []int{}, "[]"},
		{"nil slice", []int(nil), "null"},
		{"struct order", city{"Bern", point{46.95, 7.45}}, "name: Bern\nat:\n  lat: 46.95\n  lon: 7.45"},
		{"nested field groups", []city{{"Bern", point{46.95, 7.45}}, {"Oslo", point{59.91, 10.75}}},
			"[2]{name,at{lat,lon}}:\n  Bern,46.95,7.45\n  Oslo,59.91,10.75"},
		{"keyed object at the root", map[string]point{"bern": {46.95, 7.45}, "oslo": {59.91, 10.75}},
			"[2:]{lat,lon}:\n  bern: 46.95,7.45\n  oslo: 59.91,10.75"},
		{"raw message keeps order and digits", json.RawMessage(`{"z":1.50,"a":-0,"big":123456789012345678901234}`),
			"z: 1.5\na: 0\nbig: 1.23456789012345678901234e+23"},
		{"bytes are JSON text", []byte(`[1,"two"]`), `[2]: 1,two`},
		{"nil raw message", json.RawMessage(nil), "null"},
		{"repeated key", json.RawMessage(`{"a":1,"b":2,"a":3}`), "a: 3\nb: 2"},
		{"repeated key in a wide object", json.RawMessage(`{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k1":10}`),
			"k1: 10\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9"},
		{"invalid UTF-8 and lone surrogates", json.RawMessage("[\"a\xffb\",\"\\ud800\"]"), "[2]: a\uFFFDb,\uFFFD"},
		{"dotted key", json.RawMessage(`{"a.b":1}`), "a.b: 1"},
		{"wide rows", json.RawMessage(`[{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9},{"i":90,"h":80,"g":70,"f":60,"e":50,"d":40,"c":30,"b":20,"a":10}]`),
			"[2]{a,b,c,d,e,f,g,h,i}:\n  1,2,3,4,5,6,7,8,9\n  10,20,30,40,50,60,70,80,90"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.give)
			if err != nil || string(got) != tt.want {
				t.Errorf("Marshal(%v) = %q, %v\nwant %q", tt.give, got, err, tt.want)
			}
		})
	}
}

func TestEncodeOptions(t *testing.T) {
	value := []byte(`{"a":{"b":["x,y","p|q"]}}`)
	tests := []struct {
		name string
		opts *EncodeOptions
		want string
	}{
		{"nil", nil, "a:\n  b[2]: \"x,y\",p|q"},
		{"zero", &EncodeOptions{}, "a:\n  b[2]: \"x,y\",p|q"},
		{"indent 4, pipe", &EncodeOptions{Indent: 4, Delimiter: '|'}, "a:\n    b[2|]: x,y|\"p|q\""},
		{"tab", &EncodeOptions{Delimiter: '\t'}, "a:\n  b[2\t]: x,y\tp|q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromJSON(value, tt.opts)
			if err != nil || string(got) != tt.want {
				t.Errorf("FromJSON = %q, %v; want %q", got, err, tt.want)
			}
			var buf bytes.Buffer
			if err := NewEncoder(&buf, tt.opts).Encode(json.RawMessage(value)); err != nil || buf.String() != tt.want {
				t.Errorf("Encode = %q, %v; want %q", buf.String(), err, tt.want)
			}
		})
	}
}

func TestEncodeBadInput(t *testing.T) {
	tests := []struct {
		name string
		give any
		opts *EncodeOptions
		want error // nil: any error
	}{
		{"invalid JSON", json.RawMessage(`{"a":`), nil, ErrInvalidJSON},
		{"trailing text", json.RawMessage(`{} x`), nil, ErrInvalidJSON},
		{"empty", json.RawMessage(``), nil, ErrInvalidJSON},
		{"raw control character", json.RawMessage("\"a\x01\""), nil, ErrInvalidJSON},
		{"bad escape", json.RawMessage(`"\x"`), nil, ErrInvalidJSON},
		{"leading zero", json.RawMessage(`01`), nil, ErrInvalidJSON},
		{"100000 nested arrays", json.RawMessage(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)), nil, ErrTooDeep},
		{"100000 nested objects", json.RawMessage(strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)), nil, ErrTooDeep},
		{"deeper than MaxDepth", json.RawMessage(`[[[1]]]`), &EncodeOptions{MaxDepth: 2}, ErrTooDeep},
		{"NaN", math.NaN(), nil, nil},
		{"channel", make(chan int), nil, nil},
		{"bad delimiter", 1, &EncodeOptions{Delimiter: ';'}, nil},
		{"negative indent", 1, &EncodeOptions{Indent: -1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := NewEncoderBytes(tt.give, tt.opts)
			if err == nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("encode = %q, %v; want %v", out, err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "toon: ") {
				t.Errorf("error %q lacks the package's prefix", err)
			}
		})
	}
	// MaxDepth counts containers: exactly MaxDepth levels encode.
	if _, err := FromJSON([]byte(`[[1]]`), &EncodeOptions{MaxDepth: 2}); err != nil {
		t.Errorf("2 levels with MaxDepth 2: %v", err)
	}
}

// NewEncoderBytes encodes v with opts through an Encoder.
func NewEncoderBytes(v any, opts *EncodeOptions) (string, error) {
	var buf bytes.Buffer
	err := NewEncoder(&buf, opts).Encode(v)
	return buf.String(), err
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		opts *DecodeOptions
		line int
		want error
	}{
		{"unterminated string", "a: 1\nb:\n  c: \"x", nil, 3, ErrSyntax},
		{"missing colon", "a: 1\nb 2", nil, 2, ErrSyntax},
		{"count", "x: 1\ntags[3]: a,b", nil, 2, ErrCount},
		{"row width", "t[2]{a,b}:\n  1,2\n  3", nil, 3, ErrCount},
		{"rows missing", "t[2]{a}:\n  1", nil, 1, ErrCount},
		{"indentation", "a:\n   b: 1", nil, 2, ErrIndent},
		{"tab indentation", "a:\n\tb: 1", nil, 2, ErrIndent},
		{"over-indented", "a: 1\n    b: 2", nil, 2, ErrIndent},
		{"duplicate key", "a: 1\nb: 2\na: 3", nil, 3, ErrDuplicateKey},
		{"duplicate entry", "m[2:]{v}:\n  k: 1\n  k: 2", nil, 3, ErrDuplicateKey},
		{"duplicate field", "t[1]{a,b,a}:\n  1,2,3", nil, 1, ErrDuplicateKey},
		{"duplicate field in a wide header", "t[1]{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,a}:\n  1", nil, 1, ErrDuplicateKey},
		{"blank line in an array", "a[2]:\n  - 1\n\n  - 2", nil, 3, ErrSyntax},
		{"invalid UTF-8", "a: 1\nb: \xff", nil, 2, ErrSyntax},
		{"surrogate escape", `a: "\ud83d\ude80"`, nil, 1, ErrSyntax},
		{"control character in a quoted string", "a: \"x\x01\"", nil, 1, ErrSyntax},
		{"content after a root array", "[1]: x\ny: 2", nil, 2, ErrSyntax},
		{"field groups 100000 deep", "a[1]{" + strings.Repeat("b{", 100000) + "c" + strings.Repeat("}", 100001) + ":\n  1", nil, 1, ErrTooDeep},
		{"2000 levels of objects", deepObjects(2000), &DecodeOptions{Indent: 1}, 1000, ErrTooDeep},
		{"2000 levels of list items", deepItems(2000), &DecodeOptions{Indent: 1}, 1001, ErrTooDeep},
		{"MaxDepth", "a:\n  b:\n    c: 1", &DecodeOptions{MaxDepth: 2}, 2, ErrTooDeep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToJSON([]byte(tt.doc), tt.opts)
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, tt.want) || se.Line != tt.line {
				t.Fatalf("ToJSON = %s, %v; want a line %d error wrapping %v", got, err, tt.line, tt.want)
			}
			if want := "toon: line "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
		})
	}
}

// deepObjects returns n levels of nested objects, one space per level.
func deepObjects(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("a:\n")
	}
	return b.String()
}

// deepItems returns n levels of nested single-item arrays, one space per level.
func deepItems(n int) string {
	var b strings.Builder
	b.WriteString("[1]:\n")
	for i := 1; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("- [1]:\n")
	}
	return b.String()
}

func TestLenientDecoding(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"counts not checked", "a[3]: x,y\nt[1]{p,q}:\n  1\n  2,3,4", `{"a":["x","y"],"t":[{"p":1,"q":null},{"p":2,"q":3}]}`},
		{"tab indentation", "a:\n\tb: 1", `{"a":{"b":1}}`},
		{"invalid UTF-8", "a: \xff", `{"a":"\ufffd"}`},
		{"keyless header in a field", "a:\n  [2]: x,y", `{"a":{"[2]":"x,y"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToJSON([]byte(tt.doc), &DecodeOptions{Lenient: true})
			if err != nil || string(got) != tt.want {
				t.Errorf("ToJSON = %s, %v; want %s", got, err, tt.want)
			}
			if _, err := ToJSON([]byte(tt.doc), nil); err == nil {
				t.Errorf("strict ToJSON(%q) succeeded", tt.doc)
			}
		})
	}
}

func TestUnmarshal(t *testing.T) {
	var v any
	if err := Unmarshal([]byte("n: 1.50\nt[2]: x,true"), &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"n": 1.5, "t": []any{"x", true}}
	if got, _ := json.Marshal(v); string(got) != mustJSON(want) {
		t.Errorf("Unmarshal = %s, want %s", got, mustJSON(want))
	}
	d := NewDecoder(strings.NewReader("n: 12345678901234567890.000000000000000000001"), nil)
	d.UseNumber()
	var m map[string]json.Number
	if err := d.Decode(&m); err != nil || m["n"] != "12345678901234567890.000000000000000000001" {
		t.Errorf("Decode with UseNumber = %v, %v", m, err)
	}
	var s struct{ N int }
	err := Unmarshal([]byte("N: x"), &s)
	if err == nil || !strings.HasPrefix(err.Error(), "toon: ") {
		t.Errorf("Unmarshal of a string into an int: %v", err)
	}
	err = Unmarshal([]byte("a[2]: 1"), &v)
	if !errors.Is(err, ErrCount) {
		t.Errorf("Unmarshal of a bad document: %v, want ErrCount", err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestDecodeLineClasses pins how lines the fixtures do not cover are read (section 5.2).
func TestDecodeLineClasses(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"space before the bracket: a key-value line", "foo [2]: bar", `{"foo [2]":"bar"}`},
		{"any key token before a bracket", "my-key[2]: a,b", `{"my-key":["a","b"]}`},
		{"a colon before the bracket", "a:b[2]: x", `{"a":"b[2]: x"}`},
		{"a hyphen outside an array", "- x", `"- x"`},
		{"a bracket without colon", "[2]", `"[2]"`},
		{"brackets as a value", "x: [2]", `{"x":"[2]"}`},
		{"a hyphen after a list item's", "x[1]:\n  - - a", `{"x":["- a"]}`},
		{"[] as an inline value is a string", "x[1]: []", `{"x":["[]"]}`},
		{"a key with a quoted colon", `"a:b": 1`, `{"a:b":1}`},
		{"spaces around the colon", "a : 1", `{"a":1}`},
		{"CR inside a line is content", "a: x\ry", "{\"a\":\"x\\ry\"}"},
		{"a root primitive is trimmed", "0   ", "0"},
		{"a root [] is trimmed", "[]  ", "[]"},
		{"an unfinished header with a quote is a root string", `[0]{a"b`, `"[0]{a\"b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToJSON([]byte(tt.doc), nil)
			if err != nil || string(got) != tt.want {
				t.Errorf("ToJSON(%q) = %s, %v; want %s", tt.doc, got, err, tt.want)
			}
		})
	}
}

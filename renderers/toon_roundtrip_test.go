package renderers

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/toon"

	"github.com/contentneg/contentneg/internal/jsontest"
	"github.com/contentneg/contentneg/internal/rawjson"
)

// toonEdgeCases are hand-written values that try the encoder's corners; they seed the fuzzer.
var toonEdgeCases = []string{
	`{}`, `[]`, `null`, `true`, `""`, `"-"`, `"#"`, `0`, `-0`, `"x"`, `" "`, `"[]"`, `"a: b"`,
	`{"":""}`, `{"a":{}}`, `{"a":[]}`, `[[]]`, `[{}]`, `[{},{}]`, `[[],[]]`, `[[[]]]`, `[null]`,
	`{"a":null,"b":"","c":[],"d":{},"e":[{}],"f":[[]],"g":[null,""]}`,
	`[1,"1","01","1.0","1e5","-1","+1","true","null","false","True"," 1","1 "]`,
	`{"n":[0,-0,0.0,-0.0,1.0,1.50,100,1e2,1E-2,-1.5e-10,12345678901234567890,123456789012345678901234567890.125]}`,
	`[1e400,1e401,-1e-401,1.5e300,5e-324,1e999999999,0.0000e999999999999999999999,1e-9999999999999999999999]`,
	`{"a.b":1,"a":{"b":2},"my-key":3,"2nd":4,"_ok":5,"k y":6,"é":7,"\"q\"":8,"a[1]":9,"{x}":10,"a:b":11,"#":12,"-":13}`,
	`{"s":["a,b","a|b","a\tb","a\nb","a\rb","\u0000","\u001f","\u007f","\u2028","\ufeff x","x\u00a0",":","[","]","{","}","\"","\\","- x","#x","x#"]}`,
	`{"t":[{"a":1,"b":"x"},{"b":"y,z","a":2},{"a":null,"b":""}]}`,
	`{"t":[{"a":1},{"a":1,"b":2}]}`,
	`{"t":[{"a":1,"b":2},{"a":1}]}`,
	`{"t":[{"a":1,"b":2},{"a":1,"c":2}]}`,
	`{"t":[{"a":[1]},{"a":[2]}]}`,
	`{"t":[{"a":{}},{"a":{}}]}`,
	`[{"a":1,"a":2},{"a":3}]`,
	`{"a":1,"b":2,"a":3,"b":{"c":1,"c":2}}`,
	`[{"x":[{"y":1},{"y":2}],"z":[[1,2],[]],"w":{"v":[{"u":[{}]}]}},{"x":[]},"p",[{"q":1}],[[{"r":[]}]]]`,
	`{"a":{"b":[1,[2,[3]]]},"name":"some longer text so that text is shorter than json"}`,
	`{"entities":[{"name":"Zoë","observations":["maintainer since 2024","role=admin verified=true"]},{"name":"Bob","observations":["x"]}]}`,
	`{"entities":null,"relations":null}`,
	`[[1,[2]],[{"a":1},{"b":2}],[{"a":1},{"a":2}]]`,
	`{"x":[{"a":{"b":1},"c":2},{"a":{"b":2},"c":3}]}`,
	`{"lone":"\ud800","pair":"\ud83d\ude80","bad":"\udc00\ud800"}`,
	`{"\udc00\ud800":1,"\ufffd":2,"\ufffd\ufffd":3}`,
	"\"\xff\xfe invalid\"",
	"{\"k\xff\":\"v\xc3\"}",
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
}

// checkTOONRoundTrip renders value as TOON and checks that the toon package's strict decoder
// reads it back as the same JSON value: what the SPEC promises of the generic TOON renderer.
func checkTOONRoundTrip(tb testing.TB, value []byte, opts Options) {
	tb.Helper()
	checkTOONRoundTripWith(tb, value, opts, ',')
}

// checkTOONRoundTripWith is checkTOONRoundTrip with delim as the document delimiter. It also
// checks the encoder's whitespace rules (jsontest.TOONLayout).
func checkTOONRoundTripWith(tb testing.TB, value []byte, opts Options, delim byte) {
	tb.Helper()
	out, err := toonWith(value, opts, delim)
	if !json.Valid(value) {
		if err == nil && validate(value) != nil {
			tb.Fatalf("TOON of invalid JSON %q = %q without error", value, out)
		}
		return // gjson may accept what encoding/json refuses (and vice versa): nothing to compare
	}
	if errors.Is(err, errTooDeep) {
		if rawjson.Depth(value) <= maxDepth {
			tb.Fatalf("TOON(%s): %v, but it nests only %d deep", value, err, rawjson.Depth(value))
		}
		return
	}
	if err != nil {
		tb.Fatalf("TOON(%s): %v", value, err)
	}
	if limit := 100*len(value) + 100; len(out) > limit {
		tb.Fatalf("TOON of %d bytes is %d bytes, over %d", len(value), len(out), limit)
	}
	if err := jsontest.TOONLayout(out); err != nil {
		tb.Fatalf("TOON(%s) =\n%s\n%v", jsontest.Clip(string(value)), out, err)
	}
	back, err := toon.ToJSON([]byte(out), nil)
	if err != nil {
		tb.Fatalf("TOON(%s) =\n%s\ndoes not decode: %v", jsontest.Clip(string(value)), out, err)
	}
	got, err := jsontest.Read(back)
	if err != nil {
		tb.Fatalf("toon.ToJSON gave %q: %v", back, err)
	}
	want, err := jsontest.Read(value)
	if err != nil {
		tb.Fatalf("decode JSON %q: %v", value, err)
	}
	if diff := (jsontest.Compare{}).Values(want, got, "$"); diff != "" {
		tb.Fatalf("TOON(%s) =\n%s\nreads back differently: %s", jsontest.Clip(string(value)), out, diff)
	}
}

func TestTOONRoundTripEdgeCases(t *testing.T) {
	for _, v := range toonEdgeCases {
		t.Run(jsontest.Clip(v), func(t *testing.T) {
			checkTOONRoundTrip(t, []byte(v), Options{})
		})
	}
}

// TestTOONRoundTripCorpus renders every value of testdata/corpus, with its schema's order and
// without, and reads it back.
func TestTOONRoundTripCorpus(t *testing.T) {
	items := corpusValues(t)
	if len(items) < 20 {
		t.Fatalf("found %d corpus items, want the whole corpus", len(items))
	}
	for _, it := range items {
		t.Run(it.name, func(t *testing.T) {
			checkTOONRoundTrip(t, it.value, Options{})
			if it.schema != nil {
				checkTOONRoundTrip(t, it.value, Options{Schema: it.schema})
			}
		})
	}
}

type corpusValue struct {
	name   string
	value  []byte
	schema *Schema
}

func corpusValues(tb testing.TB) []corpusValue {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []corpusValue
	for _, p := range paths {
		if strings.HasSuffix(p, ".schema.json") {
			continue
		}
		value, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		it := corpusValue{name: strings.TrimSuffix(filepath.Base(p), ".json"), value: value}
		if doc, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".schema.json"); err == nil {
			if it.schema, err = ParseSchema(doc); err != nil {
				tb.Fatalf("%s: %v", p, err)
			}
		}
		out = append(out, it)
	}
	return out
}

// FuzzTOONRoundTrip checks the round trip on any input, with each delimiter (the comma TOON uses,
// and the tab and pipe that TestTOONCommaIsCheapest measures): a JSON value renders as TOON that
// the strict decoder reads back as the same value (or, nested deeper than 32 levels, gives
// errTooDeep), in at most 100 bytes per byte of input.
func FuzzTOONRoundTrip(f *testing.F) {
	for _, v := range toonEdgeCases {
		f.Add([]byte(v))
	}
	for _, it := range corpusValues(f) {
		f.Add(it.value)
	}
	f.Fuzz(func(t *testing.T, value []byte) {
		checkTOONRoundTrip(t, value, Options{})
		for _, d := range toonDelimiters[1:] {
			checkTOONRoundTripWith(t, value, Options{}, d.delim)
		}
	})
}

// TestTOONChecksRefuseBadDocuments: what the round trip's checks refuse. The toon package's
// strict decoder refuses documents that break the grammar or their declared counts; the layout
// check refuses what an encoder must not write although decoders accept it.
func TestTOONChecksRefuseBadDocuments(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		layout bool // only the layout check refuses it
	}{
		{"trailing newline", "a: 1\n", true},
		{"trailing space", "a: 1 ", true},
		{"blank line", "a: 1\n\nb: 2", true},
		{"carriage return", "a: 1\r\nb: 2", true},
		{"odd indentation", "a:\n   b: 1", false},
		{"tab indentation", "a:\n\tb: 1", false},
		{"blank line in an array", "a[2]:\n  - 1\n\n  - 2", false},
		{"count too high", "a[3]: 1,2", false},
		{"count too low", "a[1]: 1,2", false},
		{"rows missing", "a[2]{x}:\n  1", false},
		{"row too wide", "a[1]{x}:\n  1,2", false},
		{"entries missing", "a[2:]{x}:\n  k: 1", false},
		{"items missing", "a[2]:\n  - 1", false},
		{"extra item", "a[1]:\n  - 1\n  - 2", false},
		{"repeated key", "a: 1\na: 2", false},
		{"missing colon", "a: 1\nb 2", false},
		{"bad escape", `a: "\x"`, false},
		{"surrogate escape", `a: "\ud800"`, false},
		{"unterminated string", `a: "x`, false},
		{"leading zero length", "a[01]: 1", false},
		{"over-indented member", "a: 1\n    b: 2", false},
		{"two root primitives", "x\ny", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := toon.ToJSON([]byte(tt.doc), nil)
			if tt.layout {
				if err != nil {
					t.Errorf("toon.ToJSON(%q): %v; decoders accept it", tt.doc, err)
				}
				if err := jsontest.TOONLayout(tt.doc); err == nil {
					t.Errorf("jsontest.TOONLayout(%q) = nil, want an error", tt.doc)
				}
				return
			}
			if err == nil {
				t.Errorf("toon.ToJSON(%q) = %s; want an error", tt.doc, v)
			}
		})
	}
}

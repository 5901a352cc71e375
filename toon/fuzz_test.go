package toon

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/contentneg/contentneg/internal/jsontest"
	"github.com/contentneg/contentneg/internal/rawjson"
)

// edgeCases are hand-written values that try the encoder's corners; they seed FuzzRoundTrip.
var edgeCases = []string{
	`{}`, `[]`, `null`, `true`, `""`, `"-"`, `"#"`, `0`, `-0`, `"x"`, `" "`, `"[]"`, `"a: b"`,
	`{"":""}`, `{"a":{}}`, `{"a":[]}`, `[[]]`, `[{}]`, `[{},{}]`, `[[],[]]`, `[[[]]]`, `[null]`,
	`{"a":null,"b":"","c":[],"d":{},"e":[{}],"f":[[]],"g":[null,""]}`,
	`[1,"1","01","1.0","1e5","-1","+1","true","null","false","True"," 1","1 ","-","#a","a#"]`,
	`{"n":[0,-0,0.0,-0.0,1.0,1.50,100,1e2,1E-2,-1.5e-10,12345678901234567890,123456789012345678901234567890.125]}`,
	`[1e400,1e401,-1e-401,1.5e300,5e-324,1e999999999,0.0000e999999999999999999999,1e-9999999999999999999999]`,
	`{"a.b":1,"a":{"b":2},"my-key":3,"2nd":4,"_ok":5,"k y":6,"é":7,"\"q\"":8,"a[1]":9,"{x}":10,"a:b":11,"#":12,"-":13,"[]":14}`,
	`{"s":["a,b","a|b","a\tb","a\nb","a\rb","\u0000","\u001f","\u007f","\u2028","\ufeff x","x\u00a0",":","[","]","{","}","\"","\\","- x","#x","x#"]}`,
	`{"t":[{"a":1,"b":"x"},{"b":"y,z","a":2},{"a":null,"b":""}]}`,
	`{"t":[{"a":1},{"a":1,"b":2}]}`,
	`{"t":[{"a":{"b":1}},{"a":{"b":2}}],"u":[{"a":{"b":1}},{"a":{"c":2}}],"v":[{"a":{"b":1}},{"a":null}]}`,
	`{"t":[{"a":{"b":{"c":1},"d":2}},{"a":{"d":3,"b":{"c":4}}}]}`,
	`{"m":{"x":{"p":1,"q":{"r":2}},"y":{"q":{"r":3},"p":4}},"one":{"x":{"p":1}},"mixed":{"x":{"p":1},"y":2}}`,
	`{"alice":{"age":30},"bob":{"age":25}}`,
	`{"m":{"42":{"v":"a:b"},"my key":{"v":""},"":{"v":"-"}}}`,
	`[{"m":{"a":{"x":1},"b":{"x":2}},"s":1},{"m":{"a":{"x":1},"b":{"x":2}}}]`,
	`[{"a":{"x":1},"b":{"x":2}},5]`,
	`{"t":[{"a":[1]},{"a":[2]}]}`,
	`{"t":[{"a":{}},{"a":{}}]}`,
	`[{"a":1,"a":2},{"a":3}]`,
	`{"a":1,"b":2,"a":3,"b":{"c":1,"c":2}}`,
	`[{"x":[{"y":1},{"y":2}],"z":[[1,2],[]],"w":{"v":[{"u":[{}]}]}},{"x":[]},"p",[{"q":1}],[[{"r":[]}]]]`,
	`[[1,[2]],[{"a":1},{"b":2}],[{"a":1},{"a":2}]]`,
	`{"lone":"\ud800","pair":"\ud83d\ude80","bad":"\udc00\ud800"}`,
	"\"\xff\xfe invalid\"",
	"{\"k\xff\":\"v\xc3\"}",
}

// FuzzRoundTrip: any JSON value encodes (with each delimiter) to a document that breaks none of
// the encoder's whitespace rules and that the strict decoder reads back as the same JSON value
// (numbers by exact value); every string is quoted exactly when section 7.2 requires it (or has
// Unicode white space at either end). Invalid JSON gives ErrInvalidJSON, deep JSON ErrTooDeep.
func FuzzRoundTrip(f *testing.F) {
	for _, v := range edgeCases {
		f.Add([]byte(v))
	}
	for _, tests := range loadFixtures(f, "encode") {
		for _, tt := range tests {
			f.Add([]byte(tt.Input))
		}
	}
	f.Fuzz(func(t *testing.T, value []byte) {
		for _, delim := range []byte{',', '\t', '|'} {
			checkRoundTrip(t, value, delim)
		}
	})
}

func TestRoundTripEdgeCases(t *testing.T) {
	for _, v := range edgeCases {
		t.Run(clip(v), func(t *testing.T) {
			for _, delim := range []byte{',', '\t', '|'} {
				checkRoundTrip(t, []byte(v), delim)
			}
		})
	}
}

func checkRoundTrip(t *testing.T, value []byte, delim byte) {
	t.Helper()
	out, err := FromJSON(value, &EncodeOptions{Delimiter: delim})
	if !json.Valid(value) {
		if err == nil {
			t.Fatalf("FromJSON of invalid JSON %q = %q", value, out)
		}
		return
	}
	if errors.Is(err, ErrTooDeep) {
		return // encoding/json allows 10000 levels, the encoder 1000 (its default MaxDepth)
	}
	if err != nil {
		t.Fatalf("FromJSON(%s): %v", value, err)
	}
	// Each line stands for at least one byte of JSON and carries two spaces per level of nesting.
	if limit := (4+2*rawjson.Depth(value))*len(value) + 64; len(out) > limit {
		t.Fatalf("FromJSON of %d bytes is %d bytes, over %d", len(value), len(out), limit)
	}
	if err := jsontest.TOONLayout(string(out)); err != nil {
		t.Fatalf("FromJSON(%s) =\n%s\n%v", clip(string(value)), out, err)
	}
	back, err := ToJSON(out, nil)
	if err != nil {
		t.Fatalf("FromJSON(%s) =\n%s\ndoes not decode: %v", clip(string(value)), out, err)
	}
	if diff := (jsontest.Compare{}).Texts(value, back); diff != "" {
		t.Fatalf("FromJSON(%s) =\n%s\nreads back as %s: %s", clip(string(value)), out, back, diff)
	}
	v, err := jsontest.Read(value)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkQuoting(v, byte(delim)); err != nil {
		t.Fatal(err)
	}
}

// mustQuote is section 7.2 written independently of the encoder: a string value is quoted when it
// is empty, has a space or tab at either end, reads as true, false, null or a number, holds a
// colon, quote, backslash, bracket, brace, control character or the delimiter, or starts with
// '-' or '#'.
var numberLike = regexp.MustCompile(`(?i)^[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$`)

func mustQuote(s string, delim byte) bool {
	return s == "" || strings.TrimLeft(s, " \t") != s || strings.TrimRight(s, " \t") != s ||
		s == "true" || s == "false" || s == "null" || numberLike.MatchString(s) ||
		strings.ContainsAny(s, ":\"\\[]{}") || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 }) ||
		strings.IndexByte(s, delim) >= 0 || s[0] == '-' || s[0] == '#'
}

// checkQuoting checks needsQuotes against mustQuote on every string of v: it quotes all the
// strings the spec requires quoted, and others only for white space at either end.
func checkQuoting(v any, delim byte) error {
	switch v := v.(type) {
	case string:
		must := mustQuote(v, delim)
		got := needsQuotes(v, delim)
		first, _ := utf8.DecodeRuneInString(v)
		last, _ := utf8.DecodeLastRuneInString(v)
		extra := unicode.IsSpace(first) || unicode.IsSpace(last) || first == '\uFEFF' || last == '\uFEFF'
		if must && !got || got && !must && !extra {
			return fmt.Errorf("needsQuotes(%q, %q) = %v, section 7.2 says %v", v, delim, got, must)
		}
	case []any:
		for _, e := range v {
			if err := checkQuoting(e, delim); err != nil {
				return err
			}
		}
	case *jsontest.Object:
		for _, e := range v.Values {
			if err := checkQuoting(e, delim); err != nil {
				return err
			}
		}
	}
	return nil
}

// FuzzDecode: no document makes the decoder panic, in strict or lenient mode; what decodes is
// valid JSON, which encodes and decodes again to the same value.
func FuzzDecode(f *testing.F) {
	for _, tests := range loadFixtures(f, "decode") {
		for _, tt := range tests {
			var doc string
			if json.Unmarshal(tt.Input, &doc) == nil {
				f.Add([]byte(doc), tt.Options.Strict != nil && !*tt.Options.Strict)
			}
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, lenient bool) {
		got, err := ToJSON(doc, &DecodeOptions{Lenient: lenient})
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Line > strings.Count(string(doc), "\n")+1 {
				t.Fatalf("ToJSON(%q): error %v without a line of the document", doc, err)
			}
			return
		}
		if !json.Valid(got) {
			t.Fatalf("ToJSON(%q) = %q, not JSON", doc, got)
		}
		out, err := FromJSON(got, nil)
		if err != nil {
			t.Fatalf("FromJSON(ToJSON(%q)) = %v", doc, err)
		}
		back, err := ToJSON(out, nil)
		if err != nil {
			t.Fatalf("ToJSON(%q) = %s encodes to\n%s\nwhich does not decode: %v", doc, got, out, err)
		}
		if diff := (jsontest.Compare{}).Texts(got, back); diff != "" {
			t.Fatalf("ToJSON(%q) = %s encodes to\n%s\nwhich reads back as %s: %s", doc, got, out, back, diff)
		}
	})
}

package renderers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/contentneg/contentneg/format"
	"github.com/tidwall/gjson"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// FuzzEscapeMarkdown checks the round trip: parsing EscapeMarkdown(s) gives one paragraph whose
// text is s. Inputs are restricted to valid UTF-8 without NUL, which CommonMark replaces by U+FFFD
// (EscapeMarkdown does the same up front, so the round trip cannot hold for them).
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			t.Skip()
		}
		md := EscapeMarkdown(s)
		got, err := paragraphText(md)
		if err != nil || got != s {
			t.Fatalf("EscapeMarkdown(%q) = %q parses as %q, %v", s, md, got, err)
		}
		got, err = paragraphHTMLText(md)
		if err != nil || got != s {
			t.Fatalf("EscapeMarkdown(%q) = %q renders as %q, %v", s, md, got, err)
		}
	})
}

// FuzzPlainText checks that PlainText of any markdown without code blocks is plain text but for
// the source's list markers, and that it never panics.
func FuzzPlainText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("# Title\n\n- a\n- *b*\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n```\n# code\n```\n")
	f.Add("1. `__init__` and `<div>`\n2. [link](http://x) ![img](y)\n\n> quote\n\n    indented\n")
	f.Fuzz(func(t *testing.T, md string) {
		out := PlainText(md)
		if hasCode(md) {
			return // code lines are kept exactly, whatever they read as
		}
		if err := checkConverted(out); err != nil {
			t.Fatalf("PlainText(%q) = %q: %v", md, out, err)
		}
	})
}

// fuzzVerbosities are the verbosities the render fuzzers try.
var fuzzVerbosities = []format.Verbosity{
	format.Verbosity(0), format.Compact, format.Standard, format.Verbose,
}

// fuzzUnits gives units to a few common keys so verbose output is exercised.
var fuzzUnits = map[string]string{"a": "°C", "x": "km/h", "0": "|<b>|"}

func addValueSeeds(f *testing.F) {
	for _, name := range []string{"weather", "forecast", "nested", "hostile"} {
		v, err := os.ReadFile("testdata/" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(v, "Title")
	}
	f.Add([]byte(`[{"a":1,"b":"x"},{"a":2,"b":"- y"}]`), "# T")
	f.Add([]byte(`{"a":{"b":[1,[2,{"c":null}]]},"":""}`), "")
	f.Add([]byte(`"1. x"`), "---")
	f.Add([]byte(`{"x":`), "")
}

// FuzzMarkdown renders arbitrary JSON, and a value holding the fuzzed string in every place data
// goes, at every verbosity: no panic, invalid input reported as errInvalidJSON, and every output
// passes CheckMarkdown, holds only the node kinds Generic writes (no link, image, code, HTML, quote
// or break that data could have injected), converts with PlainText to plain text (but for its
// list markers, and the lines of a code block, kept exactly), and shows every
// data string as literal text (readsBack).
func FuzzMarkdown(f *testing.F) {
	addValueSeeds(f)
	f.Fuzz(func(t *testing.T, value []byte, title string) {
		checkMarkdownOf(t, placed(title), title)
		checkMarkdownOf(t, value, title)
	})
}

// checkMarkdownOf renders value at every verbosity and checks the outputs (see FuzzMarkdown).
func checkMarkdownOf(t *testing.T, value []byte, title string) {
	t.Helper()
	valid := json.Valid(value)
	for _, v := range fuzzVerbosities {
		md, err := Generic{}.markdown(value, Options{Verbosity: v, Title: title, Units: fuzzUnits})
		if !valid {
			if !errors.Is(err, errInvalidJSON) {
				t.Fatalf("Markdown(%q) error = %v, want errInvalidJSON", value, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Markdown(%q): %v", value, err)
		}
		if err := CheckMarkdown(md); err != nil {
			t.Fatalf("Markdown(%q) = %q: %v", value, md, err)
		}
		if err := checkStructure(md); err != nil {
			t.Fatalf("Markdown(%q) at %s = %q: %v", value, v, md, err)
		}
		if text := PlainText(md); !hasCode(md) && checkConverted(text) != nil {
			t.Fatalf("PlainText(%q) = %q: %v", md, text, checkConverted(text))
		}
		if err := readsBack(md, value, v == format.Compact); err != nil {
			t.Fatalf("Markdown(%q) at %s = %q: %v", value, v, md, err)
		}
	}
}

// readsBack checks that every string and key of the JSON value (nested less deep than the depth
// from which containers are written as minified JSON) appears as literal text in one text block
// or table cell of md, once markdown's escapes and character references are resolved. Strings
// that are empty, not valid UTF-8 or hold NUL are skipped (CommonMark replaces the last two).
func readsBack(md string, value []byte, compact bool) error {
	blocks := blockTexts(md)
	var missing string
	walkStrings(gjson.ParseBytes(value), 0, compact, func(s string) bool {
		if s == "" || !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return true
		}
		for _, b := range blocks {
			if strings.Contains(b, s) {
				return true
			}
		}
		missing = s
		return false
	})
	if missing != "" {
		return fmt.Errorf("data string %q does not read back as text (blocks %q)", missing, blocks)
	}
	return nil
}

// walkStrings calls f with every string value and every key of v up to depth maxDepth-2, until f
// returns false; with compact, not the keys of empty values, which compact drops. The fuzzers give
// no schema: a key is shown as it is, or made readable when every key of its object reads as a
// property name (namesOnly), and f gets the label.
func walkStrings(v gjson.Result, depth int, compact bool, f func(string) bool) bool {
	switch {
	case v.Type == gjson.String:
		return f(v.Str)
	case v.Type != gjson.JSON || depth >= maxDepth-2:
		return true
	}
	names := true // every key reads as a property name: labels are the keys made readable
	v.ForEach(func(key, _ gjson.Result) bool {
		names = key.Type == gjson.String && nameKey(key.Str)
		return names
	})
	ok := true
	v.ForEach(func(key, el gjson.Result) bool {
		shown := key.Type == gjson.String && !(compact && isEmpty(el))
		label := key.Str
		if names {
			label = readable(key.Str, fuzzUnits[key.Str])
		}
		ok = (!shown || f(label)) && walkStrings(el, depth+1, compact, f)
		return ok
	})
	return ok
}

// blockTexts parses md as GFM and returns the text of every block that holds inline content
// (paragraph, heading, text block, table cell), its escapes and references resolved and its hard
// line breaks read as "\n", and the text of every fenced code block.
func blockTexts(md string) []string {
	src := []byte(md)
	doc := gfmParser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock:
			var b strings.Builder
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b.Write(seg.Value(src))
			}
			out = append(out, b.String())
			return ast.WalkSkipChildren, nil
		case ast.KindParagraph, ast.KindHeading, ast.KindTextBlock, east.KindTableCell:
			var b strings.Builder
			_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
				if l, ok := c.(*ast.AutoLink); ok && entering { // an address, whose text is the address
					b.Write(l.Label(src))
				}
				if t, ok := c.(*ast.Text); ok && entering {
					b.WriteString(unescapeMarkdown(t.Segment.Value(src)))
					if t.HardLineBreak() {
						b.WriteByte('\n') // a line break in the data
					}
				}
				return ast.WalkContinue, nil
			})
			out = append(out, b.String())
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// FuzzText renders arbitrary JSON at every verbosity (no panic; invalid input reported as
// errInvalidJSON), then renders the same value, and a value holding the fuzzed string in every
// place data goes, with every string and key reduced to ordinary characters, and checks the output
// is plain text. Ordinary excludes the characters that form inline markdown ('*', '_', '~', '`',
// '<', '[', ']'), which text keeps verbatim by design.
func FuzzText(f *testing.F) {
	addValueSeeds(f)
	f.Fuzz(func(t *testing.T, value []byte, title string) {
		for _, v := range fuzzVerbosities {
			_, err := Generic{}.text(value, Options{Verbosity: v, Title: title, Units: fuzzUnits})
			if (err != nil) != !json.Valid(value) || err != nil && !errors.Is(err, errInvalidJSON) {
				t.Fatalf("Text(%q) error = %v, valid = %v", value, err, json.Valid(value))
			}
		}
		values := [][]byte{placed(ordinaryString(title))}
		if ordinary, ok := ordinaryValue(value); ok {
			values = append(values, ordinary)
		}
		for _, value := range values {
			for _, v := range fuzzVerbosities {
				out, err := Generic{}.text(value, Options{Verbosity: v, Title: ordinaryString(title)})
				if err != nil {
					t.Fatalf("Text(%q): %v", value, err)
				}
				if err := CheckPlain(out); err != nil {
					t.Fatalf("Text(%q) at %s = %q: %v", value, v, out, err)
				}
			}
		}
	})
}

// placed returns a value holding s in every place a renderer writes data: keys, values, table
// headers and cells (first and later columns), list elements, nested keys and root elements.
func placed(s string) []byte {
	v, err := json.Marshal(map[string]any{
		s: s, "k": s, "list": []string{s, s},
		"rows":   []map[string]string{{s: s, "z": s}, {s: s, "z": s}},
		"nested": map[string]any{s: map[string]any{s: []any{s, map[string]string{s: s}}}},
		"mixed":  []any{s, map[string]string{s: s}, []string{s}},
	})
	if err != nil {
		panic(err)
	}
	return v
}

// ordinaryValue re-encodes a JSON value with its strings and keys passed through ordinaryString.
func ordinaryValue(value []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	out, err := json.Marshal(ordinaryAny(v))
	return out, err == nil
}

func ordinaryAny(v any) any {
	switch v := v.(type) {
	case string:
		return ordinaryString(v)
	case []any:
		for i := range v {
			v[i] = ordinaryAny(v[i])
		}
		return v
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, el := range v {
			out[ordinaryString(k)] = ordinaryAny(el)
		}
		return out
	}
	return v
}

// ordinaryString replaces the characters that form inline markdown with 'x'.
func ordinaryString(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("*_~`<[]", r) {
			return 'x'
		}
		return r
	}, s)
}

// hasCode reports whether markdown md holds a code block.
func hasCode(md string) bool {
	found := false
	_ = ast.Walk(gfmParser().Parse(text.NewReader([]byte(validText(md)))), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && (n.Kind() == ast.KindCodeBlock || n.Kind() == ast.KindFencedCodeBlock) {
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

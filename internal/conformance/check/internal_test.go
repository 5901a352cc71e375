package check

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMarkupOf(t *testing.T) {
	data := map[string]any{"file": "README_*draft*.md", "title": "# not a heading", "n": 3.0}
	tests := []struct {
		name string
		give string
		want string // a prefix of the description; "" for none
	}{
		{"key=value lines", "file=README_*draft*.md\nn=3", ""},
		{"data that looks like emphasis", "file: README_*draft*.md", ""},
		{"data that looks like a heading", "# not a heading", ""},
		{"aligned table", "date        high  low\n2026-11-21   9.7  3.6", ""},
		{"a bare URL", "see https://example.com/a_b_c", ""},
		{"the renderer's emphasis", "**Bern**: rain", "Emphasis at line 1: \"**Bern**: rain\""},
		{"a heading of its own", "## Forecast\nrain", "Heading"},
		{"a list", "- rain\n- snow", "List"},
		{"a code fence", "```\nx\n```", "FencedCodeBlock"},
		{"an indented code block", "a\n\n    code", "CodeBlock"},
		{"HTML", "<b>rain</b>", "RawHTML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markupOf(tt.give, data)
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("markupOf(%q) = %q, want %q...", tt.give, got, tt.want)
			}
		})
	}
}

func TestRawHTML(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{"**Bern**: 5 < 7 and 7 > 5", ""},
		{"a `<b>` in code", ""},
		{"escaped \\<b>", ""},
		{"inline <b>bold</b>", "RawHTML"},
		{"<div>\nblock\n</div>", "HTMLBlock at line 1"},
		{"text\n\n<!-- comment -->", "HTMLBlock at line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got := rawHTML(tt.give)
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("rawHTML(%q) = %q, want %q...", tt.give, got, tt.want)
			}
		})
	}
}

func TestWireRecordsResultsByteForByte(t *testing.T) {
	w := newWire()
	out := &lineRecorder{f: w.sent}
	in := &lineRecorder{f: w.received}
	// Lines arrive in pieces, as from a pipe.
	for _, p := range []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":2,"met`, `hod":"tools/call","params":{}}` + "\n"} {
		_, _ = out.Write([]byte(p))
	}
	for _, p := range []string{`{"jsonrpc":"2.0","id":2,"result":{"b":1,  "a":2}}` + "\n", `{"jsonrpc":"2.0","method":"elicitation/create","id":7,"params":{}}` + "\n" + `{"jsonrpc":"2.0","id":1,"error":{"code":-1}}` + "\n"} {
		_, _ = in.Write([]byte(p))
	}
	if diff := cmp.Diff([]exchange{{Result: json.RawMessage(`{"b":1,  "a":2}`)}}, w.responses("tools/call")); diff != "" {
		t.Errorf("tools/call (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]exchange{{Error: json.RawMessage(`{"code":-1}`)}}, w.responses("tools/list")); diff != "" {
		t.Errorf("tools/list (-want +got):\n%s", diff)
	}
	if n := w.requestsFromServer("elicitation/create"); n != 1 {
		t.Errorf("%d elicitation requests, want 1", n)
	}
}

func TestEventParser(t *testing.T) {
	w := newWire()
	w.sent([]byte(`[{"jsonrpc":"2.0","id":"a","method":"tools/call"},{"jsonrpc":"2.0","id":"b","method":"tools/call"}]`))
	rec := &lineRecorder{f: newEventParser(w)}
	stream := "event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\r\ndata: \"result\":{\"x\":1}}\r\n\r\n: keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{}}\n\n"
	for i := 0; i < len(stream); i += 7 {
		_, _ = rec.Write([]byte(stream[i:min(i+7, len(stream))]))
	}
	got := w.responses("tools/call")
	want := []exchange{{Result: json.RawMessage(`{"x":1}`)}, {Result: json.RawMessage(`{}`)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		name   string
		give   string
		want   any
		wantOK bool
	}{
		{"structuredContent", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1}}`, map[string]any{"a": json.Number("1")}, true},
		{"one JSON text block", `{"content":[{"type":"text","text":" [1,2] "}]}`, []any{json.Number("1"), json.Number("2")}, true},
		{"prose", `{"content":[{"type":"text","text":"hello"}]}`, nil, false},
		{"a JSON string", `{"content":[{"type":"text","text":"\"hello\""}]}`, nil, false},
		{"two blocks", `{"content":[{"type":"text","text":"{}"},{"type":"text","text":"{}"}]}`, nil, false},
		{"trailing data", `{"content":[{"type":"text","text":"{} {}"}]}`, nil, false},
		{"null structuredContent", `{"content":[{"type":"text","text":"{\"a\":2}"}],"structuredContent":null}`, map[string]any{"a": json.Number("2")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := decodeResult(json.RawMessage(tt.give))
			if !ok {
				t.Fatal("not a result")
			}
			got, gotOK := r.canonical()
			if gotOK != tt.wantOK || !cmp.Equal(got, tt.want) {
				t.Errorf("canonical = %v, %v; want %v, %v", got, gotOK, tt.want, tt.wantOK)
			}
		})
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name string
		give Options
	}{
		{"no server", Options{Tool: "t"}},
		{"two servers", Options{Target: Target{URL: "http://127.0.0.1:1/mcp", Command: []string{"x"}}, Tool: "t"}},
		{"no tool", Options{Target: Target{URL: "http://127.0.0.1:1/mcp"}}},
		{"arguments an array", Options{Target: Target{URL: "http://127.0.0.1:1/mcp"}, Tool: "t", Arguments: json.RawMessage(`[1]`)}},
		{"unknown era", Options{Target: Target{URL: "http://127.0.0.1:1/mcp"}, Tool: "t", Eras: []Era{"2024-11-05"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(t.Context(), tt.give); err == nil || !strings.Contains(err.Error(), ErrOptions.Error()) {
				t.Errorf("Run: %v, want an options error", err)
			}
		})
	}
}

// TestCanonicalValues runs conformance/values.json, the vectors this
// project's library is tested with too, on the kit's own reading of a
// result.
func TestCanonicalValues(t *testing.T) {
	cases, err := Values()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r, ok := decodeResult(c.Result)
			if !ok {
				t.Fatalf("the result does not decode: %s", c.Result)
			}
			got, has := r.canonical()
			if has != (c.Canonical != nil) {
				t.Fatalf("canonical value %v (%v), want one: %v", got, has, c.Canonical != nil)
			}
			if !has {
				return
			}
			if !jsonEqual(c.Canonical, got) {
				t.Errorf("canonical value %v, want %s", got, c.Canonical)
			}
			if !jsonEqual([]byte(c.Mirror), got) {
				t.Errorf("the mirror %s is not the value", c.Mirror)
			}
		})
	}
}

func TestNumbersCompareByTheirDigits(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"12345678901234567890", "12345678901234567890", true},
		{"12345678901234567890", "12345678901234567000", false},
		{"12345678901234567890", "1.234567890123456789e19", true},
		{"1e-7", "1E-7", true},
		{"1e-7", "0.0000001", true},
		{"1e-7", "1e-8", false},
		{"1.50E+300", "15e299", true},
		{"-0", "0", true},
		{"0.000", "0e5", true},
		{"-1", "1", false},
		{"100", "1e2", true},
		{"1e99999999999999999999", "1e99999999999999999999", true},
		{"1e99999999999999999999", "1e99999999999999999998", false},
	}
	for _, tt := range tests {
		if got := sameValue(json.Number(tt.a), json.Number(tt.b)); got != tt.want {
			t.Errorf("sameValue(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

package middleware_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/renderers"
)

const testTimeout = 10 * time.Second

// check is one assertion on a tools/call result.
type check func(t *testing.T, res *mcp.CallToolResult)

// textBlocks returns the text of every text block.
func textBlocks(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

func onlyText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	texts := textBlocks(res)
	if len(texts) != 1 {
		t.Fatalf("%d text blocks, want 1: %q", len(texts), texts)
	}
	return texts[0]
}

// jsonMirror: one text block holding the minified JSON of structuredContent
// (in the order of the tool's struct: see inOrder).
func jsonMirror(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	sc, err := json.Marshal(res.StructuredContent)
	if err != nil || res.StructuredContent == nil {
		t.Fatalf("no structuredContent: %v", err)
	}
	got := onlyText(t, res)
	var compact bytes.Buffer
	var mirrored any
	if json.Compact(&compact, []byte(got)) != nil || compact.String() != got || json.Unmarshal([]byte(got), &mirrored) != nil {
		t.Fatalf("text block = %q, want minified JSON", got)
	}
	if again, _ := json.Marshal(mirrored); string(again) != string(sc) {
		t.Errorf("text block = %q, want the value of structuredContent %q", got, sc)
	}
}

// markdown: one text block that is valid, HTML-free markdown, not JSON.
func markdown(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	md := onlyText(t, res)
	if err := renderers.CheckMarkdown(md); err != nil {
		t.Errorf("markdown check: %v\n%s", err, md)
	}
	if json.Valid([]byte(md)) {
		t.Errorf("markdown block is JSON: %s", md)
	}
}

// plainText: one text block with no markup at all, not JSON.
func plainText(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	text := onlyText(t, res)
	if err := renderers.CheckPlain(text); err != nil {
		t.Errorf("plain-text check: %v\n%s", err, text)
	}
	if json.Valid([]byte(text)) {
		t.Errorf("text block is JSON: %s", text)
	}
}

// convertedText checks a markdown tool's result converted to plain text: plain text but for the
// list markers of its source, which the conversion keeps (SPEC 5, text rules).
func convertedText(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	text := onlyText(t, res)
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimPrefix(line, "- ")
	}
	if err := renderers.CheckPlain(strings.Join(lines, "\n")); err != nil {
		t.Errorf("plain-text check, list markers aside: %v\n%s", err, text)
	}
}

func withStructured(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	if res.StructuredContent == nil {
		t.Error("structuredContent dropped, but the tool declares an output schema")
	}
}

func withoutStructured(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	if res.StructuredContent != nil {
		t.Errorf("structuredContent kept for a tool without an output schema: %v", res.StructuredContent)
	}
}

func contains(parts ...string) check {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		all := strings.Join(textBlocks(res), "\n")
		for _, p := range parts {
			if !strings.Contains(all, p) {
				t.Errorf("content lacks %q:\n%s", p, all)
			}
		}
	}
}

func lacks(parts ...string) check {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		all := strings.Join(textBlocks(res), "\n")
		for _, p := range parts {
			if strings.Contains(all, p) {
				t.Errorf("content holds %q:\n%s", p, all)
			}
		}
	}
}

// inOrder: the parts appear in this order (schema order, not the
// alphabetical order the SDK delivers).
func inOrder(parts ...string) check {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		all := strings.Join(textBlocks(res), "\n")
		last := -1
		for _, p := range parts {
			i := strings.Index(all, p)
			if i < last {
				t.Errorf("%q is out of order in:\n%s", p, all)
			}
			last = i
		}
	}
}

// sameAsUndeclared: the result equals what a client that does not declare
// the extension gets.
func sameAsUndeclared(e era, tool string, args any) check {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		want := call(t, connect(t, e, nil), tool, args)
		if got, wantJSON := mustJSON(t, res), mustJSON(t, want); got != wantJSON {
			t.Errorf("result differs from the undeclared client's:\n got %s\nwant %s", got, wantJSON)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func TestToolRenderings(t *testing.T) {
	bern := map[string]any{"station": "Bern"}
	empty := map[string]any{}
	for _, e := range eras {
		tests := []struct {
			name string
			tags []string
			tool string
			args any
			want []check
		}{
			{"undeclared typed", nil, toolTyped, bern, []check{jsonMirror, withStructured}},
			{"only invalid tags pass through", []string{"@#$%", "format==json"}, toolTyped, bern, []check{sameAsUndeclared(e, toolTyped, bern)}},
			{"standard verbosity alone passes through", []string{"verbosity=standard"}, toolTyped, bern, []check{sameAsUndeclared(e, toolTyped, bern)}},
			{"agent gets structured, its mirror in the struct's order", []string{"agent"}, toolTyped, bern, []check{jsonMirror, withStructured, inOrder("station", "temperature_c", "humidity_percent")}},
			{"agent json compact gets structuredContent alone", []string{"agent", "format=json", "verbosity=compact"}, toolTyped, bern, []check{noText, withStructured}},
			{"json for an untyped tool", []string{"format=json"}, toolPlain, empty, []check{noText, withStructured}},
			{"human gets markdown", []string{"human"}, toolTyped, bern, []check{markdown, withStructured, contains("Bern", "8.5", "81"), inOrder("station", "temperature_c", "humidity_percent")}},
			{"markdown for a tool without output schema drops structuredContent", []string{"format=markdown"}, toolPlain, empty, []check{markdown, withoutStructured, contains("Europe/Zurich")}},
			{"verbose markdown has the schema's descriptions", []string{"human", "verbosity=verbose"}, toolTyped, bern, []check{markdown, contains("air temperature in degrees Celsius")}},
			{"compact markdown", []string{"human", "verbosity=compact"}, toolTyped, bern, []check{markdown, withStructured, contains("Bern"), lacks("air temperature in degrees Celsius", "**")}},
			{"verbose text has the schema's descriptions", []string{"format=text", "verbosity=verbose"}, toolTyped, bern, []check{plainText, contains("Bern", "air temperature in degrees Celsius")}},
			{"standard markdown has no descriptions", []string{"human"}, toolTyped, bern, []check{lacks("air temperature in degrees Celsius")}},
			{"text", []string{"format=text"}, toolTyped, bern, []check{plainText, withStructured, contains("Bern", "8.5", "81"), inOrder("station", "temperature_c", "humidity_percent")}},
			{"compact text", []string{"format=text", "verbosity=compact"}, toolTyped, bern, []check{plainText, withStructured, contains("Bern", "8.5")}},
			{"text for a tool without output schema", []string{"format=text"}, toolPlain, empty, []check{plainText, withoutStructured, contains("Europe/Zurich")}},
			{"human excluding markdown gets text", []string{"human", "format!=markdown"}, toolTyped, bern, []check{plainText}},
			{"compact verbosity alone gives text", []string{"verbosity=compact"}, toolTyped, bern, []check{plainText}},
			{"a markdown tool's result becomes plain text", []string{"format=text"}, toolMarkdown, empty, []check{convertedText, contains("Report", "cold", "Bern", "- wear a coat", "- take a hat"), lacks("**", "](", "# ")}},
			{"markdown-only result stays for markdown", []string{"human"}, toolMarkdown, empty, []check{sameAsUndeclared(e, toolMarkdown, empty)}},
			{"markdown-only result stays for json", []string{"agent"}, toolMarkdown, empty, []check{sameAsUndeclared(e, toolMarkdown, empty)}},
			{"plain text result stays for text", []string{"format=text"}, toolPlainTxt, empty, []check{sameAsUndeclared(e, toolPlainTxt, empty)}},
			{"tool errors are untouched for markdown", []string{"human"}, toolError, bern, []check{sameAsUndeclared(e, toolError, bern)}},
			{"tool errors are untouched for text", []string{"format=text", "verbosity=compact"}, toolError, bern, []check{sameAsUndeclared(e, toolError, bern)}},
			{"non-text blocks are kept", []string{"human"}, toolImage, empty, []check{markdown, hasImage}},
			{"hints for sampling clients", []string{"agent", "sampling"}, toolHints, bern, []check{hintsBlock, withStructured}},
			{"no hints without sampling", []string{"agent"}, toolHints, bern, []check{jsonMirror, lacks("umbrella")}},
			{"hints for a sampling client that passes through", []string{"sampling"}, toolHints, bern, []check{hintsBlock}},
		}
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				res := call(t, connect(t, e, tt.tags), tt.tool, tt.args)
				for _, c := range tt.want {
					c(t, res)
				}
			})
		}
	}
}

func hasImage(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	for _, c := range res.Content {
		if img, ok := c.(*mcp.ImageContent); ok && img.MIMEType == "image/png" {
			return
		}
	}
	t.Errorf("the image block was lost: %v", res.Content)
}

// hintsBlock: the last block holds the hints, for the assistant, and the
// structuredContent carries none of them.
func hintsBlock(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	last, ok := res.Content[len(res.Content)-1].(*mcp.TextContent)
	if !ok || !strings.Contains(last.Text, "umbrella") {
		t.Fatalf("the last block is not the hints: %v", res.Content)
	}
	if last.Annotations == nil || len(last.Annotations.Audience) != 1 || last.Annotations.Audience[0] != "assistant" {
		t.Errorf("hints block annotations = %+v, want audience [assistant]", last.Annotations)
	}
	if sc := mustJSON(t, res.StructuredContent); strings.Contains(sc, "umbrella") {
		t.Errorf("hints leaked into structuredContent: %s", sc)
	}
}

func TestCompactTextIsSmallerThanStandard(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			args := map[string]any{"station": "Bern"}
			compact := onlyText(t, call(t, connect(t, e, []string{"format=text", "verbosity=compact"}), toolTyped, args))
			standard := onlyText(t, call(t, connect(t, e, []string{"format=text"}), toolTyped, args))
			mirror := onlyText(t, call(t, connect(t, e, nil), toolTyped, args))
			if len(compact) >= len(standard) || len(compact) >= len(mirror) {
				t.Errorf("compact text (%d bytes) is not smaller than standard text (%d) and the JSON mirror (%d):\n%s", len(compact), len(standard), len(mirror), compact)
			}
		})
	}
}

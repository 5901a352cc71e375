package matrix

import (
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/contentneg/contentneg/featuretags"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/renderers"
)

// Rendering is what a profile got, as the matrix observes it from the first
// text block of the result.
type Rendering string

// The renderings the matrix tells apart.
const (
	// RenderJSONMirror: the text is JSON equal to the structuredContent.
	RenderJSONMirror Rendering = "json (mirror)"
	// RenderJSON: the text is a JSON object or array (not a mirror).
	RenderJSON Rendering = "json"
	// RenderMarkdown: a markdown parser finds markup in the text.
	RenderMarkdown Rendering = "markdown"
	// RenderText: plain text, without markup.
	RenderText Rendering = "text"
	// RenderTOON: TOON (text/toon), which the profile asked for with format=toon and got as text
	// that is not JSON.
	RenderTOON Rendering = "toon"
	// RenderError: the result has isError set.
	RenderError Rendering = "error"
	// RenderStructured: no content block, structuredContent alone (what an
	// explicit format=json gets by default).
	RenderStructured Rendering = "structured only"
	// RenderNone: the result has neither a text block nor structuredContent.
	RenderNone Rendering = "none"
	// RenderFailed: the profile got no result (see Row.Error).
	RenderFailed Rendering = "failed"
)

// Limits of what a row keeps of a result's text.
const (
	// MaxKeptText is the most bytes of one text block a row keeps.
	MaxKeptText = 64 << 10
	// MaxKeptBlocks is the most text blocks a row keeps.
	MaxKeptBlocks = 16
)

// observe fills row from a tools/call result and returns the result's data
// (see canonical). schema is the tool's output schema as tools/list gave it
// (nil: none).
func observe(row *Row, res *mcp.CallToolResult, schema any) (any, error) {
	whole, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	row.ResultBytes = len(whole)
	var first *string
	for _, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok {
			continue
		}
		if first == nil {
			first = &t.Text
		}
		row.TextBlocks++
		row.TextBytes += len(t.Text)
		n, approx, err := CountTokens(t.Text)
		if err != nil {
			return nil, err
		}
		row.Tokens += n
		row.TokensApprox = row.TokensApprox || approx
		if len(row.Texts) < MaxKeptBlocks {
			kept := clipBytes(t.Text, MaxKeptText)
			row.TextsTruncated = row.TextsTruncated || len(kept) < len(t.Text)
			row.Texts = append(row.Texts, kept)
		} else {
			row.TextsTruncated = true
		}
	}
	row.Rendering = classify(res, first)
	if (row.Rendering == RenderText || row.Rendering == RenderMarkdown) && askedTOON(row.Tags) {
		row.Rendering = RenderTOON
	}
	row.Structured = checkStructured(res, schema)
	return canonical(res, first), nil
}

// canonical returns the result's data, decoded: its structuredContent, else
// the JSON object or array of its first text block; nil when it has none.
func canonical(res *mcp.CallToolResult, first *string) any {
	if res.IsError {
		return nil
	}
	if res.StructuredContent != nil {
		return res.StructuredContent
	}
	if first == nil {
		return nil
	}
	var v any
	if json.Unmarshal([]byte(*first), &v) != nil {
		return nil
	}
	switch v.(type) {
	case map[string]any, []any:
		return v
	}
	return nil
}

// maxDataStrings bounds the strings of the data that reclassify masks.
const maxDataStrings = 10000

// reclassify looks again at the rows that seem to hold markdown, with the
// data of the run in hand (the first that a row had: a text rendering
// carries no structuredContent of its own when the tool declares no output
// schema). Plain text writes data verbatim, so a value such as
// "Grace *Hopper*" parses as emphasis: only markup outside the data's own
// strings makes a text markdown.
func reclassify(rows []Row, data any) {
	if data == nil {
		return
	}
	var masked *strings.Replacer
	for i := range rows {
		r := &rows[i]
		if r.Rendering != RenderMarkdown || len(r.Texts) == 0 {
			continue
		}
		if masked == nil {
			masked = masker(data)
		}
		if renderers.CheckPlain(masked.Replace(r.Texts[0])) == nil {
			r.Rendering = RenderText
		}
	}
}

// masker returns a replacer that writes every string of data (keys and
// values, at most maxDataStrings, the longest first) as as many x's.
func masker(data any) *strings.Replacer {
	var strs []string
	var walk func(any)
	walk = func(v any) {
		if len(strs) >= maxDataStrings {
			return
		}
		switch x := v.(type) {
		case string:
			if x != "" {
				strs = append(strs, x)
			}
		case map[string]any:
			for k, e := range x {
				if k != "" {
					strs = append(strs, k)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(data)
	slices.SortFunc(strs, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	pairs := make([]string, 0, 2*len(strs))
	for _, s := range strs {
		pairs = append(pairs, s, strings.Repeat("x", len(s)))
	}
	return strings.NewReplacer(pairs...)
}

// askedTOON reports whether tags ask for TOON: their first format is toon.
func askedTOON(tags []string) bool {
	if tags == nil {
		return false
	}
	set, _ := featuretags.Parse(tags)
	format, ok := set.Value("format")
	return ok && format == "toon"
}

// classify names the rendering of a result from its first text block.
func classify(res *mcp.CallToolResult, first *string) Rendering {
	switch {
	case res.IsError:
		return RenderError
	case first == nil && len(res.Content) == 0 && res.StructuredContent != nil:
		return RenderStructured
	case first == nil:
		return RenderNone
	}
	text := strings.TrimSpace(*first)
	if (strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[")) && json.Valid([]byte(text)) {
		if res.StructuredContent != nil && jsonEqual([]byte(text), res.StructuredContent) {
			return RenderJSONMirror
		}
		return RenderJSON
	}
	if renderers.CheckPlain(*first) != nil {
		return RenderMarkdown
	}
	return RenderText
}

// jsonEqual reports whether the JSON text and the value v hold the same JSON
// value, whatever the order of keys and the spacing.
func jsonEqual(text []byte, v any) bool {
	var a, b any
	if err := json.Unmarshal(text, &a); err != nil {
		return false
	}
	vb, err := json.Marshal(v)
	if err != nil {
		return false
	}
	if err := json.Unmarshal(vb, &b); err != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

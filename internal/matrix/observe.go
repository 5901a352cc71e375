package matrix

import (
	"encoding/json"
	"fmt"
	"reflect"
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

// observe fills row from a tools/call result. schema is the tool's output
// schema as tools/list gave it (nil: none).
func observe(row *Row, res *mcp.CallToolResult, schema any) error {
	whole, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode the result: %w", err)
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
			return err
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
	row.Structured = checkStructured(res, schema)
	return nil
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

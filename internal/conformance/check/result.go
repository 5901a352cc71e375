package check

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
)

// toolResult is a tools/call result as it was on the wire.
type toolResult struct {
	blocks     []block
	structured json.RawMessage // nil when absent or null
	isError    bool
}

// block is one content block.
type block struct {
	raw      json.RawMessage
	kind     string
	text     string
	audience []string
}

// isText reports whether b is a text block.
func (b block) isText() bool { return b.kind == "text" }

// forAssistantOnly reports whether b is annotated audience ["assistant"].
func (b block) forAssistantOnly() bool {
	return len(b.audience) == 1 && b.audience[0] == "assistant"
}

// decodeResult decodes a raw tools/call result; ok is false when raw is not
// a result object.
func decodeResult(raw json.RawMessage) (r toolResult, ok bool) {
	var w struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &w) != nil {
		return r, false
	}
	r.isError = w.IsError
	if s := bytes.TrimSpace(w.StructuredContent); len(s) > 0 && !bytes.Equal(s, []byte("null")) {
		r.structured = s
	}
	for _, c := range w.Content {
		var b struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			Annotations struct {
				Audience []string `json:"audience"`
			} `json:"annotations"`
		}
		if json.Unmarshal(c, &b) != nil {
			continue
		}
		r.blocks = append(r.blocks, block{raw: c, kind: b.Type, text: b.Text, audience: b.Annotations.Audience})
	}
	return r, true
}

// texts returns the text blocks of r.
func (r toolResult) texts() []block {
	var out []block
	for _, b := range r.blocks {
		if b.isText() {
			out = append(out, b)
		}
	}
	return out
}

// mainTexts returns the text blocks of r that are not hints (not annotated
// for the assistant only).
func (r toolResult) mainTexts() []block {
	var out []block
	for _, b := range r.texts() {
		if !b.forAssistantOnly() {
			out = append(out, b)
		}
	}
	return out
}

// nonText returns the blocks of r that are not text.
func (r toolResult) nonText() []block {
	var out []block
	for _, b := range r.blocks {
		if !b.isText() {
			out = append(out, b)
		}
	}
	return out
}

// canonical returns the result's canonical value (SPEC section 5): its
// structuredContent, or else the JSON object or array of its only text
// block. ok is false when it has none.
func (r toolResult) canonical() (v any, ok bool) {
	if r.structured != nil {
		return decodeJSON(r.structured)
	}
	if len(r.blocks) == 1 && r.blocks[0].isText() {
		v, ok := decodeJSON([]byte(r.blocks[0].text))
		if !ok {
			return nil, false
		}
		switch v.(type) {
		case map[string]any, []any:
			return v, true
		}
	}
	return nil, false
}

// decodeJSON decodes data, which must be one JSON value with nothing but
// JSON whitespace around it. Numbers stay json.Number, with their digits.
func decodeJSON(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false // trailing data, valid or not
	}
	return v, true
}

// jsonEqual reports whether data holds one JSON value equal to v.
func jsonEqual(data []byte, v any) bool {
	w, ok := decodeJSON(data)
	return ok && sameValue(w, v)
}

// sameValue reports whether two decoded JSON values are equal: numbers by
// their exact decimal value (12345678901234567890 is not
// 12345678901234567000; 1e-7 is 1E-7 and 0.0000001), members in any order.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, sameValue)
	case json.Number:
		y, ok := b.(json.Number)
		return ok && decimalOf(string(x)) == decimalOf(string(y))
	default:
		return a == b
	}
}

// decimal is a JSON number in a canonical form: its sign, its significant
// digits without leading or trailing zeros, and the power of ten of the
// last of them. Zero is the empty digits, whatever its sign.
type decimal struct {
	negative bool
	digits   string
	exp      int64
}

// decimalOf returns the canonical form of a valid JSON number; an exponent
// too large to hold gives a form no other number shares.
func decimalOf(n string) decimal {
	var d decimal
	if strings.HasPrefix(n, "-") {
		d.negative, n = true, n[1:]
	}
	mant, exp, _ := strings.Cut(strings.ToLower(n), "e")
	e, err := strconv.ParseInt(exp, 10, 64)
	if exp != "" && err != nil || e > 1<<40 || e < -(1<<40) {
		return decimal{digits: "overflow:" + n}
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	e -= int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	e += int64(len(digits) - len(trimmed))
	if trimmed == "" {
		return decimal{}
	}
	d.digits, d.exp = trimmed, e
	return d
}

// isContainer reports whether v is a JSON object or array.
func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// hasBlock reports whether r has a block JSON-equal to b.
func (r toolResult) hasBlock(b block) bool {
	want, ok := decodeJSON(b.raw)
	return ok && slices.ContainsFunc(r.blocks, func(c block) bool { return jsonEqual(c.raw, want) })
}

// dataStrings returns the strings of v, keys and values, at most limit.
func dataStrings(v any, limit int) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		if len(out) >= limit {
			return
		}
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case map[string]any:
			for k, e := range x {
				out = append(out, k)
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

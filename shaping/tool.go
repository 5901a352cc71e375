package shaping

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/markup"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

// Result describes a tools/call result in SDK-neutral terms.
type toolResult struct {
	// Tool is the tool's name: it selects the registered renderer.
	Tool string
	// Value is structuredContent as JSON; nil when the result has none.
	Value []byte
	// HasOutputSchema says the tool declares an output schema, so its
	// results must keep conforming structuredContent.
	HasOutputSchema bool
	// Schema is the parsed output schema (field order and descriptions), or nil.
	Schema *renderers.Schema
	// IsError marks a tool error; it is never rendered.
	IsError bool
	// NeedsInput marks a result that asks for input (inputRequests); it is
	// never rendered.
	NeedsInput bool
	// Texts holds the text of each text block of the result, in order. A
	// result with a Value needs them only when MirrorsValue is not set.
	Texts []string
	// NonText is the number of the result's other blocks (images, audio,
	// resources).
	NonText int
	// MirrorsValue says the result's content is one text block holding
	// exactly the text of Value, as a typed tool's is: front ends set it
	// instead of building Texts, which results with a Value need for
	// nothing else.
	MirrorsValue bool
	// FormatArgument says the format was the model's choice, by the
	// per-call format argument ([Options].FormatArgument): "json" then
	// keeps the minified JSON mirror, since the client may show the model
	// only content.
	FormatArgument bool
	// Hints are the reasoning hints the handler attached.
	Hints []string

	minified bool // Value is minified already (shaping put it in order)
	// FromStruct says Value was encoded from a Go struct, so its members
	// are in the order of the struct's fields (front ends learn it from the
	// type of the SDK's structured content). Then that order is rendered,
	// whatever the output schema's; otherwise the schema's order, when
	// there is one (contract section 5, "Order and identity").
	FromStruct bool
}

// Plan says what becomes of a result. The zero Plan leaves it as it is.
type toolPlan struct {
	// Rendering is the rendering applied; PassThrough when the content is
	// left as the handler made it.
	Rendering format.Rendering
	// ReplaceText: every text block of the result is replaced by one block
	// holding Text, placed first; when Text is empty, by none. Other blocks
	// (images, audio, resources) stay, in their order.
	ReplaceText bool
	// Text is the text of the block that replaces the text blocks.
	Text string
	// Texts, when non-nil, replaces the text of each text block one for one
	// (a markdown-only result converted to plain text).
	Texts []string
	// DropStructured: structuredContent is removed.
	DropStructured bool
	// Structured, when non-nil, is the JSON that structuredContent is set
	// to, minified with its numbers' exact digits: the canonical value of a
	// result whose one text block held it (contract section 5).
	Structured []byte
	// Hints, when not empty, is the text of one extra block at the end,
	// annotated for the assistant. It never goes into structuredContent.
	Hints string
}

// Block is one content block of a tools/call result as the core planned it:
// [ToolPort] Rebuild gets them in order.
type Block struct {
	// From is the index of the handler's block this one is, or -1 for a new
	// text block.
	From int
	// Text replaces the text of the handler's text block From when
	// Replaced; it is the text of a new block.
	Text     string
	Replaced bool
	// ForAssistant marks the hints block: annotate it with audience
	// ["assistant"].
	ForAssistant bool
}

// Content returns the blocks of the planned result in order, given for
// each of the handler's blocks whether it is a text block.
func (p toolPlan) blocks(isText []bool) []Block {
	out := make([]Block, 0, len(isText)+2)
	if p.ReplaceText && p.Text != "" {
		out = append(out, Block{From: -1, Text: p.Text})
	}
	texts := 0
	for i, text := range isText {
		switch {
		case text && p.ReplaceText:
			continue
		case text && texts < len(p.Texts):
			out = append(out, Block{From: i, Text: p.Texts[texts], Replaced: true})
			texts++
		default:
			out = append(out, Block{From: i})
		}
	}
	if p.Hints != "" {
		out = append(out, Block{From: -1, Text: p.Hints, ForAssistant: true})
	}
	return out
}

// Unchanged reports whether the plan leaves the result exactly as it is.
func (p toolPlan) unchanged() bool {
	return !p.ReplaceText && p.Texts == nil && !p.DropStructured && p.Structured == nil && p.Hints == ""
}

// planTool plans a tools/call result for the profile (contract section 5):
//
//   - tool errors and results asking for input: unchanged, without hints;
//   - pass-through: unchanged but for hints;
//   - structured: structuredContent, with its minified JSON as the one text
//     block (or what [Options.Mirror] says, for clients that declared
//     format=json themselves: not by the format argument, nor by the
//     operator's default tags);
//   - markdown, text (or a registered media type): one rendered text block;
//     structuredContent stays only when the tool declares an output schema;
//   - a result without structuredContent whose content is exactly one text
//     block holding a JSON object or array has that JSON as its value, and
//     is treated exactly as if it were structuredContent: the structured
//     rendering sets structuredContent to it (Plan.Structured) with the
//     mirror above, the others render it;
//   - a tool registered as verbatim ([Tool].Verbatim) keeps its result as
//     the handler gave it in every rendering, hints aside;
//   - any other result without structuredContent is left as it is, except
//     that a tool registered as answering in markdown ([Tool].Markdown) has
//     its markdown converted to plain text for the text rendering: text is
//     never guessed to be markdown.
//
// Renderings and the mirror follow one member order on every SDK: a Go
// struct's (toolResult.FromStruct), else the output schema's, else the
// value's own (contract section 5, "Order and identity"). Hints go in one
// extra block when the profile wants them. Planning never
// fails: a renderer that errors or panics gives the structured rendering,
// and the failure is logged.
func (s *Shaper) planTool(p *negotiation.Profile, r toolResult) toolPlan {
	if r.IsError || r.NeedsInput {
		return toolPlan{} // untouched, hints included: the handler's error or question stands as it is
	}
	plan := toolPlan{Hints: hintsText(p, r.Hints)}
	rendering := p.Rendering()
	if rendering == format.RenderingPassThrough {
		return plan
	}
	tab := s.registry.load()
	t := tab.settings(r.Tool)
	fromText := false
	switch {
	case t.Verbatim && rendering == format.RenderingHTML:
		return htmlTexts(plan, r.Texts, false)
	case t.Verbatim:
		return plan // a document: its text stays exactly as the handler gave it
	case r.Value == nil:
		value, ok := textValue(r.Texts, r.NonText)
		if !ok {
			if rendering == format.RenderingHTML {
				return htmlTexts(plan, r.Texts, t.Markdown)
			}
			if rendering == format.RenderingText && t.Markdown {
				if plan.Texts = plainTexts(r.Texts); plan.Texts != nil {
					plan.Rendering = format.RenderingText
				}
			}
			return plan
		}
		r.Value, fromText = value, true
	}
	if value, reordered := inOrder(r); reordered {
		// The same typed tool gives the same text on every SDK: its mirror
		// and renderings follow the one order. structuredContent stays as
		// the handler gave it (its clients decode it as an object).
		r.Value, r.MirrorsValue, r.minified = value, false, true
	}

	opts := renderers.Options{Verbosity: p.Verbosity(), Schema: r.Schema, Title: t.Title, Units: t.Units, ValueOrder: true}
	if rendering != format.RenderingStructured {
		out, err := s.render(lookup(tab, r.Tool, p.MediaType()), r.Value, p.MediaType(), opts)
		if err == nil {
			plan.Rendering, plan.ReplaceText, plan.Text = rendering, true, out
			plan.DropStructured = !r.HasOutputSchema
			return plan
		}
		s.log.Warn("renderer failed; structured rendering used instead",
			zap.String("tool", r.Tool), zap.String("mediaType", p.MediaType()), zap.Error(err))
		if rendering == format.RenderingHTML {
			// Never a JSON text where HTML is expected: the value, escaped.
			plan.Rendering, plan.ReplaceText = rendering, true
			plan.Text = markup.Preformatted(string(r.Value))
			plan.DropStructured = !r.HasOutputSchema
			return plan
		}
	}
	plan.Rendering = format.RenderingStructured
	if fromText {
		// The value is minified already: it is structuredContent, and its
		// text the mirror.
		plan.Structured, plan.DropStructured = r.Value, false
		r.MirrorsValue = false
	}
	s.mirrorPlan(tab, &plan, p, r, opts)
	return plan
}

// errNoRenderer reports a media type that neither the tool nor the generic
// renderers produce.
var errNoRenderer = errors.New("no renderer for the media type")

// lookup returns the tool's renderer for the media type, or one that fails
// with errNoRenderer.
func lookup(tab *table, tool, mediaType string) renderers.Renderer {
	if r, ok := tab.renderer(tool, mediaType); ok {
		return r
	}
	return noRenderer{}
}

type noRenderer struct{}

func (noRenderer) Render([]byte, renderers.Options) (string, error) { return "", errNoRenderer }

// mirrorPlan fills the text of the structured rendering.
func (s *Shaper) mirrorPlan(tab *table, plan *toolPlan, p *negotiation.Profile, r toolResult, opts renderers.Options) {
	if s.structuredAlone(p, r.FormatArgument) {
		switch s.mirror {
		case mirrorNone:
			plan.ReplaceText = true
			return
		case mirrorCompactText:
			opts.Verbosity = format.Compact
			out, err := s.render(lookup(tab, r.Tool, format.Text.MediaType), r.Value, format.Text.MediaType, opts)
			if err == nil {
				plan.ReplaceText, plan.Text = true, out
				return
			}
			s.log.Warn("renderer failed; the compact text mirror is the JSON instead",
				zap.String("tool", r.Tool), zap.Error(err))
		}
	}
	if r.MirrorsValue || len(r.Texts) == 1 && r.Texts[0] == string(r.Value) {
		// The usual case of a typed tool: its one text block already is the
		// JSON of structuredContent, and the result can go out as it is.
		return
	}
	if r.minified {
		plan.ReplaceText, plan.Text = true, string(r.Value)
		return
	}
	var b bytes.Buffer
	b.Grow(len(r.Value))
	if err := json.Compact(&b, r.Value); err != nil {
		plan.ReplaceText, plan.Text = true, string(r.Value)
		return
	}
	plan.ReplaceText, plan.Text = true, b.String()
}

// render runs a renderer for a media type, turning a panic into an error.
func (s *Shaper) render(r renderers.Renderer, value []byte, mediaType string, opts renderers.Options) (out string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("renderer panicked: %v", v)
		}
	}()
	opts.MediaType = mediaType
	return r.Render(value, opts)
}

// textValue returns the canonical value of a result without
// structuredContent, minified: its content's one text block, when that
// holds a JSON object or array, with JSON whitespace around it at most
// (contract section 5; conformance/values.json). Numbers keep their digits.
func textValue(texts []string, nonText int) ([]byte, bool) {
	if len(texts) != 1 || nonText != 0 {
		return nil, false
	}
	t := strings.Trim(texts[0], " \t\r\n")
	if t == "" || t[0] != '{' && t[0] != '[' {
		return nil, false
	}
	var b bytes.Buffer
	b.Grow(len(t))
	if err := json.Compact(&b, []byte(t)); err != nil {
		return nil, false // not JSON, or more than one value
	}
	return b.Bytes(), true
}

// htmlTexts sets the plan of the HTML rendering of a result whose texts
// are not a value: each text converted by goldmark when the tool answers in
// markdown, else escaped in a <pre> element (text is never guessed to be
// markdown). No text reaches an HTML client unescaped.
func htmlTexts(plan toolPlan, texts []string, markdown bool) toolPlan {
	if len(texts) == 0 {
		return plan
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = markup.Preformatted(t)
		if markdown {
			if h, err := markup.ToHTML(t); err == nil {
				out[i] = h
			}
		}
	}
	plan.Texts, plan.Rendering = out, format.RenderingHTML
	return plan
}

// plainTexts converts the texts that hold markdown markup to plain text. It
// returns nil when none does.
func plainTexts(texts []string) []string {
	var out []string
	for i, t := range texts {
		if renderers.CheckPlain(t) == nil {
			continue
		}
		if out == nil {
			out = append([]string(nil), texts...)
		}
		out[i] = renderers.PlainText(t)
	}
	return out
}

// hintsText joins the hints into the text of the hints block, one per
// line, or returns "" when the profile does not want hints.
func hintsText(p *negotiation.Profile, hints []string) string {
	if !p.WantsHints() {
		return ""
	}
	var b strings.Builder
	for _, h := range hints {
		if h == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(h)
	}
	return b.String()
}

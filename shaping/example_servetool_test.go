package shaping_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// toyCall is one tools/call as a toy front end sees it: the tags its
// client declared (none: the client did not declare the extension), and
// the tool's handler.
type toyCall struct {
	tags    []string
	handler func(ctx context.Context) toyResult
}

// toyResult is the toy SDK's tools/call result.
type toyResult struct {
	Structured []byte   // structuredContent, as JSON; nil for none
	Texts      []string // its text blocks
}

// toyPort is the toy front end's shaping.ToolPort: it answers what needs
// the SDK's types, and decides nothing.
type toyPort struct{}

func (toyPort) Facts(c toyCall) (facts shaping.Request, name string) {
	if c.tags != nil {
		// The request's own _meta capabilities (the stateless era).
		settings := negotiation.Settings{Version: "1.0", Features: c.tags}
		facts.Meta.Extensions = map[string]any{negotiation.ExtensionID: settings.Map()}
		facts.HasMeta, facts.Stateless = true, true
	}
	return facts, "get_weather"
}

func (toyPort) SessionKey(toyCall) any { return nil }

func (toyPort) Run(ctx context.Context, c toyCall, _ shaping.Refused) (toyResult, error) {
	return c.handler(ctx), nil
}

func (toyPort) Answered(toyCall) ([]string, string) { return nil, "" }
func (toyPort) Asked(toyResult) ([]string, string)  { return nil, "" }
func (toyPort) Internal(text string) error          { return errors.New(text) }

func (toyPort) Status(toyResult) (isError, needsInput, ok bool) { return false, false, true }
func (toyPort) Value(r toyResult) ([]byte, bool)                { return r.Structured, true }
func (toyPort) Struct(toyResult) bool                           { return false }

func (toyPort) TextIsValue(r toyResult, value []byte) bool {
	return len(r.Texts) == 1 && r.Texts[0] == string(value)
}

func (toyPort) Blocks(r toyResult) (isText []bool, texts []string) {
	isText = make([]bool, len(r.Texts))
	for i := range isText {
		isText[i] = true // the toy SDK's blocks are all text
	}
	return isText, r.Texts
}

func (toyPort) Schema(toyCall, string) (identity any, doc func() []byte, found bool) {
	return "get_weather", func() []byte { return []byte(`{"type":"object"}`) }, true
}

func (toyPort) Rebuild(r toyResult, blocks []shaping.Block, drop bool, structured []byte) toyResult {
	out := toyResult{Structured: r.Structured}
	for _, b := range blocks {
		if b.From >= 0 && !b.Replaced {
			out.Texts = append(out.Texts, r.Texts[b.From])
			continue
		}
		out.Texts = append(out.Texts, b.Text)
	}
	switch {
	case drop:
		out.Structured = nil
	case structured != nil:
		out.Structured = structured
	}
	return out
}

func (toyPort) Failed(text string) toyResult { return toyResult{Texts: []string{text}} }

// A front end serves a tools/call with ServeTool and a port. The core
// resolves the client's profile, runs the handler with it in the context,
// and plans the result for it: the structured value for an agent, markdown
// for a human, compact text where asked; a client that did not declare the
// extension gets the handler's result as it is.
func ExampleServeTool() {
	s := shaping.New(nil)
	weather := func(context.Context) toyResult {
		v := `{"conditions":"Light rain","location":"Bern","temperature_c":8.1}`
		return toyResult{Structured: []byte(v), Texts: []string{v}}
	}
	for _, tags := range [][]string{nil, {"agent"}, {"human"}, {"format=text", "verbosity=compact"}} {
		res, err := shaping.ServeTool(context.Background(), s, toyPort{}, toyCall{tags: tags, handler: weather})
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%v -> structuredContent kept: %v\n%s\n", tags, res.Structured != nil, strings.Join(res.Texts, "\n"))
	}
	// Output:
	// [] -> structuredContent kept: true
	// {"conditions":"Light rain","location":"Bern","temperature_c":8.1}
	// [agent] -> structuredContent kept: true
	// {"conditions":"Light rain","location":"Bern","temperature_c":8.1}
	// [human] -> structuredContent kept: true
	// - **Conditions:** Light rain
	// - **Location:** Bern
	// - **Temperature c:** 8.1
	// [format=text verbosity=compact] -> structuredContent kept: true
	// conditions="Light rain" location=Bern temperature_c=8.1
}

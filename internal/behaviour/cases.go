package behaviour

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/renderers"
)

// Mode is a transport and the protocol era the client asks for.
type Mode struct {
	Transport Transport
	// Legacy makes the client use the initialize handshake (2025-11-25).
	Legacy bool
}

// String names the mode: "stdio/legacy".
func (m Mode) String() string {
	if m.Legacy {
		return string(m.Transport) + "/legacy"
	}
	return string(m.Transport) + "/stateless"
}

// Modes are every transport in both eras. A stateless HTTP server keeps
// nothing of a legacy client's initialize: that client is served as one
// that did not declare the extension (see [Mode.Negotiates]).
var Modes = []Mode{
	{InProcess, false}, {InProcess, true},
	{Stdio, false}, {Stdio, true},
	{HTTPStateful, false}, {HTTPStateful, true},
	{HTTPStateless, false}, {HTTPStateless, true},
}

// Negotiates reports whether a declared client's profile reaches the server
// in this mode.
func (m Mode) Negotiates() bool { return !(m.Transport == HTTPStateless && m.Legacy) }

// Case is one tools/call and what its result must be on the wire, on every
// front end, transport and era.
type Case struct {
	Name string
	// Tags are the client's feature tags; nil declares nothing.
	Tags []string
	Tool string
	Args map[string]any
	Want Want
}

// Want is what a tools/call result must be.
type Want struct {
	IsError bool
	// Structured says structuredContent is present.
	Structured bool
	// Blocks is the number of content blocks.
	Blocks int
	// Text checks the first block's text.
	Text func(string) error
	// Hints says the last block is the hints block, for the assistant.
	Hints bool
}

var (
	bern     = map[string]any{"city": "Bern"}
	forecast = map[string]any{"city": "Bern", "days": 3}
)

// JSONText checks that a text is JSON (the mirror of structuredContent).
func JSONText(s string) error {
	if !json.Valid([]byte(s)) {
		return fmt.Errorf("not JSON: %q", s)
	}
	return nil
}

// Markdown checks that a text is markdown holding want.
func Markdown(want string) func(string) error {
	return func(s string) error {
		if err := renderers.CheckMarkdown(s); err != nil || json.Valid([]byte(s)) || !strings.Contains(s, want) {
			return fmt.Errorf("not markdown with %q (%v): %q", want, err, s)
		}
		return nil
	}
}

// Plain checks that a text is plain text holding want.
func Plain(want string) func(string) error {
	return func(s string) error {
		if err := renderers.CheckPlain(s); err != nil || json.Valid([]byte(s)) || !strings.Contains(s, want) {
			return fmt.Errorf("not plain text with %q (%v): %q", want, err, s)
		}
		return nil
	}
}

// PlainList checks that a text is markdown converted to plain text holding want: plain text
// but for the source's list markers ("- "), which the conversion keeps (SPEC 5, text rules).
func PlainList(want string) func(string) error {
	return func(s string) error {
		unlisted := strings.ReplaceAll("\n"+s, "\n- ", "\n")
		if err := renderers.CheckPlain(unlisted); err != nil || json.Valid([]byte(s)) || !strings.Contains(s, want) {
			return fmt.Errorf("not plain text (but for list markers) with %q (%v): %q", want, err, s)
		}
		return nil
	}
}

// TOON checks that a text is TOON (not JSON, not markdown's bold) holding want.
func TOON(want string) func(string) error {
	return func(s string) error {
		if json.Valid([]byte(s)) || strings.Contains(s, "**") || !strings.Contains(s, want) {
			return fmt.Errorf("not TOON with %q: %q", want, s)
		}
		return nil
	}
}

// HTML checks that a text is the HTML rendering (markdown converted, not
// JSON, no markdown markup left) holding want.
func HTML(want string) func(string) error {
	return func(s string) error {
		if json.Valid([]byte(s)) || strings.Contains(s, "**") || !strings.HasPrefix(s, "<") || !strings.Contains(s, want) {
			return fmt.Errorf("not HTML with %q: %q", want, s)
		}
		return nil
	}
}

// Exactly checks that a text is want.
func Exactly(want string) func(string) error {
	return func(s string) error {
		if s != want {
			return fmt.Errorf("text %q, want %q", s, want)
		}
		return nil
	}
}

// structured is the result of a negotiated call that keeps its JSON mirror.
var structured = Want{Structured: true, Blocks: 1, Text: JSONText}

// Cases are the renderings, verbosities, hints and errors of the demo's
// tools.
var Cases = []Case{
	{"undeclared: pass-through", nil, "get_weather", bern, structured},
	{"only invalid tags: pass-through", []string{"@#$%", "format==json", "!", "format=xml"}, "get_weather", bern, structured},
	{"agent: structured with the JSON mirror", []string{"agent"}, "get_weather", bern, structured},
	{"format=json: structured alone, no mirror", []string{"agent", "format=json", "verbosity=compact"}, "get_weather", bern, Want{Structured: true}},
	{"human: markdown", []string{"human", "format=markdown"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Markdown("**Bern, Switzerland**")}},
	{"human, compact: markdown", []string{"human", "verbosity=compact"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Markdown("(feels ")}},
	{"human, verbose: markdown that explains", []string{"human", "verbosity=verbose"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Markdown("The feels-like temperature is")}},
	{"verbosity=verbose alone: markdown", []string{"verbosity=verbose"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Markdown("UV index")}},
	{"format=text, compact: the projection", []string{"format=text", "verbosity=compact"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Plain("Bern, Switzerland: Light rain")}},
	{"format=text: plain", []string{"format=text"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Plain("Bern, Switzerland")}},
	{"verbosity=compact alone: text", []string{"verbosity=compact"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Plain("Bern, Switzerland: Light rain")}},
	{"human, format!=markdown: text", []string{"human", "format!=markdown"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Plain("Bern, Switzerland")}},
	{"forecast for a person: a markdown table", []string{"human"}, "get_forecast", forecast, Want{Structured: true, Blocks: 1, Text: Markdown("| 2026-11-22 |")}},
	{"forecast for a terminal: plain, a line a day", []string{"format=text", "verbosity=compact"}, "get_forecast", forecast, Want{Structured: true, Blocks: 1, Text: Plain("Nov 22 Clear 11/2 0%")}},
	{"format=toon: TOON", []string{"format=toon"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: TOON("location: \"Bern, Switzerland\"\n")}},
	{"format=toon, compact: the same TOON", []string{"format=toon", "verbosity=compact", "agent"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: TOON("\nuv_index: ")}},
	{"format=html: the markdown as HTML", []string{"format=html"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: HTML("<strong>Bern, Switzerland</strong>")}},
	{"forecast for a model: a TOON table", []string{"format=toon"}, "get_forecast", forecast, Want{Structured: true, Blocks: 1, Text: TOON("[3]{")}},
	{"tool error: untouched", []string{"human", "format=markdown"}, "get_weather", map[string]any{"city": "Bernn"}, Want{IsError: true, Blocks: 1, Text: Plain("Bern")}},
	{"undeclared tool error", nil, "get_weather", map[string]any{"city": "Bernn"}, Want{IsError: true, Blocks: 1, Text: Plain("Bern")}},
	{"hints for a person who samples", []string{"human", "sampling"}, "get_weather", bern, Want{Structured: true, Blocks: 2, Text: Markdown("**Bern, Switzerland**"), Hints: true}},
	{"hints for an agent that samples", []string{"agent", "sampling"}, "get_weather", bern, Want{Structured: true, Blocks: 2, Text: JSONText, Hints: true}},
	{"no hints without sampling", []string{"sampling", "!sampling", "human"}, "get_weather", bern, Want{Structured: true, Blocks: 1, Text: Markdown("**Bern, Switzerland**")}},
	{"an empty list for an agent", []string{"agent"}, "list_alerts", map[string]any{}, Want{Structured: true, Blocks: 1, Text: Exactly(`{"alerts":[]}`)}},
}

// Check returns what is wrong with res for want, or nil.
func (want Want) Check(res *mcp.CallToolResult) error {
	var problems []string
	if res.IsError != want.IsError {
		problems = append(problems, fmt.Sprintf("isError %v, want %v", res.IsError, want.IsError))
	}
	if got := res.StructuredContent != nil; got != want.Structured {
		problems = append(problems, fmt.Sprintf("structuredContent present %v, want %v", got, want.Structured))
	}
	if len(res.Content) != want.Blocks {
		problems = append(problems, fmt.Sprintf("%d blocks, want %d", len(res.Content), want.Blocks))
	}
	if len(res.Content) > 0 {
		first, ok := res.Content[0].(*mcp.TextContent)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("first block is %T", res.Content[0]))
		case want.Text != nil:
			if err := want.Text(first.Text); err != nil {
				problems = append(problems, err.Error())
			}
		}
		last, ok := res.Content[len(res.Content)-1].(*mcp.TextContent)
		hints := ok && last.Annotations != nil && len(last.Annotations.Audience) == 1 && last.Annotations.Audience[0] == "assistant"
		if hints != want.Hints || want.Hints && len(res.Content) < 2 {
			problems = append(problems, fmt.Sprintf("hints block %v, want %v", hints, want.Hints))
		}
	}
	if problems == nil {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(problems, "; "))
}

// Holds checks that a text holds want.
func Holds(want string) func(string) error {
	return func(s string) error {
		if !strings.Contains(s, want) {
			return fmt.Errorf("text %q does not hold %q", s, want)
		}
		return nil
	}
}

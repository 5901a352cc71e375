package shaping_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

const value = `{"humidity":81,"station":"Bern"}`

// typed is the result of a typed tool: structuredContent and its mirror.
func typed() shaping.Result {
	return shaping.Result{Tool: "reading", Value: []byte(value), HasOutputSchema: true, Texts: []string{value}}
}

func TestToolPlans(t *testing.T) {
	untyped := shaping.Result{Tool: "plain", Value: []byte(`{ "a": 1 }`), Texts: []string{"see below"}}
	tests := []struct {
		name string
		tags []string // nil: not declared
		give shaping.Result
		want shaping.Plan
	}{
		{"not declared", nil, typed(), shaping.Plan{}},
		{"pass-through", []string{"verbosity=standard"}, typed(), shaping.Plan{}},
		{"structured, mirror already right", []string{"agent"}, typed(), shaping.Plan{Rendering: format.RenderingStructured}},
		{"structured, mirror minified", []string{"agent"}, untyped, shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `{"a":1}`}},
		{"structured, no mirror yet", []string{"agent"}, shaping.Result{Value: []byte(`[1,2]`)}, shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `[1,2]`}},
		{"format=json: structuredContent alone", []string{"format=json"}, typed(), shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true}},
		{"markdown keeps structuredContent with an output schema", []string{"human"}, typed(), shaping.Plan{Rendering: format.RenderingMarkdown, ReplaceText: true, Text: "- **Humidity:** 81\n- **Station:** Bern"}},
		{"markdown drops structuredContent without one", []string{"human"}, untyped, shaping.Plan{Rendering: format.RenderingMarkdown, ReplaceText: true, Text: "- **A:** 1", DropStructured: true}},
		{"text", []string{"format=text", "verbosity=compact"}, typed(), shaping.Plan{Rendering: format.RenderingText, ReplaceText: true, Text: "humidity=81 station=Bern"}},
		{"toon keeps structuredContent with an output schema", []string{"format=toon"}, typed(), shaping.Plan{Rendering: format.RenderingTOON, ReplaceText: true, Text: "humidity: 81\nstation: Bern"}},
		{"toon drops structuredContent without one", []string{"format=toon", "verbosity=compact"}, untyped, shaping.Plan{Rendering: format.RenderingTOON, ReplaceText: true, Text: "a: 1", DropStructured: true}},
		{"a JSON text block is the value, rendered as TOON", []string{"format=toon"}, shaping.Result{Tool: "files", Texts: []string{`[{"glob":"*_test.go","n":1}]`}},
			shaping.Plan{Rendering: format.RenderingTOON, ReplaceText: true, Text: "[1]{glob,n}:\n  *_test.go,1", DropStructured: true}},
		{"tool error untouched", []string{"human"}, shaping.Result{Value: []byte(value), IsError: true, Texts: []string{"boom"}}, shaping.Plan{}},
		{"input request untouched", []string{"format=text"}, shaping.Result{NeedsInput: true}, shaping.Plan{}},
		{"markdown tool's result to plain text", []string{"format=text"}, shaping.Result{Tool: "notes", Texts: []string{"# Title\n\n**bold** text", "plain already"}},
			shaping.Plan{Rendering: format.RenderingText, Texts: []string{"Title\n\nbold text", "plain already"}}},
		{"other text is never guessed to be markdown", []string{"format=text"}, shaping.Result{Tool: "shell", Texts: []string{"# comment\n- item\n*_test.go"}}, shaping.Plan{}},
		{"a JSON text block is the value, rendered as text", []string{"format=text", "verbosity=compact"}, shaping.Result{Tool: "files", Texts: []string{`{"path":"__init__.py","note":"*important*"}`}},
			shaping.Plan{Rendering: format.RenderingText, ReplaceText: true, Text: "path=__init__.py note=*important*", DropStructured: true}},
		{"a JSON text block is structuredContent, alone for format=json", []string{"format=json"}, shaping.Result{Tool: "files", Texts: []string{`[{"glob":"*_test.go"}]`}},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Structured: []byte(`[{"glob":"*_test.go"}]`)}},
		{"a JSON text block is structuredContent, minified for agent", []string{"agent"}, shaping.Result{Tool: "files", Texts: []string{"[\n  {\"glob\": \"*_test.go\"}\n]\n"}},
			shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `[{"glob":"*_test.go"}]`, Structured: []byte(`[{"glob":"*_test.go"}]`)}},
		{"a minified JSON text block is its own mirror", []string{"agent"}, shaping.Result{Tool: "files", Texts: []string{`[{"glob":"*_test.go"}]`}},
			shaping.Plan{Rendering: format.RenderingStructured, Structured: []byte(`[{"glob":"*_test.go"}]`)}},
		{"a verbatim tool's JSON text stays for structured", []string{"agent"}, shaping.Result{Tool: "read_file", Texts: []string{"{\n  \"a\": 1\n}\n"}}, shaping.Plan{}},
		{"a verbatim tool's JSON text stays for text", []string{"format=text"}, shaping.Result{Tool: "read_file", Texts: []string{"{\n  \"a\": 1\n}\n"}}, shaping.Plan{}},
		{"a verbatim tool's markdown stays for text", []string{"format=text"}, shaping.Result{Tool: "read_file", Texts: []string{"# Title\n"}}, shaping.Plan{}},
		{"a verbatim tool's structuredContent stays for markdown", []string{"human"}, shaping.Result{Tool: "read_file", Value: []byte(value), Texts: []string{"{\n}\n"}}, shaping.Plan{}},
		{"a verbatim tool's hints come in their own block", []string{"agent", "sampling"}, withHints(shaping.Result{Tool: "read_file", Texts: []string{"{}\n"}}, "the file is empty"),
			shaping.Plan{Hints: "the file is empty"}},
		{"a JSON text block beside an image is not a value", []string{"format=text"}, shaping.Result{Tool: "files", Texts: []string{`{"a":1}`}, NonText: 1}, shaping.Plan{}},
		{"JSON that is a string is not a value", []string{"format=text"}, shaping.Result{Tool: "files", Texts: []string{`"*a*"`}}, shaping.Plan{}},
		{"plain-only result stays for text", []string{"format=text"}, shaping.Result{Texts: []string{"all quiet"}}, shaping.Plan{}},
		{"markdown-only result stays for markdown", []string{"human"}, shaping.Result{Texts: []string{"# Title"}}, shaping.Plan{}},
		{"hints for sampling", []string{"agent", "sampling"}, withHints(typed(), "take an umbrella", "", "mind the wind"),
			shaping.Plan{Rendering: format.RenderingStructured, Hints: "take an umbrella\nmind the wind"}},
		{"no hints without sampling", []string{"agent"}, withHints(typed(), "take an umbrella"), shaping.Plan{Rendering: format.RenderingStructured}},
		{"hints even on pass-through", []string{"sampling"}, withHints(typed(), "x"), shaping.Plan{Hints: "x"}},
		{"no hints on errors", []string{"sampling", "human"}, withHints(shaping.Result{IsError: true}, "retry with Bern"), shaping.Plan{}},
		{"no hints on input requests", []string{"sampling"}, withHints(shaping.Result{NeedsInput: true}, "ask"), shaping.Plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p *negotiation.Profile
			if tt.tags != nil {
				p = negotiation.FromTags(tt.tags...)
			}
			s := shaping.New(nil)
			s.Register("notes", shaping.Tool{Markdown: true})
			s.Register("read_file", shaping.Tool{Verbatim: true, Markdown: true})
			got := s.Tool(p, tt.give)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func withHints(r shaping.Result, hints ...string) shaping.Result {
	r.Hints = hints
	return r
}

func TestUnchanged(t *testing.T) {
	tests := []struct {
		give shaping.Plan
		want bool
	}{
		{shaping.Plan{}, true},
		{shaping.Plan{Rendering: format.RenderingStructured}, true},
		{shaping.Plan{ReplaceText: true}, false},
		{shaping.Plan{Texts: []string{}}, false},
		{shaping.Plan{DropStructured: true}, false},
		{shaping.Plan{Hints: "h"}, false},
	}
	for _, tt := range tests {
		if got := tt.give.Unchanged(); got != tt.want {
			t.Errorf("%+v.Unchanged() = %v, want %v", tt.give, got, tt.want)
		}
	}
}

func TestMirror(t *testing.T) {
	tests := []struct {
		name   string
		mirror string
		tags   []string
		want   shaping.Plan
	}{
		{"json", "json", []string{"format=json"}, shaping.Plan{Rendering: format.RenderingStructured}},
		{"compact text", "text", []string{"format=json"}, shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: "humidity=81 station=Bern"}},
		{"none", "", []string{"format=json"}, shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true}},
		{"only for an explicit format=json", "", []string{"agent"}, shaping.Plan{Rendering: format.RenderingStructured}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shaping.New(&shaping.Options{Mirror: tt.mirror}).Tool(negotiation.FromTags(tt.tags...), typed())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

// broken is a renderer that fails, or panics.
type broken struct{ panics bool }

func (b broken) Render([]byte, renderers.Options) (string, error) { return b.fail() }
func (b broken) fail() (string, error) {
	if b.panics {
		panic("index out of range")
	}
	return "", errors.New("template: missing field")
}

func TestFailingRendererFallsBackToStructured(t *testing.T) {
	tests := []struct {
		name    string
		give    shaping.Tool
		tags    []string
		wantLog string
	}{
		{"error", shaping.Tool{Renderer: broken{}}, []string{"human"}, "template: missing field"},
		{"panic", shaping.Tool{Renderer: broken{panics: true}}, []string{"format=text"}, "renderer panicked: index out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core, logs := observer.New(zap.WarnLevel)
			s := shaping.New(&shaping.Options{Logger: zap.New(core)})
			s.Register("reading", tt.give)
			got := s.Tool(negotiation.FromTags(tt.tags...), typed())
			if diff := cmp.Diff(shaping.Plan{Rendering: format.RenderingStructured}, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			entries := logs.All()
			if len(entries) != 1 || !strings.Contains(entries[0].ContextMap()["error"].(string), tt.wantLog) || entries[0].ContextMap()["tool"] != "reading" {
				t.Errorf("log = %v", entries)
			}
		})
	}
}

func TestInvalidValueFallsBackToStructured(t *testing.T) {
	got := shaping.New(nil).Tool(negotiation.FromTags("human"), shaping.Result{Tool: "x", Value: []byte(`{"a":`)})
	if got.Rendering != format.RenderingStructured || got.Text != `{"a":` {
		t.Errorf("plan = %+v, want the structured rendering with the value as it is", got)
	}
}

func TestRegisteredToolGetsItsOptions(t *testing.T) {
	s := shaping.New(nil)
	s.Register("reading", shaping.Tool{Title: "Reading", Units: map[string]string{"humidity": "%"}})
	got := s.Tool(negotiation.FromTags("human", "verbosity=verbose"), typed())
	for _, want := range []string{"Reading", "81%"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("verbose markdown lacks %q:\n%s", want, got.Text)
		}
	}
}

func TestFailingCompactMirrorIsLogged(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	s := shaping.New(&shaping.Options{Logger: zap.New(core), Mirror: "text"})
	s.Register("reading", shaping.Tool{Renderer: broken{}})
	got := s.Tool(negotiation.FromTags("format=json"), typed())
	if got.Rendering != format.RenderingStructured || got.ReplaceText {
		t.Errorf("plan = %+v, want the structured rendering with the JSON mirror as it is", got)
	}
	entries := logs.All()
	if len(entries) != 1 || entries[0].ContextMap()["tool"] != "reading" || !strings.Contains(entries[0].ContextMap()["error"].(string), "template: missing field") {
		t.Errorf("log = %v, want one warning naming the tool and the error", entries)
	}
}

// TestDefaultFormatJSONKeepsTheMirror: a format=json from the operator's
// default tags keeps the minified JSON mirror, whatever Options.Mirror
// says (contract section 1); the client's own format=json follows
// Options.Mirror.
func TestDefaultFormatJSONKeepsTheMirror(t *testing.T) {
	untyped := shaping.Result{Tool: "plain", Value: []byte(`{ "a": 1 }`), Texts: []string{"see below"}}
	tests := []struct {
		name   string
		mirror string
		give   shaping.Result
		want   shaping.Plan
	}{
		{"typed: its mirror stands", "", typed(), shaping.Plan{Rendering: format.RenderingStructured}},
		{"untyped: the mirror is written", "", untyped, shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Text: `{"a":1}`}},
		{"the compact text mirror is for clients that asked", "text", typed(), shaping.Plan{Rendering: format.RenderingStructured}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(&shaping.Options{Default: shaping.ParseTags("format=json"), Mirror: tt.mirror})
			c := s.Resolve(&shaping.Request{})
			if !c.Profile.FromDefault() {
				t.Fatalf("profile %v is not the default's", c.Profile)
			}
			if diff := cmp.Diff(tt.want, s.Tool(c.Profile, tt.give)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			own := s.Tool(negotiation.FromTags("format=json"), tt.give)
			if own.Text == tt.want.Text && tt.mirror == "" && tt.want.Text != "" {
				t.Errorf("a client's own format=json got the mirror: %+v", own)
			}
		})
	}
}

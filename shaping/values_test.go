package shaping_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/conformance"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// wireResult is the part of a tools/call result that values.json gives.
type wireResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// resultOf translates a result of values.json as a front end does.
func resultOf(t *testing.T, raw json.RawMessage) shaping.Result {
	t.Helper()
	var w wireResult
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatalf("decode result: %v", err)
	}
	r := shaping.Result{Tool: "t", Value: w.StructuredContent}
	for _, c := range w.Content {
		if c.Type == "text" {
			r.Texts = append(r.Texts, c.Text)
		} else {
			r.NonText++
		}
	}
	return r
}

// TestCanonicalValues runs the kit's vectors (conformance/values.json), the
// same that cmd/contentneg-conformance checks servers with, on the library.
func TestCanonicalValues(t *testing.T) {
	var doc struct {
		Cases []struct {
			Name      string          `json:"name"`
			Result    json.RawMessage `json:"result"`
			Canonical json.RawMessage `json:"canonical"`
			Mirror    string          `json:"mirror"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(conformance.ValuesJSON, &doc); err != nil {
		t.Fatalf("decode values.json: %v", err)
	}
	cases := doc.Cases
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s := shaping.New(nil)
			r := resultOf(t, c.Result)
			agent := s.Tool(negotiation.FromTags("agent"), r)
			explicit := s.Tool(negotiation.FromTags("agent", "format=json"), r)
			human := s.Tool(negotiation.FromTags("human"), r)
			if c.Canonical == nil {
				for _, plan := range []shaping.Plan{agent, explicit, human} {
					if !plan.Unchanged() {
						t.Errorf("a result without a canonical value is changed: %+v", plan)
					}
				}
				return
			}
			if r.Value == nil { // the value came from the text
				if got, want := string(agent.Structured), c.Mirror; got != want {
					t.Errorf("agent: structuredContent = %s, want %s", got, want)
				}
				if got, want := string(explicit.Structured), c.Mirror; got != want {
					t.Errorf("format=json: structuredContent = %s, want %s", got, want)
				}
			}
			mirror := r.Texts[0]
			if agent.ReplaceText {
				mirror = agent.Text
			}
			if agent.Rendering != format.RenderingStructured || mirror != c.Mirror {
				t.Errorf("agent: %s rendering with mirror %q, want structured with %q", agent.Rendering, mirror, c.Mirror)
			}
			if want := (shaping.Plan{Rendering: format.RenderingStructured, ReplaceText: true, Structured: explicit.Structured}); !cmp.Equal(explicit, want) {
				t.Errorf("format=json: %+v, want structuredContent alone", explicit)
			}
			if human.Rendering != format.RenderingMarkdown || !human.ReplaceText || human.Text == "" || human.Structured != nil || !human.DropStructured {
				t.Errorf("human: %+v, want one markdown block and no structuredContent", human)
			}
		})
	}
}

package shaping_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

func TestResourcePlans(t *testing.T) {
	const uri = "weather://bern"
	jsonC := shaping.Content{URI: uri, MIMEType: "application/json", Text: `{"t":8}`}
	mdC := shaping.Content{URI: uri, MIMEType: "text/markdown", Text: "**8 °C**"}
	textC := shaping.Content{URI: uri, MIMEType: "text/plain", Text: "8 °C"}
	blob := shaping.Content{URI: uri, MIMEType: "image/png", Blob: true}
	tests := []struct {
		name string
		tags []string // nil: not declared
		give []shaping.Content
		want []shaping.ContentPlan
	}{
		{"not declared", nil, []shaping.Content{jsonC, mdC, textC}, nil},
		{"nothing to change", []string{"agent"}, []shaping.Content{jsonC}, nil},
		{"no contents", []string{"human"}, nil, nil},
		{"json rendered as markdown", []string{"human"}, []shaping.Content{jsonC}, []shaping.ContentPlan{{From: 0, Changed: true, MIMEType: "text/markdown", Text: "- **T:** 8"}}},
		{"json rendered as text", []string{"format=text"}, []shaping.Content{jsonC}, []shaping.ContentPlan{{From: 0, Changed: true, MIMEType: "text/plain", Text: "t: 8"}}},
		{"alternatives: json", []string{"agent"}, []shaping.Content{mdC, jsonC, textC}, []shaping.ContentPlan{{From: 1}}},
		{"alternatives: markdown", []string{"human"}, []shaping.Content{jsonC, mdC, textC}, []shaping.ContentPlan{{From: 1}}},
		{"alternatives: text", []string{"format=text"}, []shaping.Content{jsonC, mdC, textC}, []shaping.ContentPlan{{From: 2}}},
		{"alternatives without a match: the first", []string{"agent"}, []shaping.Content{mdC, textC}, []shaping.ContentPlan{{From: 0}}},
		{"markdown alone for text: plain", []string{"format=text"}, []shaping.Content{mdC}, []shaping.ContentPlan{{From: 0, Changed: true, MIMEType: "text/plain", Text: "8 °C"}}},
		{"a blob alone is never touched", []string{"format=text"}, []shaping.Content{blob}, nil},
		{"a blob loses to the wanted alternative", []string{"format=text"}, []shaping.Content{blob, textC}, []shaping.ContentPlan{{From: 1}}},
		{"MIME parameters are ignored", []string{"format=text"}, []shaping.Content{jsonC, {URI: uri, MIMEType: "Text/Plain; charset=utf-8", Text: "x"}}, []shaping.ContentPlan{{From: 1}}},
		{"+json counts as JSON", []string{"format=text"}, []shaping.Content{{URI: uri, MIMEType: "application/geo+json", Text: `{"t":8}`}}, []shaping.ContentPlan{{From: 0, Changed: true, MIMEType: "text/plain", Text: "t: 8"}}},
		{"broken JSON stays", []string{"human"}, []shaping.Content{{URI: uri, MIMEType: "application/json", Text: `{"t":`}}, nil},
		{"a collection: one per URI, in order", []string{"agent"},
			[]shaping.Content{{URI: "a", MIMEType: "text/plain"}, {URI: "b", MIMEType: "application/json", Text: "{}"}, {URI: "a", MIMEType: "application/json", Text: "{}"}},
			[]shaping.ContentPlan{{From: 2}, {From: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p *negotiation.Profile
			if tt.tags != nil {
				p = negotiation.FromTags(tt.tags...)
			}
			got := shaping.New(nil).Resource(p, uri, tt.give)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plans (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResourceRendererByTemplate(t *testing.T) {
	r, err := renderers.NewTemplate(renderers.TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: "{{.t}} degrees"}})
	if err != nil {
		t.Fatal(err)
	}
	own, err := renderers.NewTemplate(renderers.TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: "{{.t}} cities"}})
	if err != nil {
		t.Fatal(err)
	}
	s := shaping.New(nil)
	s.Register("weather://{city}", shaping.Tool{Renderer: r})
	s.Register("weather://own", shaping.Tool{Renderer: own})
	tests := []struct {
		give  string
		exact bool // the server registers a resource under this very URI
		want  string
	}{
		{"weather://bern", false, "8 degrees"},
		{"weather://bern/report", false, "- **T:** 8"}, // {city} matches no "/": the generic renderer
		{"other://bern", false, "- **T:** 8"},
		// A resource of its own that the template matches too: never the
		// template's renderer; its own, else the generic one.
		{"weather://cities", true, "- **T:** 8"},
		{"weather://own", true, "8 cities"},
		{"weather://own", false, "8 cities"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got := s.ReadResource(negotiation.FromTags("human"), tt.give, tt.exact, []shaping.Content{{URI: tt.give, MIMEType: "application/json", Text: `{"t":8}`}})
			if len(got) != 1 || got[0].Text != tt.want {
				t.Errorf("plans = %+v, want text %q", got, tt.want)
			}
		})
	}
}

func TestPromptPlans(t *testing.T) {
	texts := []string{"## Plan\n\n**Wear** a coat.", "plain"}
	tests := []struct {
		tags []string
		want []string
	}{
		{nil, nil},
		{[]string{"human"}, nil},
		{[]string{"agent"}, nil},
		{[]string{"format=text"}, []string{"Plan\n\nWear a coat.", "plain"}},
	}
	for _, tt := range tests {
		var p *negotiation.Profile
		if tt.tags != nil {
			p = negotiation.FromTags(tt.tags...)
		}
		if diff := cmp.Diff(tt.want, shaping.New(nil).Prompt(p, texts)); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tt.tags, diff)
		}
	}
}

// TestResourceSettingsAndRendererFromTheirOwnTemplates: a resource served
// through URI templates gets the settings of the first template with
// settings that matches its URI, and the renderer of the first one with a
// renderer, each in the order of its own first registration, whichever
// template holds both.
func TestResourceSettingsAndRendererFromTheirOwnTemplates(t *testing.T) {
	titled := func(name string) renderers.Renderer {
		return renderers.Func(func(_ []byte, o renderers.Options) (string, error) { return name + ": " + o.Title, nil })
	}
	s := shaping.New(nil)
	s.Register("weather://{city}", shaping.Tool{Title: "City"})              // settings first, no renderer
	s.Handle("weather://{+path}", format.Markdown.MediaType, titled("path")) // the first template with a renderer
	s.Handle("weather://{city}", format.Markdown.MediaType, titled("city"))
	s.Register("weather://{+path}", shaping.Tool{Title: "Path", Renderer: titled("path")})
	got := s.ReadResource(negotiation.FromTags("human"), "weather://bern", false, []shaping.Content{{URI: "weather://bern", MIMEType: "application/json", Text: `{"t":8}`}})
	if len(got) != 1 || got[0].Text != "path: City" {
		t.Errorf("plans = %+v, want text %q", got, "path: City")
	}
}

// TestRegistrationWhileServing: registrations after New publish a new
// table while calls are planned (run with -race).
func TestRegistrationWhileServing(t *testing.T) {
	s := shaping.New(&shaping.Options{Tools: map[string]shaping.Tool{"t": {Title: "T"}}})
	p := negotiation.FromTags("human")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			s.Register("t", shaping.Tool{Title: "T"})
			s.Handle("weather://{city}", "text/csv", renderers.Func(func([]byte, renderers.Options) (string, error) { return fmt.Sprint(i), nil }))
			if err := s.AddFormat(fmt.Sprintf("f%d", i), fmt.Sprintf("text/x-f%d", i), renderers.Generic{}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 200 {
		plan := s.Tool(p, shaping.Result{Tool: "t", Value: []byte(`{"a":1}`)})
		if plan.Text != "# T\n\n- **A:** 1" {
			t.Fatalf("plan text %q", plan.Text)
		}
		_ = s.ReadResource(p, "weather://bern", false, []shaping.Content{{URI: "weather://bern", MIMEType: "application/json", Text: `{"t":8}`}})
	}
	<-done
}

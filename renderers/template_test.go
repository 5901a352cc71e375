package renderers

import (
	"errors"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/google/go-cmp/cmp"
)

// weatherSpec is a per-tool renderer for the weather value.
var weatherSpec = TemplateSpec{
	Markdown: map[format.Verbosity]string{
		format.Standard: "## {{.location}}\n\n{{.conditions}}, {{.temperature_c}} °C (feels like {{.feels_like_c}} °C)",
		format.Compact:  "{{.location}}: {{.temperature_c}} °C, {{.conditions}}",
	},
	Compact: `{"city":location,"t":temperature_c,"sky":conditions}`,
	Text: map[format.Verbosity]string{
		format.Verbose: "Weather for {{.location}} at {{.observed_at}}: {{.conditions}}, {{.temperature_c}} °C",
	},
}

const testWeather = `{"conditions":"Light rain","feels_like_c":5.2,"location":"Bern, Switzerland",` +
	`"observed_at":"2026-11-20T14:00:00+01:00","temperature_c":8.1}`

func TestNewTemplateMarkdown(t *testing.T) {
	tests := []struct {
		name string
		spec TemplateSpec
		give string
		opts Options
		want string
	}{
		{name: "standard", spec: weatherSpec, give: testWeather, want: "## Bern, Switzerland\n\nLight rain, 8.1 °C (feels like 5.2 °C)"},
		{name: "compact", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: format.Compact}, want: "Bern, Switzerland: 8.1 °C, Light rain"},
		{name: "missing verbosity uses standard", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: format.Verbose}, want: "## Bern, Switzerland\n\nLight rain, 8.1 °C (feels like 5.2 °C)"},
		{name: "unset key is standard", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Verbosity(0): "{{.a}}!"}}, give: `{"a":1}`, want: "1!"},
		{name: "no template uses generic", spec: TemplateSpec{Compact: "a"}, give: `{"a":1}`, opts: Options{Title: "T"}, want: "# T\n\n- **A:** 1"},
		{name: "data is escaped", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: "- {{.a}}\n- {{index .b 0}}"}}, give: `{"a":"<b>x</b> *y*","b":["# h"]}`, want: "- \\<b>x\\</b> \\*y\\*\n- \\# h"},
		{name: "keys are escaped", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: "{{range $k, $v := .}}{{$k}}={{$v}} {{end}}"}}, give: `{"<k>":"v"}`, want: `\<k>=v `},
		{name: "get finds a key by its raw name", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: `{{get . "_id"}}/{{get . "none"}}`}}, give: `{"_id":7}`, want: "7/"},
		{name: "percent", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: `{{percent .a}}, {{percent .b}}, {{percent .c}}`}}, give: `{"a":0.61,"b":1,"c":0.005}`, want: `61 %, 100 %, 1 %`},
		{name: "join and default", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: `{{join ", " .tags}}; {{default "n/a" .notes}}; {{.notes | default "none"}}; {{default "x" .n}}`}}, give: `{"tags":["a","b|c"],"notes":null,"n":0}`, want: `a, b\|c; n/a; none; 0`},
		{name: "numbers keep their text", spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: `{{.a}} {{.b}}`}}, give: `{"a":1.50,"b":1e400}`, want: "1.50 1e400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := newTemplate(tt.spec)
			requireNoError(t, err)
			got, err := r.renderMarkdown([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

func TestNewTemplateText(t *testing.T) {
	standardText := TemplateSpec{Text: map[format.Verbosity]string{format.Standard: "{{.location}} {{.temperature_c}}"}}
	tests := []struct {
		name string
		spec TemplateSpec
		give string
		opts Options
		want string
	}{
		{name: "compact projection", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: format.Compact}, want: `city="Bern, Switzerland" t=8.1 sky="Light rain"`},
		{name: "projection of nothing renders the value", spec: TemplateSpec{Compact: "nope"}, give: `{"a":1}`, opts: Options{Verbosity: format.Compact}, want: "a=1"},
		{name: "projection of a scalar", spec: TemplateSpec{Compact: "a.b"}, give: `{"a":{"b":"x"}}`, opts: Options{Verbosity: format.Compact}, want: "x"},
		{name: "text template", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: format.Verbose}, want: "Weather for Bern, Switzerland at 2026-11-20T14:00:00+01:00: Light rain, 8.1 °C"},
		{name: "no standard text template uses generic", spec: weatherSpec, give: `{"location":"Bern"}`, want: "location: Bern"},
		{name: "standard text template for verbose", spec: standardText, give: testWeather, opts: Options{Verbosity: format.Verbose}, want: "Bern, Switzerland 8.1"},
		{name: "projection before standard template at compact", spec: TemplateSpec{Compact: "a", Text: standardText.Text}, give: `{"a":"x","location":"L"}`, opts: Options{Verbosity: format.Compact}, want: "x"},
		{name: "text data is not escaped", spec: standardText, give: `{"location":"*Bern* <b>","temperature_c":1}`, want: "*Bern* <b> 1"},
		{name: "control characters are escaped", spec: standardText, give: `{"location":"\u001b[2Jx\ty","temperature_c":1}`, want: "\\u001b[2Jx\ty 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := newTemplate(tt.spec)
			requireNoError(t, err)
			got, err := r.renderText([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

func TestNewTemplateErrors(t *testing.T) {
	tests := []struct {
		name string
		spec TemplateSpec
		want string
	}{
		{
			name: "markdown does not parse",
			spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Compact: "{{.a"}},
			want: "renderers: template markdown compact: template: markdown compact:1: unclosed action",
		},
		{
			name: "text does not parse",
			spec: TemplateSpec{Text: map[format.Verbosity]string{format.Verbose: "{{nope .a}}"}},
			want: `renderers: template text verbose: template: text verbose:1: function "nope" not defined`,
		},
		{
			name: "standard twice",
			spec: TemplateSpec{Markdown: map[format.Verbosity]string{format.Verbosity(0): "a", format.Standard: "b"}},
			want: "renderers: template markdown: standard given twice (as unset and standard)",
		},
		{
			name: "verbosity out of range",
			spec: TemplateSpec{Text: map[format.Verbosity]string{9: "a"}},
			want: "renderers: template text: verbosity 9 is out of range",
		},
		{
			name: "unbalanced compact path",
			spec: TemplateSpec{Compact: `{"a":b`},
			want: `renderers: template compact path "{\"a\":b": unclosed '{'`,
		},
		{
			name: "unterminated string in compact path",
			spec: TemplateSpec{Compact: `{"a`},
			want: `renderers: template compact path "{\"a": unterminated string`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newTemplate(tt.spec)
			if err == nil || err.Error() != tt.want {
				t.Errorf("NewTemplate error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTemplateRenderErrors(t *testing.T) {
	md := func(src string) TemplateSpec {
		return TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: src}}
	}
	text := func(src string) TemplateSpec {
		return TemplateSpec{Text: map[format.Verbosity]string{format.Standard: src}}
	}
	tests := []struct {
		name    string
		spec    TemplateSpec
		render  func(*templateRenderer, []byte, Options) (string, error)
		give    string
		opts    Options
		wantIs  error
		wantMsg string
	}{
		{name: "missing field", spec: md("{{.nope}}"), render: (*templateRenderer).renderMarkdown, give: `{}`, wantIs: errMissingValue, wantMsg: "renderers: markdown standard: output holds"},
		{name: "missing field in text", spec: text("{{.nope}}"), render: (*templateRenderer).renderText, give: `{}`, wantIs: errMissingValue, wantMsg: "renderers: text standard: output holds"},
		{name: "raw html from the template", spec: md("<b>{{.a}}</b>"), render: (*templateRenderer).renderMarkdown, give: `{"a":1}`, wantIs: errRawHTML, wantMsg: "renderers: markdown standard: renderers: check markdown: raw HTML"},
		{name: "invalid JSON", spec: md("x"), render: (*templateRenderer).renderMarkdown, give: `{`, wantIs: errInvalidJSON, wantMsg: "renderers: markdown standard: invalid JSON"},
		{name: "invalid JSON in text", spec: text("x"), render: (*templateRenderer).renderText, give: `{`, wantIs: errInvalidJSON, wantMsg: "renderers: text standard: invalid JSON"},
		{name: "invalid JSON for projection", spec: TemplateSpec{Compact: "a"}, render: (*templateRenderer).renderText, give: `[`, opts: Options{Verbosity: format.Compact}, wantIs: errInvalidJSON, wantMsg: "renderers: template text compact: invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := newTemplate(tt.spec)
			requireNoError(t, err)
			_, err = tt.render(r, []byte(tt.give), tt.opts)
			if !errors.Is(err, tt.wantIs) || !strings.HasPrefix(err.Error(), tt.wantMsg) {
				t.Errorf("error = %v, want %v starting %q", err, tt.wantIs, tt.wantMsg)
			}
		})
	}
}

func TestTemplateExecError(t *testing.T) {
	r, err := newTemplate(TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: `{{join ", " .a}}`}})
	requireNoError(t, err)
	_, err = r.renderMarkdown([]byte(`{"a":5}`), Options{})
	want := `renderers: markdown standard: template: markdown standard:1:2: executing "markdown standard" at <join ", " .a>: error calling join: join: json.Number is not a list`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestTemplatePercentOfANonNumber(t *testing.T) {
	r, err := newTemplate(TemplateSpec{Markdown: map[format.Verbosity]string{format.Standard: `{{percent .a}}`}})
	requireNoError(t, err)
	_, err = r.renderMarkdown([]byte(`{"a":"high"}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "percent: string is not a number") {
		t.Errorf("error = %v, want percent's type error", err)
	}
}

// TestTemplateOutputBound: a template's output is bounded by
// maxTemplateOutput, or four times its value when that is more: a
// template that writes past it fails with errTemplateOutput, one whose
// output grows with its value renders.
func TestTemplateOutputBound(t *testing.T) {
	items := `{"items":["` + strings.Repeat("x", maxTemplateOutput) + `"]}`
	tests := []struct {
		name, template, value string
		wantErr               error
		wantLen               int
	}{
		{"range over a large number", "{{range 30000000}}0123456789{{end}}", `{}`, errTemplateOutput, 0},
		{"just under the bound", "{{range 104857}}0123456789{{end}}", `{}`, nil, 1048570},
		{"just over it", "{{range 104858}}0123456789{{end}}", `{}`, errTemplateOutput, 0},
		{"a large value, linear output", "{{range .items}}{{.}}{{.}}{{end}}", items, nil, 2 * maxTemplateOutput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := newTemplate(TemplateSpec{Text: map[format.Verbosity]string{format.Standard: tt.template}})
			if err != nil {
				t.Fatal(err)
			}
			out, err := tmpl.renderText([]byte(tt.value), Options{})
			if !errors.Is(err, tt.wantErr) || len(out) != tt.wantLen {
				t.Errorf("Text = %d bytes, %v; want %d bytes, %v", len(out), err, tt.wantLen, tt.wantErr)
			}
		})
	}
}

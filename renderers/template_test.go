package renderers

import (
	"errors"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/google/go-cmp/cmp"
)

// weatherSpec is a per-tool renderer for the weather value.
var weatherSpec = TemplateSpec{
	Markdown: map[negotiation.Verbosity]string{
		negotiation.Standard: "## {{.location}}\n\n{{.conditions}}, {{.temperature_c}} °C (feels like {{.feels_like_c}} °C)",
		negotiation.Compact:  "{{.location}}: {{.temperature_c}} °C, {{.conditions}}",
	},
	Compact: `{"city":location,"t":temperature_c,"sky":conditions}`,
	Text: map[negotiation.Verbosity]string{
		negotiation.Verbose: "Weather for {{.location}} at {{.observed_at}}: {{.conditions}}, {{.temperature_c}} °C",
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
		{name: "compact", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: negotiation.Compact}, want: "Bern, Switzerland: 8.1 °C, Light rain"},
		{name: "missing verbosity uses standard", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: negotiation.Verbose}, want: "## Bern, Switzerland\n\nLight rain, 8.1 °C (feels like 5.2 °C)"},
		{name: "unset key is standard", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.VerbosityUnset: "{{.a}}!"}}, give: `{"a":1}`, want: "1!"},
		{name: "no template uses generic", spec: TemplateSpec{Compact: "a"}, give: `{"a":1}`, opts: Options{Title: "T"}, want: "# T\n\n- **a:** 1"},
		{name: "data is escaped", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: "- {{.a}}\n- {{index .b 0}}"}}, give: `{"a":"<b>x</b> *y*","b":["# h"]}`, want: "- \\<b>x\\</b> \\*y\\*\n- \\# h"},
		{name: "keys are escaped", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: "{{range $k, $v := .}}{{$k}}={{$v}} {{end}}"}}, give: `{"<k>":"v"}`, want: `\<k>=v `},
		{name: "get finds a key by its raw name", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: `{{get . "_id"}}/{{get . "none"}}`}}, give: `{"_id":7}`, want: "7/"},
		{name: "percent", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: `{{percent .a}}, {{percent .b}}, {{percent .c}}`}}, give: `{"a":0.61,"b":1,"c":0.005}`, want: `61 %, 100 %, 1 %`},
		{name: "join and default", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: `{{join ", " .tags}}; {{default "n/a" .notes}}; {{.notes | default "none"}}; {{default "x" .n}}`}}, give: `{"tags":["a","b|c"],"notes":null,"n":0}`, want: `a, b\|c; n/a; none; 0`},
		{name: "numbers keep their text", spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: `{{.a}} {{.b}}`}}, give: `{"a":1.50,"b":1e400}`, want: "1.50 1e400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewTemplate(tt.spec)
			requireNoError(t, err)
			got, err := r.Markdown([]byte(tt.give), tt.opts)
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

func TestNewTemplateText(t *testing.T) {
	standardText := TemplateSpec{Text: map[negotiation.Verbosity]string{negotiation.Standard: "{{.location}} {{.temperature_c}}"}}
	tests := []struct {
		name string
		spec TemplateSpec
		give string
		opts Options
		want string
	}{
		{name: "compact projection", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: negotiation.Compact}, want: "city=Bern, Switzerland\nt=8.1\nsky=Light rain"},
		{name: "projection of nothing renders the value", spec: TemplateSpec{Compact: "nope"}, give: `{"a":1}`, opts: Options{Verbosity: negotiation.Compact}, want: "a=1"},
		{name: "projection of a scalar", spec: TemplateSpec{Compact: "a.b"}, give: `{"a":{"b":"x"}}`, opts: Options{Verbosity: negotiation.Compact}, want: "x"},
		{name: "text template", spec: weatherSpec, give: testWeather, opts: Options{Verbosity: negotiation.Verbose}, want: "Weather for Bern, Switzerland at 2026-11-20T14:00:00+01:00: Light rain, 8.1 °C"},
		{name: "no standard text template uses generic", spec: weatherSpec, give: `{"location":"Bern"}`, want: "location: Bern"},
		{name: "standard text template for verbose", spec: standardText, give: testWeather, opts: Options{Verbosity: negotiation.Verbose}, want: "Bern, Switzerland 8.1"},
		{name: "projection before standard template at compact", spec: TemplateSpec{Compact: "a", Text: standardText.Text}, give: `{"a":"x","location":"L"}`, opts: Options{Verbosity: negotiation.Compact}, want: "x"},
		{name: "text data is not escaped", spec: standardText, give: `{"location":"*Bern* <b>","temperature_c":1}`, want: "*Bern* <b> 1"},
		{name: "control characters are escaped", spec: standardText, give: `{"location":"\u001b[2Jx\ty","temperature_c":1}`, want: "\\u001b[2Jx\ty 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewTemplate(tt.spec)
			requireNoError(t, err)
			got, err := r.Text([]byte(tt.give), tt.opts)
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
			spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Compact: "{{.a"}},
			want: "renderers: template markdown compact: template: markdown compact:1: unclosed action",
		},
		{
			name: "text does not parse",
			spec: TemplateSpec{Text: map[negotiation.Verbosity]string{negotiation.Verbose: "{{nope .a}}"}},
			want: `renderers: template text verbose: template: text verbose:1: function "nope" not defined`,
		},
		{
			name: "standard twice",
			spec: TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.VerbosityUnset: "a", negotiation.Standard: "b"}},
			want: "renderers: template markdown: standard given twice (as unset and standard)",
		},
		{
			name: "verbosity out of range",
			spec: TemplateSpec{Text: map[negotiation.Verbosity]string{9: "a"}},
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
			_, err := NewTemplate(tt.spec)
			if err == nil || err.Error() != tt.want {
				t.Errorf("NewTemplate error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTemplateRenderErrors(t *testing.T) {
	md := func(src string) TemplateSpec {
		return TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: src}}
	}
	text := func(src string) TemplateSpec {
		return TemplateSpec{Text: map[negotiation.Verbosity]string{negotiation.Standard: src}}
	}
	tests := []struct {
		name    string
		spec    TemplateSpec
		render  func(Renderer, []byte, Options) (string, error)
		give    string
		opts    Options
		wantIs  error
		wantMsg string
	}{
		{name: "missing field", spec: md("{{.nope}}"), render: Renderer.Markdown, give: `{}`, wantIs: errMissingValue, wantMsg: "renderers: markdown standard: output holds"},
		{name: "missing field in text", spec: text("{{.nope}}"), render: Renderer.Text, give: `{}`, wantIs: errMissingValue, wantMsg: "renderers: text standard: output holds"},
		{name: "raw html from the template", spec: md("<b>{{.a}}</b>"), render: Renderer.Markdown, give: `{"a":1}`, wantIs: ErrRawHTML, wantMsg: "renderers: markdown standard: renderers: check markdown: raw HTML"},
		{name: "invalid JSON", spec: md("x"), render: Renderer.Markdown, give: `{`, wantIs: ErrInvalidJSON, wantMsg: "renderers: markdown standard: invalid JSON"},
		{name: "invalid JSON in text", spec: text("x"), render: Renderer.Text, give: `{`, wantIs: ErrInvalidJSON, wantMsg: "renderers: text standard: invalid JSON"},
		{name: "invalid JSON for projection", spec: TemplateSpec{Compact: "a"}, render: Renderer.Text, give: `[`, opts: Options{Verbosity: negotiation.Compact}, wantIs: ErrInvalidJSON, wantMsg: "renderers: template text compact: invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewTemplate(tt.spec)
			requireNoError(t, err)
			_, err = tt.render(r, []byte(tt.give), tt.opts)
			if !errors.Is(err, tt.wantIs) || !strings.HasPrefix(err.Error(), tt.wantMsg) {
				t.Errorf("error = %v, want %v starting %q", err, tt.wantIs, tt.wantMsg)
			}
		})
	}
}

func TestTemplateExecError(t *testing.T) {
	r, err := NewTemplate(TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: `{{join ", " .a}}`}})
	requireNoError(t, err)
	_, err = r.Markdown([]byte(`{"a":5}`), Options{})
	want := `renderers: markdown standard: template: markdown standard:1:2: executing "markdown standard" at <join ", " .a>: error calling join: join: json.Number is not a list`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestTemplatePercentOfANonNumber(t *testing.T) {
	r, err := NewTemplate(TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: `{{percent .a}}`}})
	requireNoError(t, err)
	_, err = r.Markdown([]byte(`{"a":"high"}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "percent: string is not a number") {
		t.Errorf("error = %v, want percent's type error", err)
	}
}

func TestTemplateTimeFunctions(t *testing.T) {
	tests := []struct {
		name string
		give string // the template
		want string
	}{
		{"clock", `{{clock .dep}}`, "08:02"},
		{"clock keeps the offset", `{{clock .utc}}`, "07:02"},
		{"clock with fractional seconds", `{{clock .frac}}`, "23:59"},
		{"date", `{{date .dep}}`, "Fri 20 Nov 2026"},
		{"duration of minutes", `{{duration "PT56M"}}`, "56 min"},
		{"duration of hours and minutes", `{{duration .dur}}`, "1 h 02 min"},
		{"duration of whole hours", `{{duration "PT2H"}}`, "2 h 00 min"},
		{"duration of zero", `{{duration "PT0M"}}`, "0 min"},
		{"duration with days", `{{duration "P1DT2H"}}`, "26 h 00 min"},
		{"duration of days only", `{{duration "P2D"}}`, "48 h 00 min"},
		{"duration with seconds", `{{duration "PT1M5S"}}`, "1 min 05 s"},
		{"duration of seconds", `{{duration "PT30S"}}`, "0 min 30 s"},
		{"between", `{{between .dep .arr}}`, "17 min"},
		{"between across offsets", `{{between .utc .arr}}`, "17 min"},
		{"between backwards", `{{between .arr .dep}}`, "-17 min"},
		{"between over an hour", `{{between .dep "2026-11-20T09:04:00+01:00"}}`, "1 h 02 min"},
		{"between in a pipeline", `{{.arr | between .dep}}`, "17 min"},
	}
	value := `{"dep":"2026-11-20T08:02:00+01:00","arr":"2026-11-20T08:19:00+01:00","utc":"2026-11-20T07:02:00Z",` +
		`"frac":"2026-11-20T23:59:59.999+01:00","dur":"PT1H2M"}`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewTemplate(TemplateSpec{
				Markdown: map[negotiation.Verbosity]string{negotiation.Standard: tt.give},
				Text:     map[negotiation.Verbosity]string{negotiation.Standard: tt.give},
			})
			requireNoError(t, err)
			md, err := r.Markdown([]byte(value), Options{})
			requireNoError(t, err)
			text, err := r.Text([]byte(value), Options{})
			requireNoError(t, err)
			if md != tt.want || text != tt.want {
				t.Errorf("%s: markdown %q, text %q, want %q", tt.give, md, text, tt.want)
			}
		})
	}
}

func TestTemplateTimeFunctionErrors(t *testing.T) {
	tests := []struct {
		name string
		give string // the template
		want string // in the error
	}{
		{"clock of a number", `{{clock .n}}`, "clock: json.Number is not an RFC 3339 time"},
		{"clock of a date", `{{clock "2026-11-20"}}`, `clock: "2026-11-20" is not an RFC 3339 time`},
		{"clock of null", `{{clock .null}}`, `clock: "" is not an RFC 3339 time`},
		{"date of a list", `{{date .list}}`, "date: []interface {} is not an RFC 3339 time"},
		{"date without offset", `{{date "2026-11-20T08:00:00"}}`, "is not an RFC 3339 time"},
		{"between of a bad first time", `{{between "8:00" .t}}`, `between: "8:00" is not an RFC 3339 time`},
		{"between of a bad second time", `{{between .t .n}}`, "between: json.Number is not an RFC 3339 time"},
		{"duration of a number", `{{duration .n}}`, "duration: json.Number is not an ISO 8601 duration"},
		{"duration without P", `{{duration "T1H"}}`, `duration: "T1H": does not start with P`},
		{"duration P alone", `{{duration "P"}}`, "no component"},
		{"duration PT alone", `{{duration "PT"}}`, "no component after T"},
		{"duration with months", `{{duration "P1M"}}`, `unsupported designator 'M'`},
		{"duration with years", `{{duration "P1Y"}}`, `unsupported designator 'Y'`},
		{"duration with weeks", `{{duration "P2W"}}`, `unsupported designator 'W'`},
		{"duration with hours before T", `{{duration "P1H"}}`, `unsupported designator 'H'`},
		{"duration with a fraction", `{{duration "PT1.5H"}}`, `unsupported designator '.'`},
		{"duration with a sign", `{{duration "-PT5M"}}`, "does not start with P"},
		{"duration without a designator", `{{duration "PT5"}}`, "expected a whole number and a designator"},
		{"duration without a number", `{{duration "PTM"}}`, "expected a whole number and a designator"},
		{"duration out of order", `{{duration "PT5M1H"}}`, "designator 'H' out of order or repeated"},
		{"duration repeated", `{{duration "PT1H1H"}}`, "designator 'H' out of order or repeated"},
		{"duration with T twice", `{{duration "PT1HT5M"}}`, "expected a whole number and a designator"},
		{"duration too long", `{{duration "PT9999999999H"}}`, "has more than 9 digits"},
		{"duration of a huge string", `{{duration "P99999999999999999999999999D"}}`, "has more than 9 digits"},
	}
	value := `{"n":5,"null":null,"list":[1],"t":"2026-11-20T08:00:00+01:00"}`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewTemplate(TemplateSpec{Markdown: map[negotiation.Verbosity]string{negotiation.Standard: tt.give}})
			requireNoError(t, err)
			_, err = r.Markdown([]byte(value), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// The largest duration duration accepts, 999 999 999 of each unit, is 90 060 999 909 939 s: no
// overflow.
func TestTemplateDurationOfTheLargestInput(t *testing.T) {
	r, err := NewTemplate(TemplateSpec{Markdown: map[negotiation.Verbosity]string{
		negotiation.Standard: `{{duration "P999999999DT999999999H999999999M999999999S"}}`,
	}})
	requireNoError(t, err)
	got, err := r.Markdown([]byte(`{}`), Options{})
	requireNoError(t, err)
	if want := "25016944419 h 25 min 39 s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

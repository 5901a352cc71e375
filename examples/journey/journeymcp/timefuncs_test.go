package journeymcp

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

func requireNoError(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
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
			r, err := renderers.NewTemplate(renderers.TemplateSpec{Funcs: TimeFuncs(),
				Markdown: map[format.Verbosity]string{format.Standard: tt.give},
				Text:     map[format.Verbosity]string{format.Standard: tt.give},
			})
			requireNoError(t, err)
			md, err := r.Render([]byte(value), renderers.Options{MediaType: format.Markdown.MediaType})
			requireNoError(t, err)
			text, err := r.Render([]byte(value), renderers.Options{MediaType: format.Text.MediaType})
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
			r, err := renderers.NewTemplate(renderers.TemplateSpec{Funcs: TimeFuncs(), Markdown: map[format.Verbosity]string{format.Standard: tt.give}})
			requireNoError(t, err)
			_, err = r.Render([]byte(value), renderers.Options{MediaType: format.Markdown.MediaType})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// The largest duration duration accepts, 999 999 999 of each unit, is 90 060 999 909 939 s: no
// overflow.
func TestTemplateDurationOfTheLargestInput(t *testing.T) {
	r, err := renderers.NewTemplate(renderers.TemplateSpec{Funcs: TimeFuncs(), Markdown: map[format.Verbosity]string{
		format.Standard: `{{duration "P999999999DT999999999H999999999M999999999S"}}`,
	}})
	requireNoError(t, err)
	got, err := r.Render([]byte(`{}`), renderers.Options{MediaType: format.Markdown.MediaType})
	requireNoError(t, err)
	if want := "25016944419 h 25 min 39 s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

package weathermcp_test

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

func TestCompactTexts(t *testing.T) {
	tests := []struct {
		name  string
		tool  string
		value string
		want  string
	}{
		// Self-sufficient (SPEC 5, issue 26 item 7): the city and each day's date stay.
		{"a forecast: the city, then a line a day with its date", "get_forecast",
			`{"location":"Bern, Switzerland","days":[{"date":"2026-11-20","high_c":8.5,"low_c":3.7,"conditions":"Rain","precipitation_probability":0.91},{"date":"2026-11-21","high_c":0.4,"low_c":-0.4,"conditions":"Light snow","precipitation_probability":0}]}`,
			"Bern, Switzerland\nNov 20 Rain 9/4 91%\nNov 21 Light snow 0/0 0%"},
		{"a date that is not one is kept as it is", "get_forecast",
			`{"location":"Bern, Switzerland","days":[{"date":"soon","high_c":1,"low_c":0,"conditions":"Rain","precipitation_probability":0.5}]}`,
			"Bern, Switzerland\nsoon Rain 1/0 50%"},
		{"no days", "get_forecast", `{"location":"Bern, Switzerland","days":[]}`, "Bern, Switzerland"},
		{"an alert set: its city and threshold", "set_alert", `{"location":"Bern, Switzerland","threshold_c":0}`, "alert set: Bern, Switzerland <0°C"},
		{"no alerts", "list_alerts", `{"alerts":[]}`, "none"},
		{"alerts by threshold, in the order set", "list_alerts",
			`{"alerts":[{"location":"Bern, Switzerland","threshold_c":0},{"location":"Moscow, Russia","threshold_c":-5.5},{"location":"Paris, France","threshold_c":0}]}`,
			"<0 Bern, Paris\n<-5.5 Moscow"},
		{"cities that share a name keep their full names", "list_alerts",
			`{"alerts":[{"location":"Springfield, IL","threshold_c":0},{"location":"Springfield, MO","threshold_c":0}]}`,
			"<0 Springfield, IL; Springfield, MO"},
	}
	tools := weathermcp.Tools()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tools[tt.tool].Renderer.Render([]byte(tt.value), renderers.Options{MediaType: format.Text.MediaType, Verbosity: format.Compact})
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCompactTextsLeaveOtherRenderingsToTheGenericRenderers(t *testing.T) {
	value := []byte(`{"alerts":[{"location":"Bern, Switzerland","threshold_c":0}]}`)
	for _, opts := range []renderers.Options{
		{MediaType: format.Text.MediaType},
		{MediaType: format.Markdown.MediaType, Verbosity: format.Compact},
		{MediaType: format.Markdown.MediaType},
	} {
		got, err := weathermcp.Tools()["list_alerts"].Renderer.Render(value, opts)
		want, wantErr := renderers.Generic{}.Render(value, opts)
		if got != want || err != wantErr {
			t.Errorf("%+v: got %q, want the generic %q", opts, got, want)
		}
	}
}

func TestCompactTextsRefuseValuesOfTheWrongShape(t *testing.T) {
	for _, tool := range []string{"get_forecast", "set_alert", "list_alerts"} {
		_, err := weathermcp.Tools()[tool].Renderer.Render([]byte(`{"days":"soon","alerts":3,"threshold_c":"cold"}`), renderers.Options{MediaType: format.Text.MediaType, Verbosity: format.Compact})
		if err == nil || !strings.Contains(err.Error(), tool) {
			t.Errorf("%s: error %v, want one naming the tool", tool, err)
		}
	}
}

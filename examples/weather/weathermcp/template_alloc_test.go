package weathermcp_test

import (
	"encoding/json"
	"testing"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

// bernJSON is get_weather's structuredContent for Bern, as the typed tool
// sends it.
func bernJSON(tb testing.TB) []byte {
	tb.Helper()
	c, err := weather.NewService(noon).Current("Bern")
	if err != nil {
		tb.Fatal(err)
	}
	v, err := json.Marshal(c)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// TestGetWeatherTemplateAllocations keeps the budget of the get_weather
// markdown template: at most 40 allocations for a rendering, at every
// verbosity.
func TestGetWeatherTemplateAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are kept without the race detector (.ci/run runs them)")
	}
	value := bernJSON(t)
	r := weathermcp.Tools()["get_weather"].Renderer
	for _, v := range []format.Verbosity{format.Compact, format.Standard, format.Verbose} {
		t.Run(v.String(), func(t *testing.T) {
			opts := renderers.Options{MediaType: format.Markdown.MediaType, Verbosity: v}
			if _, err := r.Render(value, opts); err != nil {
				t.Fatal(err)
			}
			got := testing.AllocsPerRun(100, func() { _, _ = r.Render(value, opts) })
			if got > 40 {
				t.Errorf("%v allocations per rendering, want at most 40", got)
			}
		})
	}
}

func BenchmarkGetWeatherTemplate(b *testing.B) {
	value := bernJSON(b)
	r := weathermcp.Tools()["get_weather"].Renderer
	opts := renderers.Options{MediaType: format.Markdown.MediaType, Verbosity: format.Standard}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Render(value, opts); err != nil {
			b.Fatal(err)
		}
	}
}

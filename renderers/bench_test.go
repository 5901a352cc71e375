package renderers

import (
	"os"
	"testing"

	"github.com/contentneg/contentneg/format"
)

// benchValues are the benchmark inputs: a 10-field weather object and a 7-day forecast.
var benchValues = []struct {
	name string
	file string
}{
	{name: "weather", file: "testdata/weather.json"},
	{name: "forecast", file: "testdata/forecast.json"},
}

// benchVerbosities are the verbosities every benchmark runs at.
var benchVerbosities = []format.Verbosity{format.Compact, format.Standard, format.Verbose}

func loadBench(b *testing.B, file string) []byte {
	b.Helper()
	v, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

func BenchmarkGenericMarkdown(b *testing.B) {
	for _, bv := range benchValues {
		value := loadBench(b, bv.file)
		for _, v := range benchVerbosities {
			b.Run(bv.name+"/"+v.String(), func(b *testing.B) {
				opts := Options{Verbosity: v}
				b.ReportAllocs()
				b.SetBytes(int64(len(value)))
				for b.Loop() {
					if _, err := (Generic{}).markdown(value, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkGenericText(b *testing.B) {
	for _, bv := range benchValues {
		value := loadBench(b, bv.file)
		for _, v := range benchVerbosities {
			b.Run(bv.name+"/"+v.String(), func(b *testing.B) {
				opts := Options{Verbosity: v}
				b.ReportAllocs()
				b.SetBytes(int64(len(value)))
				for b.Loop() {
					if _, err := (Generic{}).text(value, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchTemplates are per-tool renderers for the benchmark values.
var benchTemplates = map[string]TemplateSpec{
	"weather": {
		Markdown: map[format.Verbosity]string{
			format.Standard: "## {{.location}}\n\n{{.conditions}}, {{.temperature_c}} °C (feels like " +
				"{{.feels_like_c}} °C), wind {{.wind_speed_kmh}} km/h {{.wind_direction}}, humidity {{.humidity_percent}} %",
		},
		Compact: `{"city":location,"t":temperature_c,"sky":conditions}`,
	},
	"forecast": {
		Markdown: map[format.Verbosity]string{
			format.Standard: "## {{.location}}\n\n{{range .days}}- {{.date}}: {{.conditions}}, {{.low_c}} to {{.high_c}} °C\n{{end}}",
		},
		Compact: `{"location":location,"days":days.#.{date,high_c,low_c}}`,
	},
}

func BenchmarkTemplate(b *testing.B) {
	for _, bv := range benchValues {
		value := loadBench(b, bv.file)
		r, err := newTemplate(benchTemplates[bv.name])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bv.name+"/markdown", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(value)))
			for b.Loop() {
				if _, err := r.renderMarkdown(value, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bv.name+"/compact-text", func(b *testing.B) {
			opts := Options{Verbosity: format.Compact}
			b.ReportAllocs()
			b.SetBytes(int64(len(value)))
			for b.Loop() {
				if _, err := r.renderText(value, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package renderers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/google/go-cmp/cmp"
)

// goldenUnits are the units the golden renderings use.
var goldenUnits = map[string]string{
	"temperature_c": "°C", "feels_like_c": "°C", "humidity_percent": "%", "wind_speed_kmh": "km/h",
	"high_c": "°C", "low_c": "°C", "price": "CHF",
}

// goldenCases are the representative values; a schema file next to a value is used when present.
var goldenCases = []string{"weather", "forecast", "nested", "hostile"}

// TestGolden renders each representative value as markdown and text at every verbosity and
// compares with testdata/golden/NAME.VERBOSITY.{md,txt}; run with -update to rewrite them.
func TestGolden(t *testing.T) {
	for _, name := range goldenCases {
		value := readTestdata(t, name+".json")
		opts := Options{Schema: goldenSchema(t, name), Units: goldenUnits}
		for _, v := range []format.Verbosity{format.Compact, format.Standard, format.Verbose} {
			opts.Verbosity = v
			t.Run(name+"/"+v.String()+"/markdown", func(t *testing.T) {
				got, err := Generic{}.markdown(value, opts)
				requireNoError(t, err)
				requireNoError(t, CheckMarkdown(got))
				requireNoError(t, checkStructure(got))
				compareGolden(t, filepath.Join("golden", name+"."+v.String()+".md"), got)
			})
			t.Run(name+"/"+v.String()+"/text", func(t *testing.T) {
				got, err := Generic{}.text(value, opts)
				requireNoError(t, err)
				compareGolden(t, filepath.Join("golden", name+"."+v.String()+".txt"), got)
			})
		}
	}
}

// goldenSchema returns the parsed testdata/NAME.schema.json, or nil when there is none.
func goldenSchema(t *testing.T, name string) *Schema {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("testdata", name+".schema.json"))
	if os.IsNotExist(err) {
		return nil
	}
	requireNoError(t, err)
	s, err := ParseSchema(doc)
	requireNoError(t, err)
	return s
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		requireNoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		requireNoError(t, os.WriteFile(path, []byte(got+"\n"), 0o644))
	}
	want := readTestdata(t, name)
	if diff := cmp.Diff(string(want), got+"\n"); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	requireNoError(t, err)
	return b
}

func requireNoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

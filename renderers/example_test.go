package renderers_test

import (
	"fmt"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

// forecast arrives with alphabetical keys, as after a round trip through a map.
var forecast = []byte(`{"days":[{"conditions":"Light rain","date":"2026-11-20","high_c":8,"low_c":2,"rain":0.8},` +
	`{"conditions":"Sunny","date":"2026-11-21","high_c":9,"low_c":-1,"rain":0.05}],"location":"Bern, Switzerland"}`)

var forecastSchema = []byte(`{"properties":{"location":{"description":"Place name"},"days":{"items":{
	"properties":{"date":{},"high_c":{"unit":"°C"},"low_c":{"unit":"°C"},"conditions":{},
	"rain":{"title":"Chance of rain","type":"number","minimum":0,"maximum":1}}}}}}`)

func ExampleGeneric_markdown() {
	schema, err := renderers.ParseSchema(forecastSchema)
	if err != nil {
		fmt.Println(err)
		return
	}
	md, err := renderers.Generic{}.Render(forecast, renderers.Options{MediaType: format.Markdown.MediaType, Title: "Forecast", Schema: schema})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(md)
	// Output:
	// # Forecast
	//
	// - **Location:** Bern, Switzerland
	//
	// ## Days
	//
	// | Date | High (°C) | Low (°C) | Conditions | Chance of rain |
	// | --- | --- | --- | --- | --- |
	// | 2026-11-20 | 8 | 2 | Light rain | 80% |
	// | 2026-11-21 | 9 | -1 | Sunny | 5% |
}

func ExampleGeneric_text() {
	schema, err := renderers.ParseSchema(forecastSchema)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range []format.Verbosity{format.Compact, format.Verbose} {
		text, err := renderers.Generic{}.Render(forecast, renderers.Options{
			MediaType: format.Text.MediaType, Verbosity: v, Schema: schema, Units: map[string]string{"high_c": "°C", "low_c": "°C"},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s:\n%s\n\n", v, text)
	}
	// Output:
	// compact:
	// location="Bern, Switzerland"
	// days[]{date,high_c,low_c,conditions,rain}:
	// 2026-11-20,8,2,Light rain,0.8
	// 2026-11-21,9,-1,Sunny,0.05
	//
	// verbose:
	// location: Bern, Switzerland — Place name
	// days[2]:
	//   date        high_c (°C)  low_c (°C)  conditions  rain
	//   2026-11-20  8            2           Light rain  0.8
	//   2026-11-21  9            -1          Sunny       0.05
}

func ExampleNewTemplate() {
	r, err := renderers.NewTemplate(renderers.TemplateSpec{
		Markdown: map[format.Verbosity]string{
			format.Standard: "**{{.location}}**: {{.conditions}}, {{.temperature_c}} °C",
		},
		Compact: `{"city":location,"t":temperature_c}`,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	value := []byte(`{"conditions":"Light rain <b>","location":"Bern, Switzerland","temperature_c":8.1}`)
	md, err := r.Render(value, renderers.Options{MediaType: format.Markdown.MediaType})
	if err != nil {
		fmt.Println(err)
		return
	}
	text, err := r.Render(value, renderers.Options{MediaType: format.Text.MediaType, Verbosity: format.Compact})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(md)
	fmt.Println(text)
	// Output:
	// **Bern, Switzerland**: Light rain \<b>, 8.1 °C
	// city="Bern, Switzerland" t=8.1
}

func ExamplePlainText() {
	md := "# 1. Results\n\nSee [the docs](https://example.com) for `__init__`.\n\n" +
		"| city | t |\n|---|---|\n| Bern | 8.1 |\n\n- [x] fetched\n- *cached*"
	fmt.Println(renderers.PlainText(md))
	// Output:
	// "1. Results"
	//
	// See the docs (https://example.com) for \_\_init\_\_.
	//
	// city | t
	// Bern | 8.1
	//
	// - ☑ fetched
	// - cached
}

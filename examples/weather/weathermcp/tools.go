package weathermcp

import (
	"fmt"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

// Markdown templates of get_weather, by verbosity. Every data string arrives
// escaped; see renderers.NewTemplate for the functions.
const (
	weatherCompactMD = `**{{.location}}**: {{.conditions}}, {{.temperature_c}} °C (feels {{.feels_like_c}} °C), precipitation {{percent .precipitation_probability}}, wind {{.wind_speed_kmh}} km/h {{.wind_direction}}`

	weatherStandardMD = `**{{.location}}**: {{.conditions}}, {{.temperature_c}} °C (feels like {{.feels_like_c}} °C)

- Humidity: {{.humidity_percent}} %
- Chance of precipitation: {{percent .precipitation_probability}}
- Wind: {{.wind_speed_kmh}} km/h from {{.wind_direction}}
- UV index: {{.uv_index}}

Observed at {{.observed_at}}.`

	weatherVerboseMD = weatherStandardMD + `

The feels-like temperature is the wind chill at or below 10 °C and the heat index at or above 27 °C. The UV index runs from 0 (night) to 11 and above (extreme); from 3, sun protection is advisable.`
)

// weatherCompact is the gjson projection compact text keeps of get_weather
// when no compact text template applies: the five fields that matter at a
// glance.
const weatherCompact = `{location,conditions,temperature_c,feels_like_c,precipitation_probability}`

// weatherCompactText is get_weather for an agent that asked for compact
// text: one line with what matters at a glance, about a fifth of the JSON's
// tokens.
const weatherCompactText = `{{.location}}: {{.conditions}} {{.temperature_c}}°C, precipitation {{percent .precipitation_probability}}`

// Tools returns the demo's rendering configuration per tool and resource
// template: a markdown template and a compact projection for get_weather and
// weather://{city}, units for verbose renderings, and for every other tool a
// compact text of its own (about a fifth of its JSON's tokens, see
// compact.go), the generic renderers doing the rest: their tables suit
// get_forecast.
func Tools() map[string]shaping.Tool {
	weather, err := renderers.NewTemplate(renderers.TemplateSpec{
		Markdown: map[format.Verbosity]string{
			format.Compact:  weatherCompactMD,
			format.Standard: weatherStandardMD,
			format.Verbose:  weatherVerboseMD,
		},
		Compact: weatherCompact,
		Text:    map[format.Verbosity]string{format.Compact: weatherCompactText},
	})
	if err != nil {
		panic(fmt.Sprintf("weathermcp: the get_weather templates do not compile: %v", err)) // a programming error, caught by every test
	}
	units := map[string]string{
		"temperature_c":    "°C",
		"feels_like_c":     "°C",
		"high_c":           "°C",
		"low_c":            "°C",
		"humidity_percent": "%",
		"wind_speed_kmh":   "km/h",
		"threshold_c":      "°C",
	}
	return map[string]shaping.Tool{
		"get_weather":  {Renderer: weather, Units: units},
		"get_forecast": {Renderer: compactText(forecastCompact), Units: units},
		"set_alert":    {Renderer: compactText(alertSetCompact), Units: units},
		"list_alerts":  {Renderer: compactText(alertsCompact), Units: units},
		CurrentURI:     {Renderer: weather, Units: units}, // weather://{city} holds the same value as get_weather
	}
}

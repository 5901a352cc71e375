package weathermcp

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

// compactText renders a tool's compact text with text and every other
// rendering with the generic renderers: an agent that asked for compact
// text gets what matters at a glance, in about a fifth of the JSON's tokens.
type compactText func(value []byte) (string, error)

// Render implements renderers.Renderer.
func (c compactText) Render(value []byte, opts renderers.Options) (string, error) {
	if opts.MediaType == format.Text.MediaType && opts.Verbosity == format.Compact {
		return c(value)
	}
	return renderers.Generic{}.Render(value, opts)
}

// forecastCompact writes the city, then one line per day, today first: its
// date, conditions, the high and low in whole degrees Celsius and the chance
// of precipitation ("Nov 20 Light rain 10/4 63%"). The city and the dates
// identify the answer, so they stay (SPEC 5, "Self-sufficient"); a date that
// does not read as YYYY-MM-DD is written as it is.
func forecastCompact(value []byte) (string, error) {
	var f weather.Forecast
	if err := json.Unmarshal(value, &f); err != nil {
		return "", fmt.Errorf("get_forecast: %w", err)
	}
	var b strings.Builder
	b.WriteString(f.Location)
	for _, d := range f.Days {
		fmt.Fprintf(&b, "\n%s %s %s/%s %s%%", shortDate(d.Date), d.Conditions, whole(d.HighC), whole(d.LowC), whole(d.PrecipitationProbability*100))
	}
	return b.String(), nil
}

// shortDate writes a YYYY-MM-DD date as its month and day ("Nov 20"): a
// forecast's days are the coming ones, so the year goes without saying.
// Anything else is returned as it is.
func shortDate(date string) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return t.Format("Jan 2")
}

// alertSetCompact confirms the alert that was set: its city and threshold.
func alertSetCompact(value []byte) (string, error) {
	var a Alert
	if err := json.Unmarshal(value, &a); err != nil {
		return "", fmt.Errorf("set_alert: %w", err)
	}
	return "alert set: " + a.Location + " <" + strconv.FormatFloat(a.ThresholdC, 'f', -1, 64) + "°C", nil
}

// alertsCompact lists the alerts by threshold in °C, one line each, the
// cities by their short names unless two alerts share one ("<0 Bern, Paris";
// then full names, separated by semicolons), or "none".
func alertsCompact(value []byte) (string, error) {
	var list Alerts
	if err := json.Unmarshal(value, &list); err != nil {
		return "", fmt.Errorf("list_alerts: %w", err)
	}
	if len(list.Alerts) == 0 {
		return "none", nil
	}
	short := func(location string) string {
		name, _, _ := strings.Cut(location, ",")
		return name
	}
	shared := map[string]int{}
	for _, a := range list.Alerts {
		shared[short(a.Location)]++
	}
	var thresholds []float64
	cities := map[float64][]string{}
	for _, a := range list.Alerts {
		name := short(a.Location)
		if shared[name] > 1 {
			name = a.Location
		}
		if _, seen := cities[a.ThresholdC]; !seen {
			thresholds = append(thresholds, a.ThresholdC)
		}
		cities[a.ThresholdC] = append(cities[a.ThresholdC], name)
	}
	sep := ", "
	for _, n := range shared {
		if n > 1 {
			sep = "; " // the full names hold commas
		}
	}
	lines := make([]string, len(thresholds))
	for i, t := range thresholds {
		lines[i] = "<" + strconv.FormatFloat(t, 'f', -1, 64) + " " + strings.Join(cities[t], sep)
	}
	return strings.Join(lines, "\n"), nil
}

// whole writes f rounded to a whole number ("-0" as "0").
func whole(f float64) string {
	r := math.Round(f)
	if r == 0 {
		return "0" // not "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// writeChart draws the per-call time of every row, both eras side by side,
// as a PNG.
func writeChart(path string, lines []line) error {
	p := plot.New()
	p.Title.Text = "One tools/call of get_weather, per rendering (µs; lower is better)"
	p.Y.Label.Text = "µs per call"
	legacy, stateless := make(plotter.Values, len(lines)), make(plotter.Values, len(lines))
	names := make([]string, len(lines))
	for i, l := range lines {
		legacy[i] = float64(l.legacy.nsPerOp) / 1e3
		stateless[i] = float64(l.state.nsPerOp) / 1e3
		names[i] = shortName(l)
	}
	w := vg.Points(14)
	bl, err := plotter.NewBarChart(legacy, w)
	if err != nil {
		return err
	}
	bl.Color = color.RGBA{R: 70, G: 110, B: 180, A: 255}
	bl.Offset = -w / 2
	bs, err := plotter.NewBarChart(stateless, w)
	if err != nil {
		return err
	}
	bs.Color = color.RGBA{R: 230, G: 140, B: 50, A: 255}
	bs.Offset = w / 2
	p.Add(bl, bs)
	p.Y.Min = 0
	p.Legend.Add("legacy era", bl)
	p.Legend.Add("stateless era", bs)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Y.Max *= 1.25 // room for the legend
	p.NominalX(names...)
	if err := p.Save(vg.Length(140+60*len(lines))*vg.Points(1), 320, path); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// shortName is a row's label under its bars.
func shortName(l line) string {
	names := map[string]string{
		"unwrapped (no middleware)":       "unwrapped",
		"pass-through (not declared)":     "pass-through",
		"structured (agent, format=json)": "structured",
		"markdown (human)":                "markdown",
		"text (format=text)":              "text",
		"compact text":                    "compact text",
	}
	name := names[l.name]
	if name == "" {
		name = l.name
	}
	if len(frontEnds) > 1 {
		name = l.frontEnd + " " + name
	}
	return name
}

package main

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// chartRenderings returns the indexes in renderings of the renderings the chart shows: markdown
// and text at compact and standard verbosity, and TOON.
func chartRenderings() []int {
	var out []int
	for _, r := range []rendering{markdownCompact, markdownStandard, textCompact, textStandard, toon} {
		if i, ok := column(r); ok {
			out = append(out, i)
		}
	}
	return out
}

// writeChart writes a grouped bar chart of each rendering's tokens as a percentage of the JSON's,
// per item and for the whole corpus, with the 100% line.
func writeChart(path string, sizes []itemSizes) error {
	all := append(sizes, totals(sizes))
	p := plot.New()
	p.Title.Text = "Generic renderings, o200k tokens as % of the minified JSON"
	p.Y.Label.Text = "% of JSON tokens"
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.name
	}
	shown := chartRenderings()
	width := vg.Points(5)
	for k, ri := range shown {
		vals := make(plotter.Values, len(all))
		for i, s := range all {
			vals[i] = float64(s.renders[ri].tokens) * 100 / float64(s.json.tokens)
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(k)
		bars.Offset = width * vg.Length(float64(k)-float64(len(shown)-1)/2)
		p.Add(bars)
		p.Legend.Add(renderings[ri].String(), bars)
	}
	line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 100}, {X: float64(len(all)) - 0.5, Y: 100}})
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	line.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(line)
	p.Legend.Top = true
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign = -0.9
	p.Y.Min = 0
	for _, s := range all { // headroom above the tallest bar for the legend
		for _, ri := range shown {
			p.Y.Max = max(p.Y.Max, float64(s.renders[ri].tokens)*100/float64(s.json.tokens)+45)
		}
	}
	var ticks []plot.Tick
	for y := 0.0; y <= p.Y.Max; y += 25 {
		ticks = append(ticks, plot.Tick{Value: y, Label: fmt.Sprintf("%.0f%%", y)})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	if err := p.Save(14*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	return nil
}

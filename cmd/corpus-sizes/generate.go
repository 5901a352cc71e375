package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/google/jsonschema-go/jsonschema"
)

// clock is the fixed time the weather and forecast items are produced at.
func clock() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

// generateItems writes weather, forecast and journey (values and output schemas) into dir from the
// example servers' own code: get_weather and get_forecast for Bern, find_connections from Interlaken
// Ost to Zürich. The weather schemas get a "unit" keyword for each field the demo server gives a unit.
func generateItems(dir string) error {
	svc := weather.NewService(clock)
	now, err := svc.Current("Bern")
	if err != nil {
		return fmt.Errorf("generate weather: %w", err)
	}
	forecast, err := svc.Forecast("Bern", 7)
	if err != nil {
		return fmt.Errorf("generate forecast: %w", err)
	}
	planner, err := journey.NewPlanner()
	if err != nil {
		return fmt.Errorf("generate journey: %w", err)
	}
	trip, err := planner.Find(journey.FindInput{From: "Interlaken Ost", To: "Zürich HB", Departure: "2026-11-20T08:00:00+01:00", Limit: 3})
	if err != nil {
		return fmt.Errorf("generate journey: %w", err)
	}
	units := weathermcp.Tools()["get_forecast"].Units
	for _, g := range []struct {
		name   string
		value  any
		schema func(*jsonschema.ForOptions) (*jsonschema.Schema, error)
	}{
		{"weather", now, jsonschema.For[weather.Conditions]},
		{"forecast", forecast, jsonschema.For[weather.Forecast]},
		{"journey", trip, jsonschema.For[journey.Connections]},
	} {
		s, err := g.schema(nil)
		if err != nil {
			return fmt.Errorf("generate %s: %w", g.name, err)
		}
		addUnits(s, units)
		if err := writeJSON(filepath.Join(dir, g.name+".json"), g.value); err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(dir, g.name+".schema.json"), s); err != nil {
			return err
		}
	}
	return nil
}

// addUnits sets the "unit" keyword of every property, at any depth, that units names.
func addUnits(s *jsonschema.Schema, units map[string]string) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		if u, ok := units[name]; ok {
			if p.Extra == nil {
				p.Extra = map[string]any{}
			}
			p.Extra["unit"] = u
		}
		addUnits(p, units)
	}
	addUnits(s.Items, units)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write item: %w", err)
	}
	return nil
}

package weather_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/contentneg/contentneg/examples/weather"
)

// schemaOf infers the JSON schema of T or fails the test.
func schemaOf[T any](t *testing.T) *jsonschema.Schema {
	t.Helper()
	s, err := jsonschema.For[T](nil)
	if err != nil {
		t.Fatalf("jsonschema.For: %v", err)
	}
	return s
}

// checkDescriptions fails the test for every property of s, and of the
// objects nested in it, without a description.
func checkDescriptions(t *testing.T, path string, s *jsonschema.Schema) {
	t.Helper()
	if s.Items != nil {
		checkDescriptions(t, path+"[]", s.Items)
	}
	for name, p := range s.Properties {
		if strings.TrimSpace(p.Description) == "" {
			t.Errorf("property %s.%s has no description", path, name)
		}
		checkDescriptions(t, path+"."+name, p)
	}
}

func TestConditionsSchema(t *testing.T) {
	s := schemaOf[weather.Conditions](t)
	wantOrder := []string{
		"location", "conditions", "temperature_c", "feels_like_c", "humidity_percent",
		"precipitation_probability", "wind_speed_kmh", "wind_direction", "uv_index", "observed_at",
	}
	if diff := cmp.Diff(wantOrder, s.PropertyOrder); diff != "" {
		t.Errorf("property order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantOrder, s.Required); diff != "" {
		t.Errorf("required properties (-want +got):\n%s", diff)
	}
	checkDescriptions(t, "Conditions", s)

	// Descriptions give the unit or the range.
	for name, want := range map[string]string{
		"temperature_c":             "degrees Celsius",
		"feels_like_c":              "degrees Celsius",
		"humidity_percent":          "percent",
		"precipitation_probability": "from 0 to 1",
		"wind_speed_kmh":            "kilometres per hour",
		"observed_at":               "RFC 3339",
	} {
		if got := s.Properties[name].Description; !strings.Contains(got, want) {
			t.Errorf("description of %s = %q, want it to mention %q", name, got, want)
		}
	}
}

func TestSchemasDescribeEveryProperty(t *testing.T) {
	tests := []struct {
		name      string
		give      *jsonschema.Schema
		wantOrder []string
	}{
		{"Forecast", schemaOf[weather.Forecast](t), []string{"location", "days"}},
		{"ForecastDay", schemaOf[weather.ForecastDay](t), []string{"date", "high_c", "low_c", "conditions", "precipitation_probability"}},
		{"WeatherInput", schemaOf[weather.WeatherInput](t), []string{"city"}},
		{"ForecastInput", schemaOf[weather.ForecastInput](t), []string{"city", "days"}},
		{"City", schemaOf[weather.City](t), []string{
			"name", "slug", "country", "country_code", "region", "latitude", "longitude", "utc_offset_minutes", "climate",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.wantOrder, tt.give.PropertyOrder); diff != "" {
				t.Errorf("property order (-want +got):\n%s", diff)
			}
			checkDescriptions(t, tt.name, tt.give)
		})
	}
	if got := schemaOf[weather.ForecastInput](t).Properties["days"].Description; !strings.Contains(got, "1 to 7") {
		t.Errorf("description of days = %q, want it to give the range 1 to 7", got)
	}
}

func TestConditionsJSON(t *testing.T) {
	c, err := weather.NewService(fixed(demoTime)).Current("Bern")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	// The JSON keys come in the schema's order.
	dec := json.NewDecoder(strings.NewReader(string(data)))
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip any
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(schemaOf[weather.Conditions](t).PropertyOrder, keys); diff != "" {
		t.Errorf("JSON keys (-schema +JSON):\n%s", diff)
	}
}

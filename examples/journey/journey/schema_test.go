package journey_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

func TestSchemas(t *testing.T) {
	tests := []struct {
		name         string
		give         func(*jsonschema.ForOptions) (*jsonschema.Schema, error)
		wantRequired []string
	}{
		{"FindInput", jsonschema.For[journey.FindInput], []string{"from", "to", "departure"}},
		{"Connections", jsonschema.For[journey.Connections], []string{"from", "to", "connections"}},
		{"StationInput", jsonschema.For[journey.StationInput], []string{"name"}},
		{"Station", jsonschema.For[journey.Station], []string{"name", "id", "latitude", "longitude", "platforms", "lines"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.give(nil)
			if err != nil {
				t.Fatalf("jsonschema.For: %v", err)
			}
			if !slices.Equal(s.Required, tt.wantRequired) {
				t.Errorf("required %q, want %q", s.Required, tt.wantRequired)
			}
			checkDescriptions(t, tt.name, s)
		})
	}
}

// checkDescriptions checks that every property of s, nested ones included,
// has a description.
func checkDescriptions(t *testing.T, path string, s *jsonschema.Schema) {
	t.Helper()
	if s.Items != nil {
		checkDescriptions(t, path+"[]", s.Items)
	}
	for name, p := range s.Properties {
		if p.Description == "" {
			t.Errorf("%s.%s has no description", path, name)
		}
		checkDescriptions(t, path+"."+name, p)
	}
}

func TestFindInputSchemaValidates(t *testing.T) {
	s, err := jsonschema.For[journey.FindInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		give    string
		wantErr bool
	}{
		{`{"from": "Bern", "to": "Thun", "departure": "2026-11-20T08:00:00+01:00"}`, false},
		{`{"from": "Bern", "to": "Thun", "departure": "2026-11-20T08:00:00+01:00", "limit": 3}`, false},
		{`{"from": "Bern", "to": "Thun"}`, true},
		{`{"from": "Bern", "to": "Thun", "departure": "x", "limit": "3"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			var v map[string]any
			if err := json.Unmarshal([]byte(tt.give), &v); err != nil {
				t.Fatal(err)
			}
			if err := resolved.Validate(v); (err != nil) != tt.wantErr {
				t.Errorf("Validate = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

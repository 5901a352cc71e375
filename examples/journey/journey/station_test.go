package journey_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

// newPlanner returns the planner of the embedded timetable or stops the test.
func newPlanner(t testing.TB) *journey.Planner {
	t.Helper()
	p, err := journey.NewPlanner()
	if err != nil {
		t.Fatalf("NewPlanner: %v", err)
	}
	return p
}

func TestNewPlannerIsShared(t *testing.T) {
	if a, b := newPlanner(t), newPlanner(t); a != b {
		t.Error("NewPlanner parsed the timetable twice")
	}
}

func TestStations(t *testing.T) {
	p := newPlanner(t)
	stations := p.Stations()
	if len(stations) < 15 {
		t.Fatalf("%d stations, want 15 or more", len(stations))
	}
	ids := make(map[string]bool)
	for _, s := range stations {
		if s.Name == "" || s.ID == "" || len(s.Platforms) == 0 || len(s.Lines) == 0 {
			t.Errorf("incomplete station %+v", s)
		}
		if s.Latitude < 45.8 || s.Latitude > 47.9 || s.Longitude < 5.9 || s.Longitude > 10.5 {
			t.Errorf("%s at %v, %v is not in Switzerland", s.Name, s.Latitude, s.Longitude)
		}
		if ids[s.ID] {
			t.Errorf("id %q used twice", s.ID)
		}
		ids[s.ID] = true
		got, err := p.Station(s.ID)
		if err != nil || got.Name != s.Name {
			t.Errorf("Station(%q) = %q, %v; want %q", s.ID, got.Name, err, s.Name)
		}
	}
	names := make([]string, len(stations))
	for i, s := range stations {
		names[i] = strings.ToLower(s.Name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("stations not sorted by name: %q", names)
	}
}

func TestStationsAreCopies(t *testing.T) {
	p := newPlanner(t)
	s := p.Stations()
	s[0].Platforms[0] = "changed"
	s[0].Lines[0] = "changed"
	one, err := p.Station(s[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	one.Lines[0] = "changed too"
	again, err := p.Station(s[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.Platforms[0] == "changed" || again.Lines[0] != p.Stations()[0].Lines[0] || again.Lines[0] == "changed" {
		t.Errorf("a caller changed the planner's station: %+v", again)
	}
}

func TestStation(t *testing.T) {
	tests := []struct {
		give string
		want string // station id
	}{
		{"Zürich HB", "zurich-hb"},
		{"zürich hb", "zurich-hb"},
		{"ZURICH HB", "zurich-hb"},
		{"zurich-hb", "zurich-hb"},
		{"Zurich", "zurich-hb"},
		{"Zuerich", "zurich-hb"},
		{"  Bern\t", "bern"},
		{"Berne", "bern"},
		{"Geneva", "geneve"},
		{"Genève", "geneve"},
		{"geneve aeroport", "geneve-aeroport"},
		{"Geneva Airport", "geneve-aeroport"},
		{"Lucerne", "luzern"},
		{"St Gallen", "st-gallen"},
		{"st. gallen", "st-gallen"},
		{"Biel", "biel-bienne"},
		{"Bienne", "biel-bienne"},
		{"Neuchatel", "neuchatel"},
		{"Fribourg", "fribourg"},
		{"Interl", "interlaken-ost"},
		{"Winter", "winterthur"},
		{"zurich flug", "zurich-flughafen"},
		{"Basel", "basel-sbb"},
		{"Lucern", "luzern"}, // a prefix of the alias Lucerne
		{"zürich f", "zurich-flughafen"},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, err := p.Station(tt.give)
			if err != nil {
				t.Fatalf("Station(%q): %v", tt.give, err)
			}
			if got.ID != tt.want {
				t.Errorf("Station(%q) = %s, want %s", tt.give, got.ID, tt.want)
			}
		})
	}
}

func TestStationUnknown(t *testing.T) {
	tests := []struct {
		give          string
		wantAmbiguous bool
		wantFirst     []string // the first suggestions
		wantLen       int      // the number of suggestions
		wantMessage   string   // "" to skip
	}{
		{"Zürch", false, []string{"Zürich HB"}, 3, `unknown station "Zürch"; did you mean "Zürich HB", "Zug" or "Aarau"?`},
		{"Luzrn", false, []string{"Luzern"}, 3, ""},
		{"Interlaken West", false, []string{"Interlaken Ost"}, 3, ""},
		{"Sankt Galen", false, []string{"St. Gallen"}, 3, ""},
		{"Gen", true, []string{"Genève", "Genève-Aéroport"}, 2, `station "Gen" is ambiguous; did you mean "Genève" or "Genève-Aéroport"?`},
		{"Zürich Hbf", false, []string{"Zürich HB"}, 3, ""},
		{"Zü", false, []string{"Zug"}, 3, ""}, // too short to be a prefix
		{"Paris", false, nil, 3, ""},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			_, err := p.Station(tt.give)
			var use *journey.UnknownStationError
			if !errors.As(err, &use) {
				t.Fatalf("Station(%q) = %v, want an *UnknownStationError", tt.give, err)
			}
			if !errors.Is(err, journey.ErrUnknownStation) || !errors.Is(err, journey.ErrInvalidInput) {
				t.Errorf("%v does not match both ErrUnknownStation and ErrInvalidInput", err)
			}
			if use.Name != tt.give || use.Ambiguous != tt.wantAmbiguous {
				t.Errorf("error = %+v, want name %q, ambiguous %v", use, tt.give, tt.wantAmbiguous)
			}
			if len(use.Suggestions) != tt.wantLen || !slices.Equal(use.Suggestions[:len(tt.wantFirst)], tt.wantFirst) {
				t.Errorf("suggestions %q, want %d starting with %q", use.Suggestions, tt.wantLen, tt.wantFirst)
			}
			if tt.wantMessage != "" && use.Error() != tt.wantMessage {
				t.Errorf("message %q, want %q", use.Error(), tt.wantMessage)
			}
		})
	}
}

func TestStationInvalid(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string // part of the message
	}{
		{"empty", "", "station name is empty"},
		{"blank", " \t ", "station name is empty"},
		{"huge", strings.Repeat("Bern", 250_000), "1000000 bytes long; the limit is 100"},
		{"control characters", "Be\x00rn", `"Be\x00rn" contains control characters`},
		{"escape sequence", "\x1b[31mBern", "contains control characters"},
		{"invalid UTF-8", "Bern\xc3", "not valid UTF-8"},
		{"punctuation only", "--/--", "no letters or digits"},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Station(tt.give)
			if !errors.Is(err, journey.ErrInvalidInput) || errors.Is(err, journey.ErrUnknownStation) {
				t.Fatalf("Station = %v, want ErrInvalidInput only", err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.want) || len(msg) > 200 {
				t.Errorf("message %q, want a short one containing %q", msg, tt.want)
			}
		})
	}
}

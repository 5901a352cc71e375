package weather_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/examples/weather"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string // slug
	}{
		{"display name", "Bern, Switzerland", "bern"},
		{"display name, upper case", "BERN, SWITZERLAND", "bern"},
		{"display name, lower case", "springfield, il", "springfield-il"},
		{"display name with accent", "SÃO PAULO, BRAZIL", "sao-paulo"},
		{"slug", "new-york", "new-york"},
		{"slug, upper case", "SPRINGFIELD-MO", "springfield-mo"},
		{"city part", "Bern", "bern"},
		{"city part, lower case", "new york", "new-york"},
		{"city part, extra space", "  New   York ", "new-york"},
		{"surrounding white space", "\t Bern\r\n", "bern"},
		{"alias", "NYC", "new-york"},
		{"alias without accent", "sao paulo", "sao-paulo"},
		{"state name", "Springfield, Illinois", "springfield-il"},
		{"no space after the comma", "Springfield,MA", "springfield-ma"},
		{"space before the comma", "Springfield , mo", "springfield-mo"},
		{"country code", "Paris, FR", "paris"},
		{"country name", "New York, United States", "new-york"},
		{"trailing comma", "Tokyo,", "tokyo"},
	}
	s := weather.NewService(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Resolve(tt.give)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.give, err)
			}
			if got.Slug != tt.want {
				t.Errorf("Resolve(%q) = %q, want %q", tt.give, got.Slug, tt.want)
			}
		})
	}
}

func TestResolveEveryCity(t *testing.T) {
	s := weather.NewService(nil)
	for _, c := range s.Cities() {
		for _, give := range []string{c.Name, strings.ToUpper(c.Name), c.Slug} {
			got, err := s.Resolve(give)
			if err != nil {
				t.Errorf("Resolve(%q): %v", give, err)
				continue
			}
			if diff := cmp.Diff(c, got); diff != "" {
				t.Errorf("Resolve(%q) (-want +got):\n%s", give, diff)
			}
		}
	}
}

func TestResolveAmbiguous(t *testing.T) {
	springfields := []string{"Springfield, IL", "Springfield, MA", "Springfield, MO"}
	tests := []struct {
		name string
		give string
		want *weather.AmbiguousCityError
	}{
		{"city part", "Springfield", &weather.AmbiguousCityError{Name: "Springfield", Candidates: springfields}},
		{"lower case, trimmed", "  springfield\n", &weather.AmbiguousCityError{Name: "springfield", Candidates: springfields}},
		{"country code", "Springfield, US", &weather.AmbiguousCityError{Name: "Springfield, US", Candidates: springfields}},
	}
	s := weather.NewService(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Resolve(tt.give)
			if !errors.Is(err, weather.ErrAmbiguousCity) {
				t.Fatalf("Resolve(%q) = %v, %v; want an ambiguous city", tt.give, got.Name, err)
			}
			var amb *weather.AmbiguousCityError
			if !errors.As(err, &amb) {
				t.Fatalf("error %T is not an *AmbiguousCityError", err)
			}
			if diff := cmp.Diff(tt.want, amb); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(weather.City{}, got); diff != "" {
				t.Errorf("city with the error is not the zero value:\n%s", diff)
			}
		})
	}
}

func TestResolveUnknown(t *testing.T) {
	long := strings.Repeat("Bern", 26) // 104 bytes
	tests := []struct {
		name string
		give string
		want *weather.UnknownCityError
	}{
		{"typo", "Bernn", &weather.UnknownCityError{Name: "Bernn", Suggestions: []string{"Bern, Switzerland", "Bergen, Norway"}}},
		{"swapped letters", "Tokoy", &weather.UnknownCityError{Name: "Tokoy", Suggestions: []string{"Tokyo, Japan"}}},
		{"ties by name", "Pari", &weather.UnknownCityError{Name: "Pari", Suggestions: []string{"Paris, France", "Parma, Italy"}}},
		{"three of the same distance", "Springfeld", &weather.UnknownCityError{
			Name: "Springfeld", Suggestions: []string{"Springfield, IL", "Springfield, MA", "Springfield, MO"},
		}},
		{"close to an alias", "Sao Paolo", &weather.UnknownCityError{Name: "Sao Paolo", Suggestions: []string{"São Paulo, Brazil"}}},
		{"wrong country", "Bern, Germany", &weather.UnknownCityError{
			Name: "Bern, Germany", Suggestions: []string{"Bern, Switzerland", "Bergen, Norway"},
		}},
		{"nothing close", "Atlantis", &weather.UnknownCityError{Name: "Atlantis"}},
		{"empty", "", &weather.UnknownCityError{}},
		{"only white space", " \t\r\n ", &weather.UnknownCityError{}},
		{"only a comma", ",", &weather.UnknownCityError{Name: ","}},
		{"huge", long, &weather.UnknownCityError{Name: long}},
		{"huge after trimming", " " + long + " ", &weather.UnknownCityError{Name: long}},
		{"megabyte", strings.Repeat("x", 1<<20), &weather.UnknownCityError{Name: strings.Repeat("x", 1<<20)}},
		{"100 bytes is still looked up", strings.Repeat("x", 100), &weather.UnknownCityError{Name: strings.Repeat("x", 100)}},
		{"NUL byte", "Bern\x00", &weather.UnknownCityError{Name: "Bern\x00", Suggestions: []string{"Bern, Switzerland"}}},
		{"escape sequence", "\x1b[31mBern", &weather.UnknownCityError{Name: "\x1b[31mBern"}},
		{"control character inside", "Be\trn", &weather.UnknownCityError{Name: "Be\trn", Suggestions: []string{"Bern, Switzerland"}}},
		{"invalid UTF-8", "Bern\xff", &weather.UnknownCityError{Name: "Bern\xff", Suggestions: []string{"Bern, Switzerland"}}},
	}
	s := weather.NewService(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Resolve(tt.give)
			if !errors.Is(err, weather.ErrUnknownCity) {
				t.Fatalf("Resolve = %q, %v; want an unknown city", got.Name, err)
			}
			var unk *weather.UnknownCityError
			if !errors.As(err, &unk) {
				t.Fatalf("error %T is not an *UnknownCityError", err)
			}
			if diff := cmp.Diff(tt.want, unk); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if len(unk.Suggestions) > 3 {
				t.Errorf("%d suggestions, want at most 3", len(unk.Suggestions))
			}
		})
	}
}

func TestBySlug(t *testing.T) {
	tests := []struct {
		give     string
		wantName string
		wantOK   bool
	}{
		{"bern", "Bern, Switzerland", true},
		{"springfield-ma", "Springfield, MA", true},
		{"Bern", "", false},
		{"bern ", "", false},
		{"Bern, Switzerland", "", false},
		{"", "", false},
	}
	s := weather.NewService(nil)
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, ok := s.BySlug(tt.give)
			if got.Name != tt.wantName || ok != tt.wantOK {
				t.Errorf("BySlug(%q) = %q, %v; want %q, %v", tt.give, got.Name, ok, tt.wantName, tt.wantOK)
			}
		})
	}
}

func TestCities(t *testing.T) {
	s := weather.NewService(nil)
	cities := s.Cities()
	if len(cities) < 24 {
		t.Fatalf("%d cities, want at least 24", len(cities))
	}
	if !slices.IsSortedFunc(cities, func(a, b weather.City) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("cities are not sorted by name")
	}
	for _, c := range cities {
		if c.Name == "" || c.Slug == "" || c.Country == "" || c.CountryCode == "" {
			t.Errorf("city %+v lacks a name, slug or country", c)
		}
		if got, ok := s.BySlug(c.Slug); !ok || got.Name != c.Name {
			t.Errorf("BySlug(%q) = %q, %v", c.Slug, got.Name, ok)
		}
	}

	// The result is a copy.
	cities[0].Name = "Changed"
	cities[0].Climate.MeanTempC[0] = 99
	if again := s.Cities(); again[0].Name == "Changed" || again[0].Climate.MeanTempC[0] == 99 {
		t.Error("changing the result of Cities changes the catalogue")
	}
}

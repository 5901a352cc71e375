package weather_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/examples/weather"
)

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		name string
		give error
		want string
	}{
		{
			"unknown with suggestions",
			&weather.UnknownCityError{Name: "Bernn", Suggestions: []string{"Bern, Switzerland", "Bergen, Norway"}},
			`unknown city "Bernn"; did you mean: "Bern, Switzerland", "Bergen, Norway"?`,
		},
		{
			"unknown without suggestions",
			&weather.UnknownCityError{Name: "Atlantis"},
			`unknown city "Atlantis"; no city in the catalogue has a similar name`,
		},
		{
			"unknown with control characters",
			&weather.UnknownCityError{Name: "Bern\x00\x1b"},
			`unknown city "Bern\x00\x1b"; no city in the catalogue has a similar name`,
		},
		{
			"empty",
			&weather.UnknownCityError{},
			"unknown city: the city name is empty",
		},
		{
			"too long",
			&weather.UnknownCityError{Name: strings.Repeat("é", 60)},
			`unknown city "` + strings.Repeat("é", 16) + `"...: names are at most 100 bytes`,
		},
		{
			"ambiguous",
			&weather.AmbiguousCityError{Name: "Springfield", Candidates: []string{"Springfield, IL", "Springfield, MA", "Springfield, MO"}},
			`"Springfield" is ambiguous; candidates: "Springfield, IL", "Springfield, MA", "Springfield, MO"`,
		},
		{
			"days",
			&weather.InvalidDaysError{Days: 8},
			"days must be from 1 to 7, got 8",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.give.Error(); got != tt.want {
				t.Errorf("Error() = %s\nwant      %s", got, tt.want)
			}
		})
	}
}

func TestErrorsIs(t *testing.T) {
	sentinels := []error{weather.ErrUnknownCity, weather.ErrAmbiguousCity, weather.ErrInvalidDays}
	tests := []struct {
		name string
		give error
		want error
	}{
		{"unknown", &weather.UnknownCityError{Name: "x"}, weather.ErrUnknownCity},
		{"ambiguous", &weather.AmbiguousCityError{Name: "x"}, weather.ErrAmbiguousCity},
		{"days", &weather.InvalidDaysError{Days: 0}, weather.ErrInvalidDays},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wrapped := fmt.Errorf("tool: %w", tt.give)
			for _, s := range sentinels {
				if got := errors.Is(wrapped, s); got != (s == tt.want) {
					t.Errorf("errors.Is(%T, %v) = %v", tt.give, s, got)
				}
			}
		})
	}

	var unk *weather.UnknownCityError
	err := fmt.Errorf("tool: %w", &weather.UnknownCityError{Name: "Bernn", Suggestions: []string{"Bern, Switzerland"}})
	if !errors.As(err, &unk) || unk.Suggestions[0] != "Bern, Switzerland" {
		t.Errorf("errors.As does not find the details of %v", err)
	}
}

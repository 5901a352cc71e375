package weather_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/contentneg/contentneg/examples/weather"
)

func ExampleService_Current() {
	clock := func() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }
	s := weather.NewService(clock)

	c, err := s.Current("bern")
	if err != nil {
		fmt.Println(err)
		return
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "location": "Bern, Switzerland",
	//   "conditions": "Light rain",
	//   "temperature_c": 8.3,
	//   "feels_like_c": 6.5,
	//   "humidity_percent": 90,
	//   "precipitation_probability": 0.46,
	//   "wind_speed_kmh": 10.4,
	//   "wind_direction": "W",
	//   "uv_index": 1,
	//   "observed_at": "2026-11-20T14:00:00+01:00"
	// }
}

func ExampleService_Forecast() {
	clock := func() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }
	s := weather.NewService(clock)

	f, err := s.Forecast("Bern, Switzerland", 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Location)
	for _, d := range f.Days {
		fmt.Printf("%s  %5.1f / %5.1f °C  %3.0f %%  %s\n", d.Date, d.HighC, d.LowC, 100*d.PrecipitationProbability, d.Conditions)
	}
	// Output:
	// Bern, Switzerland
	// 2026-11-20    8.5 /   3.7 °C   91 %  Rain
	// 2026-11-21    9.7 /   3.6 °C   63 %  Light rain
	// 2026-11-22   11.1 /   2.4 °C    0 %  Clear
}

func ExampleService_Resolve() {
	s := weather.NewService(nil)
	for _, name := range []string{"new york", "Springfield", "Bernn"} {
		city, err := s.Resolve(name)
		var amb *weather.AmbiguousCityError
		switch {
		case errors.As(err, &amb):
			fmt.Printf("%d candidates: %v\n", len(amb.Candidates), err)
		case errors.Is(err, weather.ErrUnknownCity):
			fmt.Println(err)
		case err == nil:
			fmt.Printf("%s (%s)\n", city.Name, city.Slug)
		}
	}
	// Output:
	// New York, US (new-york)
	// 3 candidates: "Springfield" is ambiguous; candidates: "Springfield, IL", "Springfield, MA", "Springfield, MO"
	// unknown city "Bernn"; did you mean: "Bern, Switzerland", "Bergen, Norway"?
}

package weather_test

import (
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/examples/weather"
)

// fixed returns a clock that always says t.
func fixed(t time.Time) func() time.Time { return func() time.Time { return t } }

// demoTime is the time of the examples: 14:00 in Bern.
var demoTime = time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC)

func TestCurrentGolden(t *testing.T) {
	s := weather.NewService(fixed(demoTime))
	got, err := s.Current("Bern")
	if err != nil {
		t.Fatal(err)
	}
	want := weather.Conditions{
		Location:                 "Bern, Switzerland",
		Conditions:               "Light rain",
		TemperatureC:             8.3,
		FeelsLikeC:               6.5,
		HumidityPercent:          90,
		PrecipitationProbability: 0.46,
		WindSpeedKmh:             10.4,
		WindDirection:            "W",
		UVIndex:                  1,
		ObservedAt:               "2026-11-20T14:00:00+01:00",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Current (-want +got):\n%s", diff)
	}
}

func TestDeterminism(t *testing.T) {
	a := weather.NewService(fixed(demoTime))
	b := weather.NewService(fixed(demoTime))
	for _, c := range a.Cities() {
		t.Run(c.Slug, func(t *testing.T) {
			ca, errA := a.Current(c.Slug)
			cb, errB := b.Current(c.Slug)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if diff := cmp.Diff(ca, cb); diff != "" {
				t.Errorf("two services disagree on Current (-a +b):\n%s", diff)
			}
			fa, errA := a.Forecast(c.Slug, 7)
			fb, errB := b.Forecast(c.Slug, 7)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if diff := cmp.Diff(fa, fb); diff != "" {
				t.Errorf("two services disagree on Forecast (-a +b):\n%s", diff)
			}
		})
	}
}

func TestSameHourSameConditions(t *testing.T) {
	for _, c := range weather.NewService(nil).Cities() {
		// The local hour, which starts at half past in UTC+05:30.
		local := demoTime.In(time.FixedZone("", c.UTCOffsetMinutes*60))
		hour := time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), 0, 0, 0, local.Location())
		a, _ := weather.NewService(fixed(hour)).Current(c.Slug)
		b, _ := weather.NewService(fixed(hour.Add(time.Hour - time.Nanosecond))).Current(c.Slug)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s: conditions change within the hour (-start +end):\n%s", c.Slug, diff)
		}
	}
}

func TestDifferentDatesDiffer(t *testing.T) {
	today := weather.NewService(fixed(demoTime))
	tomorrow := weather.NewService(fixed(demoTime.AddDate(0, 0, 1)))
	for _, c := range today.Cities() {
		a, _ := today.Current(c.Slug)
		b, _ := tomorrow.Current(c.Slug)
		a.ObservedAt, b.ObservedAt = "", ""
		if a == b {
			t.Errorf("%s: the conditions a day apart are identical: %+v", c.Slug, a)
		}
		fa, _ := today.Forecast(c.Slug, 7)
		fb, _ := tomorrow.Forecast(c.Slug, 7)
		// Tomorrow's forecast is today's shifted by a day: the forecast of a
		// date does not depend on when it is asked for.
		if diff := cmp.Diff(fa.Days[1:], fb.Days[:6]); diff != "" {
			t.Errorf("%s: forecasts of the same dates differ (-today +tomorrow):\n%s", c.Slug, diff)
		}
	}
}

func TestLocalTime(t *testing.T) {
	tests := []struct {
		name         string
		giveCity     string
		wantObserved string
		wantFirstDay string
	}{
		{"one hour east", "bern", "2026-11-20T14:00:00+01:00", "2026-11-20"},
		{"UTC is written Z", "reykjavik", "2026-11-20T13:00:00Z", "2026-11-20"},
		{"half-hour offset", "mumbai", "2026-11-20T18:00:00+05:30", "2026-11-20"},
		{"already tomorrow", "auckland", "2026-11-21T01:00:00+12:00", "2026-11-21"},
		{"ten hours west", "honolulu", "2026-11-20T03:00:00-10:00", "2026-11-20"},
		{"five hours west", "new-york", "2026-11-20T08:00:00-05:00", "2026-11-20"},
	}
	s := weather.NewService(fixed(demoTime.Add(10 * time.Minute)))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := s.Current(tt.giveCity)
			if err != nil {
				t.Fatal(err)
			}
			if c.ObservedAt != tt.wantObserved {
				t.Errorf("ObservedAt = %q, want %q", c.ObservedAt, tt.wantObserved)
			}
			f, err := s.Forecast(tt.giveCity, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Days[0].Date; got != tt.wantFirstDay {
				t.Errorf("first forecast day = %q, want %q", got, tt.wantFirstDay)
			}
		})
	}

	summer := weather.NewService(fixed(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)))
	if c, _ := summer.Current("new-york"); c.ObservedAt != "2026-07-01T07:00:00-05:00" {
		t.Errorf("New York in July observed at %q, want standard time all year", c.ObservedAt)
	}
}

func TestForecastDays(t *testing.T) {
	tests := []struct {
		name     string
		giveCity string
		giveDays int
		wantLen  int
		wantErr  error
	}{
		{"one day", "bern", 1, 1, nil},
		{"a week", "bern", 7, 7, nil},
		{"zero days", "bern", 0, 0, weather.ErrInvalidDays},
		{"eight days", "bern", 8, 0, weather.ErrInvalidDays},
		{"negative", "bern", -1, 0, weather.ErrInvalidDays},
		{"huge", "bern", math.MaxInt, 0, weather.ErrInvalidDays},
		{"days are checked first", "Atlantis", 0, 0, weather.ErrInvalidDays},
		{"unknown city", "Atlantis", 3, 0, weather.ErrUnknownCity},
		{"ambiguous city", "Springfield", 3, 0, weather.ErrAmbiguousCity},
	}
	s := weather.NewService(fixed(demoTime))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Forecast(tt.giveCity, tt.giveDays)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Forecast(%q, %d) error = %v, want %v", tt.giveCity, tt.giveDays, err, tt.wantErr)
			}
			if len(got.Days) != tt.wantLen {
				t.Errorf("%d days, want %d", len(got.Days), tt.wantLen)
			}
			var days *weather.InvalidDaysError
			if errors.As(err, &days) && days.Days != tt.giveDays {
				t.Errorf("InvalidDaysError.Days = %d, want %d", days.Days, tt.giveDays)
			}
		})
	}
}

func TestCurrentErrors(t *testing.T) {
	tests := []struct {
		name string
		give string
		want error
	}{
		{"unknown", "Atlantis", weather.ErrUnknownCity},
		{"empty", "", weather.ErrUnknownCity},
		{"ambiguous", "springfield", weather.ErrAmbiguousCity},
	}
	s := weather.NewService(fixed(demoTime))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Current(tt.give)
			if !errors.Is(err, tt.want) {
				t.Errorf("Current(%q) error = %v, want %v", tt.give, err, tt.want)
			}
			if got != (weather.Conditions{}) {
				t.Errorf("Current(%q) = %+v with an error, want the zero value", tt.give, got)
			}
		})
	}
}

// conditionWords are the words Conditions fields may take.
var conditionWords = []string{
	"Clear", "Partly cloudy", "Mostly cloudy", "Overcast", "Fog",
	"Light rain", "Rain", "Thunderstorms", "Sleet", "Light snow", "Snow",
}

// isRounded reports whether x has at most decimals decimals.
func isRounded(x float64, decimals int) bool {
	scale := math.Pow(10, float64(decimals))
	return math.Abs(x*scale-math.Round(x*scale)) < 1e-6
}

func TestCurrentIsPlausible(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, city := range weather.NewService(nil).Cities() {
		t.Run(city.Slug, func(t *testing.T) {
			loc := time.FixedZone("", city.UTCOffsetMinutes*60)
			// Every 5 hours for a year reaches every local hour of every
			// season.
			for at := start; at.Year() == 2026; at = at.Add(5 * time.Hour) {
				c, err := weather.NewService(fixed(at)).Current(city.Slug)
				if err != nil {
					t.Fatal(err)
				}
				if msg := implausible(c, at.In(loc)); msg != "" {
					t.Fatalf("at %s: %s in %+v", at.Format(time.RFC3339), msg, c)
				}
			}
		})
	}
}

// implausible returns what is wrong with conditions observed at local time
// at, or "".
func implausible(c weather.Conditions, at time.Time) string {
	hour := time.Date(at.Year(), at.Month(), at.Day(), at.Hour(), 0, 0, 0, at.Location())
	switch {
	case c.ObservedAt != hour.Format(time.RFC3339):
		return "ObservedAt is not the start of the local hour"
	case !slices.Contains(conditionWords, c.Conditions):
		return "unknown conditions"
	case c.TemperatureC < -70 || c.TemperatureC > 55:
		return "temperature out of range"
	case c.HumidityPercent < 0 || c.HumidityPercent > 100:
		return "humidity out of range"
	case c.PrecipitationProbability < 0 || c.PrecipitationProbability > 1:
		return "probability out of range"
	case c.WindSpeedKmh < 0 || c.WindSpeedKmh > 150:
		return "wind out of range"
	case !slices.Contains([]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}, c.WindDirection):
		return "unknown wind direction"
	case c.UVIndex < 0 || c.UVIndex > 16:
		return "UV index out of range"
	case at.Hour() <= 3 && c.UVIndex != 0:
		return "UV index is not 0 at night"
	case (c.Conditions == "Snow" || c.Conditions == "Light snow") && c.TemperatureC >= 1:
		return "snow at 1 °C or above"
	case c.Conditions == "Sleet" && c.TemperatureC >= 3:
		return "sleet at 3 °C or above"
	case c.TemperatureC <= 10 && c.WindSpeedKmh > 4.8 && c.FeelsLikeC > c.TemperatureC:
		return "wind chill above the temperature"
	case c.TemperatureC > 10 && c.TemperatureC < 27 && c.FeelsLikeC != c.TemperatureC:
		return "feels-like differs from a mild temperature"
	case !isRounded(c.TemperatureC, 1) || !isRounded(c.FeelsLikeC, 1) || !isRounded(c.WindSpeedKmh, 1):
		return "not rounded to one decimal"
	case !isRounded(c.PrecipitationProbability, 2):
		return "probability not rounded to two decimals"
	}
	return ""
}

func TestForecastIsPlausible(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, city := range weather.NewService(nil).Cities() {
		t.Run(city.Slug, func(t *testing.T) {
			for at := start; at.Year() == 2026; at = at.AddDate(0, 0, 7) {
				f, err := weather.NewService(fixed(at)).Forecast(city.Slug, weather.MaxForecastDays)
				if err != nil {
					t.Fatal(err)
				}
				if f.Location != city.Name || len(f.Days) != weather.MaxForecastDays {
					t.Fatalf("forecast for %q has %d days", f.Location, len(f.Days))
				}
				first := at.In(time.FixedZone("", city.UTCOffsetMinutes*60))
				for i, d := range f.Days {
					if msg := implausibleDay(d, first.AddDate(0, 0, i)); msg != "" {
						t.Fatalf("from %s, day %d: %s in %+v", at.Format(time.DateOnly), i, msg, d)
					}
				}
			}
		})
	}
}

// implausibleDay returns what is wrong with a forecast for the local date
// of day, or "".
func implausibleDay(d weather.ForecastDay, day time.Time) string {
	switch {
	case d.Date != day.Format(time.DateOnly):
		return "wrong date"
	case d.HighC < d.LowC:
		return "high below low"
	case d.LowC < -70 || d.HighC > 55:
		return "temperature out of range"
	case d.PrecipitationProbability < 0 || d.PrecipitationProbability > 1:
		return "probability out of range"
	case !slices.Contains(conditionWords, d.Conditions) || d.Conditions == "Fog":
		return "unknown conditions"
	case (d.Conditions == "Snow" || d.Conditions == "Light snow") && d.HighC >= 1:
		return "snow with a high of 1 °C or above"
	case !isRounded(d.HighC, 1) || !isRounded(d.LowC, 1) || !isRounded(d.PrecipitationProbability, 2):
		return "not rounded"
	}
	return ""
}

func TestCurrentMatchesForecast(t *testing.T) {
	// The current temperature at the hour of the daily low (06:00) and high
	// (15:00) is the forecast's low and high.
	for _, city := range weather.NewService(nil).Cities() {
		loc := time.FixedZone("", city.UTCOffsetMinutes*60)
		for _, date := range []time.Time{demoTime, demoTime.AddDate(0, 5, 3)} {
			y, m, d := date.Date()
			f, _ := weather.NewService(fixed(time.Date(y, m, d, 12, 0, 0, 0, loc))).Forecast(city.Slug, 1)
			low, _ := weather.NewService(fixed(time.Date(y, m, d, 6, 0, 0, 0, loc))).Current(city.Slug)
			high, _ := weather.NewService(fixed(time.Date(y, m, d, 15, 0, 0, 0, loc))).Current(city.Slug)
			if low.TemperatureC != f.Days[0].LowC || high.TemperatureC != f.Days[0].HighC {
				t.Errorf("%s on %s: 06:00 %v and 15:00 %v, forecast low %v and high %v", city.Slug,
					f.Days[0].Date, low.TemperatureC, high.TemperatureC, f.Days[0].LowC, f.Days[0].HighC)
			}
		}
	}
}

func TestClimates(t *testing.T) {
	// Over a year the generated weather reflects the climate: snow where
	// winters are cold, none in the tropics, dry desert air.
	tests := []struct {
		city      string
		wantSnow  bool
		wantMinRH int // range of the mean humidity over the year
		wantMaxRH int
	}{
		{"yakutsk", true, 50, 80},
		{"moscow", true, 60, 85},
		{"bergen", true, 60, 85},
		{"singapore", false, 70, 90},
		{"mumbai", false, 55, 80},
		{"cairo", false, 30, 60},
		{"dubai", false, 30, 60},
	}
	for _, tt := range tests {
		t.Run(tt.city, func(t *testing.T) {
			var snow bool
			var sumRH, n int
			for at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() == 2026; at = at.Add(3 * time.Hour) {
				c, _ := weather.NewService(fixed(at)).Current(tt.city)
				snow = snow || c.Conditions == "Snow" || c.Conditions == "Light snow"
				sumRH += c.HumidityPercent
				n++
			}
			if snow != tt.wantSnow {
				t.Errorf("snow during the year: %v, want %v", snow, tt.wantSnow)
			}
			if mean := sumRH / n; mean < tt.wantMinRH || mean > tt.wantMaxRH {
				t.Errorf("mean humidity %d %%, want %d..%d %%", mean, tt.wantMinRH, tt.wantMaxRH)
			}
		})
	}
}

func TestSystemClock(t *testing.T) {
	for _, s := range []*weather.Service{weather.NewService(nil), {}} {
		before := time.Now()
		c, err := s.Current("Bern")
		if err != nil {
			t.Fatal(err)
		}
		observed, err := time.Parse(time.RFC3339, c.ObservedAt)
		if err != nil {
			t.Fatal(err)
		}
		if observed.After(time.Now()) || before.Sub(observed) > time.Hour {
			t.Errorf("observed at %s, want within the hour before %s", observed, before)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	s := weather.NewService(fixed(demoTime))
	want, err := s.Current("Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got, _ := s.Current("Tokyo"); got != want {
					t.Errorf("concurrent Current = %+v, want %+v", got, want)
				}
				_, _ = s.Forecast("springfield", 3)
				_ = s.Cities()
			}
		})
	}
	wg.Wait()
}

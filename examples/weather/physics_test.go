package weather

import (
	"math"
	"testing"
	"time"
)

func TestWindChill(t *testing.T) {
	tests := []struct {
		name  string
		giveT float64
		giveV float64
		want  float64 // rounded to one decimal
	}{
		// Values of Environment Canada's wind chill table.
		{"cold and windy", -10, 20, -17.9},
		{"very cold", -30, 40, -47.5},
		{"at the temperature limit", 10, 10, 8.6},
		{"calm", -5, 4.8, -5},
		{"warm", 10.1, 40, 10.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := round1(windChill(tt.giveT, tt.giveV)); got != tt.want {
				t.Errorf("windChill(%v, %v) = %v, want %v", tt.giveT, tt.giveV, got, tt.want)
			}
		})
	}
}

func TestHeatIndex(t *testing.T) {
	tests := []struct {
		name   string
		giveT  float64
		giveRH float64
		want   float64 // °C, from the NWS heat index chart
	}{
		{"90 °F at 70 %", (90 - 32) * 5.0 / 9, 70, (106 - 32) * 5.0 / 9},
		{"100 °F at 40 %", (100 - 32) * 5.0 / 9, 40, (109 - 32) * 5.0 / 9},
		{"86 °F at 90 %", (86 - 32) * 5.0 / 9, 90, (105 - 32) * 5.0 / 9},
		{"104 °F at 10 %, dry-air adjustment", (104 - 32) * 5.0 / 9, 10, (98 - 32) * 5.0 / 9},
		{"below the limit", 26.9, 90, 26.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The chart is rounded to whole degrees Fahrenheit.
			if got := heatIndex(tt.giveT, tt.giveRH); math.Abs(got-tt.want) > 0.6 {
				t.Errorf("heatIndex(%.1f, %v) = %.2f, want %.2f", tt.giveT, tt.giveRH, got, tt.want)
			}
		})
	}
}

func TestFeelsLike(t *testing.T) {
	tests := []struct {
		name     string
		giveT    float64
		giveWind float64
		giveRH   float64
		want     float64
	}{
		{"wind chill", -10, 20, 80, windChill(-10, 20)},
		{"heat index", 32, 5, 70, heatIndex(32, 70)},
		{"mild", 18, 30, 60, 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := feelsLike(tt.giveT, tt.giveWind, tt.giveRH); got != tt.want {
				t.Errorf("feelsLike(%v, %v, %v) = %v, want %v", tt.giveT, tt.giveWind, tt.giveRH, got, tt.want)
			}
		})
	}
}

func TestHumidity(t *testing.T) {
	tests := []struct {
		giveT   float64
		giveRH  float64
		wantDew float64
	}{
		{20, 50, 9.3},
		{30, 80, 26.2},
		{-10, 70, -14.4},
		{0, 100, 0},
	}
	for _, tt := range tests {
		dew := dewPoint(tt.giveT, tt.giveRH)
		if math.Abs(dew-tt.wantDew) > 0.1 {
			t.Errorf("dewPoint(%v, %v) = %.2f, want %v", tt.giveT, tt.giveRH, dew, tt.wantDew)
		}
		if rh := relativeHumidity(tt.giveT, dew); math.Abs(rh-tt.giveRH) > 1e-9 {
			t.Errorf("relativeHumidity(%v, %.2f) = %v, want %v", tt.giveT, dew, rh, tt.giveRH)
		}
	}
	if rh := relativeHumidity(10, 12); rh != 100 {
		t.Errorf("relativeHumidity with the dew point above the temperature = %v, want 100", rh)
	}
}

func TestUVIndex(t *testing.T) {
	equinoxNoon := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		giveLat   float64
		giveLon   float64
		giveAt    time.Time
		giveCloud float64
		wantMin   int
		wantMax   int
	}{
		{"equator, equinox noon, clear", 0, 0, equinoxNoon, 0, 12, 13},
		{"equator, equinox noon, overcast", 0, 0, equinoxNoon, 1, 3, 4},
		{"equator, midnight", 0, 0, equinoxNoon.Add(12 * time.Hour), 0, 0, 0},
		{"Bern, winter noon", 46.9, 7.4, time.Date(2026, 12, 21, 11, 30, 0, 0, time.UTC), 0, 1, 2},
		{"Bern, summer noon", 46.9, 7.4, time.Date(2026, 6, 21, 11, 30, 0, 0, time.UTC), 0, 8, 10},
		{"Reykjavik, winter noon", 64.1, -21.9, time.Date(2026, 12, 21, 13, 30, 0, 0, time.UTC), 0, 0, 0},
		{"Sydney, summer noon", -33.9, 151.2, time.Date(2026, 12, 21, 2, 0, 0, 0, time.UTC), 0, 11, 13},
		{"time zone does not matter", 0, 0, equinoxNoon.In(time.FixedZone("", 5*3600)), 0, 12, 13},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := uvIndex(tt.giveLat, tt.giveLon, tt.giveAt, tt.giveCloud)
			if got < tt.wantMin || got > tt.wantMax {
				t.Errorf("uvIndex = %d, want %d..%d", got, tt.wantMin, tt.wantMax)
			}
		})
	}
}

func TestCompass(t *testing.T) {
	tests := []struct {
		give float64
		want string
	}{
		{0, "N"},
		{22.4, "N"},
		{22.5, "NE"},
		{90, "E"},
		{180, "S"},
		{250, "W"},
		{337.4, "NW"},
		{337.5, "N"},
		{359.9, "N"},
		{-45, "NW"},
		{810, "E"},
	}
	for _, tt := range tests {
		if got := compass(tt.give); got != tt.want {
			t.Errorf("compass(%v) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

func TestRound(t *testing.T) {
	tests := []struct {
		name  string
		give  float64
		want1 float64
		want2 float64
	}{
		{"positive", 2.345, 2.3, 2.35},
		{"negative", -7.25, -7.3, -7.25},
		{"small negative is zero, not negative zero", -0.004, 0, 0},
		{"integer", 3, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got1, got2 := round1(tt.give), round2(tt.give)
			if got1 != tt.want1 || math.Signbit(got1) != math.Signbit(tt.want1) {
				t.Errorf("round1(%v) = %v, want %v", tt.give, got1, tt.want1)
			}
			if got2 != tt.want2 || math.Signbit(got2) != math.Signbit(tt.want2) {
				t.Errorf("round2(%v) = %v, want %v", tt.give, got2, tt.want2)
			}
		})
	}
}

package weather

import "testing"

func TestHourConditions(t *testing.T) {
	tests := []struct {
		name      string
		giveT     float64
		giveP     float64
		giveCloud float64
		giveRH    int
		giveWind  float64
		giveHour  int
		want      string
	}{
		{"clear", 20, 0.1, 0.1, 50, 10, 12, "Clear"},
		{"partly cloudy", 20, 0.1, 0.4, 50, 10, 12, "Partly cloudy"},
		{"mostly cloudy", 20, 0.1, 0.6, 50, 10, 12, "Mostly cloudy"},
		{"overcast", 20, 0.1, 0.9, 50, 10, 12, "Overcast"},
		{"fog", 5, 0.1, 0.9, 98, 5, 7, "Fog"},
		{"windy, no fog", 5, 0.1, 0.9, 98, 15, 7, "Overcast"},
		{"light rain", 10, 0.5, 0.9, 90, 10, 12, "Light rain"},
		{"rain", 10, 0.8, 0.9, 90, 10, 12, "Rain"},
		{"thunderstorm in a warm afternoon", 25, 0.8, 0.9, 90, 10, 16, "Thunderstorms"},
		{"warm rain at night", 25, 0.8, 0.9, 90, 10, 3, "Rain"},
		{"sleet", 2, 0.8, 0.9, 90, 10, 12, "Sleet"},
		{"light snow", 0.9, 0.5, 0.9, 90, 10, 12, "Light snow"},
		{"snow", -5, 0.8, 0.9, 90, 10, 12, "Snow"},
		{"no snow at 1 °C", 1, 0.8, 0.9, 90, 10, 12, "Sleet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := hourConditions(tt.giveT, tt.giveP, tt.giveCloud, tt.giveRH, tt.giveWind, tt.giveHour)
			if got != tt.want {
				t.Errorf("hourConditions = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDayConditions(t *testing.T) {
	tests := []struct {
		name      string
		giveHigh  float64
		giveLow   float64
		giveP     float64
		giveCloud float64
		want      string
	}{
		{"dry and clear", 20, 10, 0.1, 0.2, "Clear"},
		{"dry and grey", 20, 10, 0.4, 0.85, "Overcast"},
		{"light rain", 12, 5, 0.55, 0.9, "Light rain"},
		{"rain", 12, 5, 0.9, 0.9, "Rain"},
		{"thunderstorms", 30, 20, 0.8, 0.9, "Thunderstorms"},
		{"snow", 0.5, -5, 0.9, 0.9, "Snow"},
		{"light snow", -2, -8, 0.6, 0.9, "Light snow"},
		{"sleet around freezing", 3, -1, 0.9, 0.9, "Sleet"},
		{"rain after a frosty night", 8, -1, 0.9, 0.9, "Rain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dayConditions(tt.giveHigh, tt.giveLow, tt.giveP, tt.giveCloud); got != tt.want {
				t.Errorf("dayConditions = %q, want %q", got, tt.want)
			}
		})
	}
}

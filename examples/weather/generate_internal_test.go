package weather

import (
	"math"
	"testing"
	"time"
)

func TestMonthly(t *testing.T) {
	normals := [12]float64{0, 10, 20, 30, 40, 50, 60, 50, 40, 30, 20, 10}
	tests := []struct {
		name string
		give time.Time
		want float64
	}{
		{"mid-January is January's normal", time.Date(2026, 1, 16, 0, 0, 0, 0, time.UTC), 0},
		{"mid-July is July's normal", time.Date(2026, 7, 16, 0, 0, 0, 0, time.UTC), 60},
		{"new year is between December and January", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 4.84},
		{"end of the year", time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC), 5.16},
		{"leap day", time.Date(2028, 2, 29, 0, 0, 0, 0, time.UTC), 14.83},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := monthly(&normals, dayNumber(tt.give.Date()))
			if math.Abs(got-tt.want) > 0.01 {
				t.Errorf("monthly(%s) = %.3f, want %.2f", tt.give.Format(time.DateOnly), got, tt.want)
			}
		})
	}
}

func TestPrecipChance(t *testing.T) {
	tests := []struct {
		name    string
		giveP   float64
		giveU   float64
		wantMin float64
		wantMax float64
	}{
		{"never wet", 0, 0, 0, 0},
		{"never wet, any day", 0, 0.99, 0, 0},
		{"always wet", 1, 0.99, 0.55, 0.95},
		{"wettest day", 0.3, 0, 0.95, 0.95},
		{"barely wet day", 0.3, 0.2999, 0.55, 0.56},
		{"barely dry day", 0.3, 0.3001, 0.44, 0.45},
		{"dry day in a dry month", 0.02, 0.021, 0, 0.03},
		{"driest day", 0.3, 0.9999, 0, 0.001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := precipChance(tt.giveP, tt.giveU)
			if got < tt.wantMin || got > tt.wantMax {
				t.Errorf("precipChance(%v, %v) = %v, want %v..%v", tt.giveP, tt.giveU, got, tt.wantMin, tt.wantMax)
			}
		})
	}
}

func TestTemperatureCycle(t *testing.T) {
	c := defaultCatalog()
	for i := range c.entries {
		e := &c.entries[i]
		t.Run(e.city.Slug, func(t *testing.T) {
			for n := dayNumber(2026, 1, 1); n < dayNumber(2027, 1, 1); n += 7 {
				today := e.day(n)
				if got := e.temperature(n, lowHour, today); got != today.low {
					t.Fatalf("day %d: temperature at %d:00 = %v, want the low %v", n, lowHour, got, today.low)
				}
				if got := e.temperature(n, highHour, today); got != today.high {
					t.Fatalf("day %d: temperature at %d:00 = %v, want the high %v", n, highHour, got, today.high)
				}
				// From 23:00 to 00:00 the curve goes on smoothly.
				late := e.temperature(n, 23, today)
				early := e.temperature(n+1, 0, e.day(n+1))
				if step := math.Abs(early - late); step > 3 {
					t.Fatalf("day %d: temperature jumps by %.1f °C at midnight", n, step)
				}
			}
		})
	}
}

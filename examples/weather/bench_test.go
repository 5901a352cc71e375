package weather_test

import (
	"testing"

	"github.com/contentneg/contentneg/examples/weather"
)

func BenchmarkCurrent(b *testing.B) {
	s := weather.NewService(fixed(demoTime))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Current("Bern, Switzerland"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkForecast(b *testing.B) {
	s := weather.NewService(fixed(demoTime))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Forecast("bern", weather.MaxForecastDays); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveUnknown(b *testing.B) {
	s := weather.NewService(nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Resolve("Springfeld"); err == nil {
			b.Fatal("resolved a misspelt name")
		}
	}
}

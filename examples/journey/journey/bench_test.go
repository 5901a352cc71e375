package journey_test

import (
	"testing"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

func BenchmarkFind(b *testing.B) {
	benchmarks := []struct {
		name string
		give journey.FindInput
	}{
		{"direct", journey.FindInput{From: "Zürich HB", To: "Bern", Departure: "2026-11-20T08:00:00+01:00"}},
		{"two changes", journey.FindInput{From: "Montreux", To: "Chur", Departure: "2026-11-20T08:00:00+01:00"}},
		{"limit 10", journey.FindInput{From: "Brig", To: "St. Gallen", Departure: "2026-11-20T08:00:00+01:00", Limit: 10}},
		{"next day", journey.FindInput{From: "Lugano", To: "Genève", Departure: "2026-11-20T23:30:00+01:00"}},
	}
	p := newPlanner(b)
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Find(bm.give); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStation(b *testing.B) {
	p := newPlanner(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Station("zurich hb"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStationUnknown(b *testing.B) {
	p := newPlanner(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Station("Zürch"); err == nil {
			b.Fatal("no error")
		}
	}
}

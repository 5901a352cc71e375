package journey_test

import (
	"errors"
	"testing"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

// FuzzFind checks that any input gives either connections that keep the
// invariants or an error wrapping ErrInvalidInput, and never panics.
func FuzzFind(f *testing.F) {
	f.Add("Zürich HB", "Bern", "2026-11-20T08:00:00+01:00", 3)
	f.Add("gen", "lugano", "2026-11-20T23:59:59Z", 10)
	f.Add("", "\x00", "2026-02-30T08:00:00+01:00", -1)
	f.Add("Zürich", "zurich-hb", "2099-12-31T23:59:59-12:00", 0)
	p := newPlanner(f)
	f.Fuzz(func(t *testing.T, from, to, departure string, limit int) {
		in := journey.FindInput{From: from, To: to, Departure: departure, Limit: limit}
		got, err := p.Find(in)
		if err != nil {
			if !errors.Is(err, journey.ErrInvalidInput) {
				t.Fatalf("Find(%+v) = %v, not ErrInvalidInput", in, err)
			}
			return
		}
		if len(got.Connections) == 0 {
			t.Fatalf("Find(%+v): no connection", in)
		}
		checkConnections(t, journey.FindInput{From: got.From, To: got.To, Departure: departure, Limit: limit}, got)
	})
}

// FuzzStation checks that a look-up finds a station or returns an error
// wrapping ErrInvalidInput, and never panics.
func FuzzStation(f *testing.F) {
	for _, s := range []string{"Zürich HB", "gen", "St. Gallen", "", "\xff", "Ber\nn"} {
		f.Add(s)
	}
	p := newPlanner(f)
	f.Fuzz(func(t *testing.T, name string) {
		s, err := p.Station(name)
		if err != nil {
			if !errors.Is(err, journey.ErrInvalidInput) {
				t.Fatalf("Station(%q) = %v, not ErrInvalidInput", name, err)
			}
			return
		}
		if again, err := p.Station(s.ID); err != nil || again.ID != s.ID {
			t.Fatalf("Station(%q) = %s, but its id finds %s, %v", name, s.ID, again.ID, err)
		}
	})
}

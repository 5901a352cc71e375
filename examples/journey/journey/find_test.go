package journey_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/examples/journey/journey"
)

const friday8 = "2026-11-20T08:00:00+01:00"

func TestFindDirect(t *testing.T) {
	p := newPlanner(t)
	got, err := p.Find(journey.FindInput{From: "Zürich HB", To: "Bern", Departure: friday8, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	direct := func(train, dep, arr, depPlatform, arrPlatform string) journey.Connection {
		return journey.Connection{
			Departure: dep, Arrival: arr, Duration: "PT56M", Changes: 0,
			Legs: []journey.Leg{{
				Train: train, From: "Zürich HB", To: "Bern", Departure: dep, Arrival: arr,
				DeparturePlatform: depPlatform, ArrivalPlatform: arrPlatform,
			}},
		}
	}
	want := journey.Connections{
		From: "Zürich HB",
		To:   "Bern",
		Connections: []journey.Connection{
			direct("IC 1 709", "2026-11-20T08:02:00+01:00", "2026-11-20T08:58:00+01:00", "31", "8"),
			direct("IC 8 1006", "2026-11-20T08:15:00+01:00", "2026-11-20T09:11:00+01:00", "34", "5"),
			direct("IC 1 711", "2026-11-20T08:32:00+01:00", "2026-11-20T09:28:00+01:00", "31", "8"),
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Find (-want +got):\n%s", diff)
	}
}

func TestFindWithChange(t *testing.T) {
	tests := []struct {
		from, to    string
		wantChanges int
		wantVia     string // the station of the first change
	}{
		{"Interlaken Ost", "Luzern", 1, "Olten"},
		{"Brig", "St. Gallen", 1, "Bern"},
		{"Montreux", "Chur", 2, "Lausanne"},
		{"Yverdon-les-Bains", "Lugano", 1, "Zürich HB"},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(tt.from+"-"+tt.to, func(t *testing.T) {
			in := journey.FindInput{From: tt.from, To: tt.to, Departure: friday8}
			got, err := p.Find(in)
			if err != nil {
				t.Fatal(err)
			}
			checkConnections(t, in, got)
			first := got.Connections[0]
			if first.Changes != tt.wantChanges || first.Legs[0].To != tt.wantVia {
				t.Errorf("first connection changes %d times, first at %s; want %d, at %s",
					first.Changes, first.Legs[0].To, tt.wantChanges, tt.wantVia)
			}
		})
	}
}

func TestFindEveryPair(t *testing.T) {
	p := newPlanner(t)
	stations := p.Stations()
	departures := []string{friday8, "2026-11-20T00:00:00+01:00", "2026-11-20T22:45:00+01:00"}
	if testing.Short() {
		departures = departures[:1]
	}
	for _, dep := range departures {
		for _, from := range stations {
			for _, to := range stations {
				if from.ID == to.ID {
					continue
				}
				in := journey.FindInput{From: from.Name, To: to.Name, Departure: dep, Limit: 4}
				got, err := p.Find(in)
				if err != nil {
					t.Fatalf("Find(%+v): %v", in, err)
				}
				checkConnections(t, in, got)
				if len(got.Connections) != 4 {
					t.Errorf("%s to %s at %s: %d connections, want 4", from.Name, to.Name, dep, len(got.Connections))
				}
			}
		}
	}
}

func TestFindAroundMidnight(t *testing.T) {
	tests := []struct {
		name      string
		from, to  string
		give      string
		wantFirst string // departure of the first connection
		wantTrain string // its first train
	}{
		{"rolls over to the next day", "Zürich HB", "Bern", "2026-11-20T23:55:00+01:00", "2026-11-21T05:15:00+01:00", "IC 8 1000"},
		{"rolls over to the next year", "Zürich HB", "Bern", "2026-12-31T23:59:30+01:00", "2027-01-01T05:15:00+01:00", "IC 8 1000"},
		{"rolls over from UTC", "Zürich HB", "Bern", "2026-11-20T22:55:00Z", "2026-11-21T05:15:00+01:00", "IC 8 1000"},
		{"last train of the day", "Zürich HB", "Bern", "2026-11-20T23:00:00+01:00", "2026-11-20T23:02:00+01:00", "IC 1 769"},
		{"train from the evening before", "Zürich HB", "St. Gallen", "2026-11-21T00:10:00+01:00", "2026-11-21T00:33:00+01:00", "IC 1 768"},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := journey.FindInput{From: tt.from, To: tt.to, Departure: tt.give, Limit: 3}
			got, err := p.Find(in)
			if err != nil {
				t.Fatal(err)
			}
			checkConnections(t, in, got)
			if len(got.Connections) != 3 {
				t.Fatalf("%d connections, want 3", len(got.Connections))
			}
			if c := got.Connections[0]; c.Departure != tt.wantFirst || c.Legs[0].Train != tt.wantTrain {
				t.Errorf("first connection %s on %s, want %s on %s", c.Departure, c.Legs[0].Train, tt.wantFirst, tt.wantTrain)
			}
		})
	}
}

func TestFindLimit(t *testing.T) {
	tests := []struct {
		give int
		want int
	}{
		{0, journey.DefaultLimit},
		{1, 1},
		{7, 7},
		{journey.MaxLimit, journey.MaxLimit},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.give), func(t *testing.T) {
			in := journey.FindInput{From: "Basel SBB", To: "Lugano", Departure: friday8, Limit: tt.give}
			got, err := p.Find(in)
			if err != nil {
				t.Fatal(err)
			}
			checkConnections(t, in, got)
			if len(got.Connections) != tt.want {
				t.Errorf("%d connections, want %d", len(got.Connections), tt.want)
			}
		})
	}
}

func TestFindSameInstantAnyOffset(t *testing.T) {
	p := newPlanner(t)
	var first journey.Connections
	for i, dep := range []string{friday8, "2026-11-20T07:00:00Z", "2026-11-20T02:00:00-05:00", "2026-11-20T08:00:00.000+01:00"} {
		got, err := p.Find(journey.FindInput{From: "Luzern", To: "Genève", Departure: dep})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = got
		} else if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("departure %s (-%s +got):\n%s", dep, friday8, diff)
		}
	}
}

func TestFindBadInput(t *testing.T) {
	valid := journey.FindInput{From: "Zürich HB", To: "Bern", Departure: friday8}
	with := func(change func(in *journey.FindInput)) journey.FindInput {
		in := valid
		change(&in)
		return in
	}
	tests := []struct {
		name        string
		give        journey.FindInput
		wantUnknown bool     // matches ErrUnknownStation too
		wantParts   []string // parts of the message
	}{
		{"unknown from", with(func(in *journey.FindInput) { in.From = "Zurch" }), true,
			[]string{`from: unknown station "Zurch"; did you mean "Zürich HB"`}},
		{"ambiguous to", with(func(in *journey.FindInput) { in.To = "Gen" }), true,
			[]string{`to: station "Gen" is ambiguous`}},
		{"empty from", with(func(in *journey.FindInput) { in.From = "" }), false,
			[]string{"from: station name is empty"}},
		{"everything empty", journey.FindInput{}, false,
			[]string{"from: station name is empty", "to: station name is empty", "departure is empty"}},
		{"huge from", with(func(in *journey.FindInput) { in.From = strings.Repeat("x", 1<<20) }), false,
			[]string{"from: station name is 1048576 bytes long"}},
		{"control characters", with(func(in *journey.FindInput) { in.To = "Bern\x07" }), false,
			[]string{`to: station name "Bern\a" contains control characters`}},
		{"same station", with(func(in *journey.FindInput) { in.To = "zurich-hb" }), false,
			[]string{`from and to are both "Zürich HB"`}},
		{"departure not RFC 3339", with(func(in *journey.FindInput) { in.Departure = "2026-11-20 08:00" }), false,
			[]string{`departure "2026-11-20 08:00" is not an RFC 3339 time`, "2026-11-20T08:00:00+01:00"}},
		{"departure without offset", with(func(in *journey.FindInput) { in.Departure = "2026-11-20T08:00:00" }), false,
			[]string{"is not an RFC 3339 time"}},
		{"departure far off", with(func(in *journey.FindInput) { in.Departure = "2200-11-20T08:00:00+01:00" }), false,
			[]string{"in 2200; give a date in the years 2000 to 2099"}},
		{"huge departure", with(func(in *journey.FindInput) { in.Departure = strings.Repeat("9", 10000) }), false,
			[]string{"departure is 10000 bytes long"}},
		{"negative limit", with(func(in *journey.FindInput) { in.Limit = -1 }), false,
			[]string{"limit -1 is out of range; give 1 to 10, or leave it out for 5"}},
		{"limit too large", with(func(in *journey.FindInput) { in.Limit = 11 }), false,
			[]string{"limit 11 is out of range"}},
		{"all wrong", journey.FindInput{From: "Atlantis", To: "", Departure: "now", Limit: 1000}, true,
			[]string{`unknown station "Atlantis"`, "to: station name is empty", `departure "now"`, "limit 1000"}},
	}
	p := newPlanner(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.Find(tt.give)
			if !errors.Is(err, journey.ErrInvalidInput) {
				t.Fatalf("Find = %v, want ErrInvalidInput", err)
			}
			if errors.Is(err, journey.ErrUnknownStation) != tt.wantUnknown {
				t.Errorf("errors.Is(%v, ErrUnknownStation) = %v, want %v", err, !tt.wantUnknown, tt.wantUnknown)
			}
			var use *journey.UnknownStationError
			if errors.As(err, &use) != tt.wantUnknown {
				t.Errorf("errors.As(%v, *UnknownStationError) = %v, want %v", err, !tt.wantUnknown, tt.wantUnknown)
			}
			msg := err.Error()
			for _, part := range tt.wantParts {
				if !strings.Contains(msg, part) {
					t.Errorf("message %q, want it to contain %q", msg, part)
				}
			}
			if len(msg) > 500 {
				t.Errorf("message is %d bytes long", len(msg))
			}
			if diff := cmp.Diff(journey.Connections{}, got); diff != "" {
				t.Errorf("result with an error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFindConcurrent(t *testing.T) {
	p := newPlanner(t)
	in := journey.FindInput{From: "Genève", To: "St. Gallen", Departure: friday8}
	want, err := p.Find(in)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]journey.Connections, 8)
	for i := range results {
		wg.Go(func() {
			results[i], _ = p.Find(in)
		})
	}
	wg.Wait()
	for i, got := range results {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("goroutine %d (-want +got):\n%s", i, diff)
		}
	}
}

// checkConnections checks the invariants of a Find result: times, legs
// that chain with MinChange to spare, and departures and arrivals that
// both increase, so that no connection is dominated by another.
func checkConnections(t *testing.T, in journey.FindInput, got journey.Connections) {
	t.Helper()
	requested, err := time.Parse(time.RFC3339, strings.TrimSpace(in.Departure))
	if err != nil {
		t.Fatalf("bad test input: %v", err)
	}
	from, errFrom := newPlanner(t).Station(in.From)
	to, errTo := newPlanner(t).Station(in.To)
	if errFrom != nil || errTo != nil {
		t.Fatalf("bad test input: %v %v", errFrom, errTo)
	}
	if got.From != from.Name || got.To != to.Name {
		t.Errorf("result is from %s to %s, want %s to %s", got.From, got.To, from.Name, to.Name)
	}
	limit := in.Limit
	if limit == 0 {
		limit = journey.DefaultLimit
	}
	if got.Connections == nil || len(got.Connections) > limit {
		t.Errorf("%d connections (nil: %v), want at most %d", len(got.Connections), got.Connections == nil, limit)
	}
	var prevDep, prevArr time.Time
	for i, c := range got.Connections {
		where := fmt.Sprintf("%s to %s at %s, connection %d", got.From, got.To, in.Departure, i)
		dep, arr := mustTime(t, c.Departure), mustTime(t, c.Arrival)
		switch {
		case dep.Before(requested):
			t.Errorf("%s: departs %s, before %s", where, c.Departure, in.Departure)
		case !dep.Before(requested.Add(24 * time.Hour)):
			t.Errorf("%s: departs %s, a day or more after %s", where, c.Departure, in.Departure)
		case !arr.After(dep):
			t.Errorf("%s: arrives %s, not after departing %s", where, c.Arrival, c.Departure)
		case c.Duration != isoDuration(arr.Sub(dep)):
			t.Errorf("%s: duration %s, want %s", where, c.Duration, isoDuration(arr.Sub(dep)))
		case c.Changes != len(c.Legs)-1 || c.Changes < 0 || c.Changes > journey.MaxChanges:
			t.Errorf("%s: %d changes and %d legs", where, c.Changes, len(c.Legs))
		}
		if i > 0 {
			if !dep.After(prevDep) {
				t.Errorf("%s: departs %s, not after the one before", where, c.Departure)
			}
			if !arr.After(prevArr) {
				t.Errorf("%s: arrives %s, not after the one before", where, c.Arrival)
			}
		}
		prevDep, prevArr = dep, arr
		if len(c.Legs) == 0 {
			continue
		}
		if first, last := c.Legs[0], c.Legs[len(c.Legs)-1]; first.From != got.From || last.To != got.To ||
			first.Departure != c.Departure || last.Arrival != c.Arrival {
			t.Errorf("%s: legs from %s at %s to %s at %s", where, first.From, first.Departure, last.To, last.Arrival)
		}
		for j, leg := range c.Legs {
			ld, la := mustTime(t, leg.Departure), mustTime(t, leg.Arrival)
			if !la.After(ld) || leg.From == leg.To || leg.Train == "" || leg.DeparturePlatform == "" || leg.ArrivalPlatform == "" {
				t.Errorf("%s, leg %d: bad leg %+v", where, j, leg)
			}
			if j == 0 {
				continue
			}
			prev := c.Legs[j-1]
			if prev.To != leg.From {
				t.Errorf("%s, leg %d: starts at %s, the leg before ends at %s", where, j, leg.From, prev.To)
			}
			if change := ld.Sub(mustTime(t, prev.Arrival)); change < journey.MinChange {
				t.Errorf("%s, leg %d: change of %v at %s", where, j, change, leg.From)
			}
		}
	}
}

// mustTime parses an RFC 3339 time that must have the timetable offset.
func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	if !strings.HasSuffix(s, "+01:00") {
		t.Errorf("time %q is not in +01:00", s)
	}
	return tm
}

// isoDuration formats d, whole minutes, as ISO 8601, independently of the package.
func isoDuration(d time.Duration) string {
	h, m := int(d.Hours()), int(d.Minutes())%60
	switch {
	case h == 0:
		return fmt.Sprintf("PT%dM", m)
	case m == 0:
		return fmt.Sprintf("PT%dH", h)
	}
	return fmt.Sprintf("PT%dH%dM", h, m)
}

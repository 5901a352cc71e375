package journey

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestEmbeddedTimetable(t *testing.T) {
	n, err := parseNetwork(timetableJSON)
	if err != nil {
		t.Fatalf("embedded timetable: %v", err)
	}
	if got := len(n.stations); got < 15 {
		t.Errorf("%d stations, want 15 or more", got)
	}
	if got := len(n.routes) / 2; got < 10 {
		t.Errorf("%d lines, want 10 or more", got)
	}
	if n.runsPerDay < 300 {
		t.Errorf("%d runs per day, want 300 or more", n.runsPerDay)
	}
	for _, st := range n.stations {
		if len(st.Lines) == 0 {
			t.Errorf("no line calls at %s", st.Name)
		}
	}
	trains := make(map[string]bool)
	for _, r := range n.routes {
		for i, st := range r.stops {
			if st < 0 || st >= len(n.stations) {
				t.Fatalf("%s: stop %d is station %d of %d", r.line, i, st, len(n.stations))
			}
			if p := r.platforms[i]; !slices.Contains(n.stations[st].Platforms, p) {
				t.Errorf("%s: %s has no platform %q", r.line, n.stations[st].Name, p)
			}
			if !slices.Contains(n.stations[st].Lines, r.line) {
				t.Errorf("%s calls at %s, which does not list it", r.line, n.stations[st].Name)
			}
		}
		if !slices.IsSorted(r.starts) {
			t.Errorf("%s: runs not sorted by start", r.line)
		}
		for i, s := range r.starts {
			if s < 0 || s >= minutesPerDay {
				continue // the copies of the other days
			}
			name := r.line + " " + strconv.Itoa(r.numbers[i])
			if trains[name] {
				t.Errorf("train %s runs twice a day", name)
			}
			trains[name] = true
		}
	}
	if len(trains) != n.runsPerDay {
		t.Errorf("%d train names for %d runs per day", len(trains), n.runsPerDay)
	}
}

func TestParseNetworkErrors(t *testing.T) {
	tests := []struct {
		name string
		give func(tt *fileTimetable)
		want string // part of the error; "" for none
	}{
		{"valid", func(*fileTimetable) {}, ""},
		{"no stations", func(tt *fileTimetable) { tt.Stations = nil }, "no stations"},
		{"id not a slug", func(tt *fileTimetable) { tt.Stations[0].ID = "Alpha" }, "not a lower-case slug"},
		{"id with double hyphen", func(tt *fileTimetable) { tt.Stations[0].ID = "al--pha" }, "not a lower-case slug"},
		{"duplicate id", func(tt *fileTimetable) { tt.Stations[1].ID = "alpha" }, "used twice"},
		{"empty name", func(tt *fileTimetable) { tt.Stations[0].Name = "" }, "name is empty"},
		{"control character in alias", func(tt *fileTimetable) { tt.Stations[1].Aliases = []string{"B\tx"} }, "control characters"},
		{"name without letters", func(tt *fileTimetable) { tt.Stations[0].Name = "..." }, "no letters or digits"},
		{"alias of another station", func(tt *fileTimetable) { tt.Stations[1].Aliases = []string{"ALPHA"} }, `is also a name of "alpha"`},
		{"latitude out of range", func(tt *fileTimetable) { tt.Stations[0].Lat = 91 }, "out of range"},
		{"longitude out of range", func(tt *fileTimetable) { tt.Stations[0].Lon = -181 }, "out of range"},
		{"no platforms", func(tt *fileTimetable) { tt.Stations[0].Platforms = nil }, "no platforms"},
		{"duplicate platform", func(tt *fileTimetable) { tt.Stations[0].Platforms = []string{"1", "1"} }, "listed twice"},
		{"empty platform", func(tt *fileTimetable) { tt.Stations[0].Platforms = []string{""} }, "empty or listed twice"},
		{"no lines", func(tt *fileTimetable) { tt.Lines = nil }, "no lines"},
		{"duplicate line", func(tt *fileTimetable) { tt.Lines = append(tt.Lines, tt.Lines[0]) }, "listed twice"},
		{"first number zero", func(tt *fileTimetable) { tt.Lines[0].FirstNumber = 0 }, "not positive"},
		{"one stop", func(tt *fileTimetable) { tt.Lines[0].Stops = tt.Lines[0].Stops[:1] }, "needs two"},
		{"unknown station", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Station = "gamma" }, `unknown station id "gamma"`},
		{"station twice", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Station = "alpha" }, "called at twice"},
		{"first stop not at zero", func(tt *fileTimetable) { tt.Lines[0].Stops[0].Dep = 1 }, "first stop"},
		{"no running time", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Arr = 0 }, "not after the previous dep"},
		{"leaves before it arrives", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Dep = 29 }, "before arr"},
		{"dwell at the last stop", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Dep = 31 }, "last stop"},
		{"longer than a day", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Arr, tt.Lines[0].Stops[1].Dep = 1441, 1441 }, "more than a day"},
		{"unknown platform", func(tt *fileTimetable) { tt.Lines[0].Stops[1].Platform = "9" }, `no platform "9"`},
		{"unknown return platform", func(tt *fileTimetable) { tt.Lines[0].Stops[0].ReturnPlatform = "7" }, `no platform "7"`},
		{"clock without leading zero", func(tt *fileTimetable) { tt.Lines[0].Outbound.First = "6:00" }, "not HH:MM"},
		{"clock past midnight", func(tt *fileTimetable) { tt.Lines[0].Inbound.Last = "24:00" }, "not a time of day"},
		{"clock with sign", func(tt *fileTimetable) { tt.Lines[0].Inbound.First = "+6:00" }, "not HH:MM"},
		{"every zero", func(tt *fileTimetable) { tt.Lines[0].Outbound.Every = 0 }, "not positive"},
		{"last before first", func(tt *fileTimetable) { tt.Lines[0].Outbound.Last = "05:00" }, "before first"},
		{"last off the pattern", func(tt *fileTimetable) { tt.Lines[0].Outbound.Last = "07:10" }, "multiple of 30"},
		{"too many runs", func(tt *fileTimetable) {
			tt.Lines[0].Outbound = filePattern{First: "00:00", Last: "23:59", Every: 1}
		}, "more than 50 runs"},
		{"train numbers overlap", func(tt *fileTimetable) {
			other := tt.Lines[0]
			other.Name, other.FirstNumber = "IC 10", 102
			tt.Lines = append(tt.Lines, other)
		}, "train number 102 also used"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := smallTimetable()
			tt.give(table)
			_, err := parseNetwork(mustMarshal(t, table))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("parseNetwork: %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("parseNetwork: no error, want one containing %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("parseNetwork: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestDecodeTimetableErrors(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{"not JSON", "stations:", "decode timetable"},
		{"unknown field", `{"stations": [], "lines": [], "trams": []}`, "unknown field"},
		{"trailing data", `{"stations": [], "lines": []} {}`, "after the top-level object"},
		{"trailing brace", `{"stations": [], "lines": []}}`, "after the top-level object"},
		{"wrong type", `{"stations": {}}`, "decode timetable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseNetwork([]byte(tt.give))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("parseNetwork(%q) = %v, want an error containing %q", tt.give, err, tt.want)
			}
		})
	}
}

func TestRunsFromPatterns(t *testing.T) {
	n, err := parseNetwork(mustMarshal(t, smallTimetable()))
	if err != nil {
		t.Fatal(err)
	}
	if n.runsPerDay != 6 {
		t.Errorf("runsPerDay = %d, want 6", n.runsPerDay)
	}
	out, in := n.routes[0], n.routes[1]
	tests := []struct {
		name        string
		give        route
		wantStops   []int
		wantArr     []int
		wantDep     []int
		wantPlat    []string
		wantStarts  []int // of day 0
		wantNumbers []int // of day 0
	}{
		{"outbound", out, []int{0, 1}, []int{0, 30}, []int{0, 30}, []string{"1", "1"}, []int{360, 390, 420}, []int{100, 102, 104}},
		{"inbound", in, []int{1, 0}, []int{0, 30}, []int{0, 30}, []string{"1", "2"}, []int{375, 405, 435}, []int{101, 103, 105}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.give
			if !slices.Equal(r.stops, tt.wantStops) || !slices.Equal(r.arr, tt.wantArr) ||
				!slices.Equal(r.dep, tt.wantDep) || !slices.Equal(r.platforms, tt.wantPlat) {
				t.Errorf("route = stops %v arr %v dep %v platforms %v, want %v %v %v %v",
					r.stops, r.arr, r.dep, r.platforms, tt.wantStops, tt.wantArr, tt.wantDep, tt.wantPlat)
			}
			days := lastDay - firstDay + 1
			if len(r.starts) != days*len(tt.wantStarts) {
				t.Fatalf("%d runs over %d days, want %d", len(r.starts), days, days*len(tt.wantStarts))
			}
			day0 := -firstDay * len(tt.wantStarts)
			gotStarts := r.starts[day0 : day0+len(tt.wantStarts)]
			gotNumbers := r.numbers[day0 : day0+len(tt.wantStarts)]
			if !slices.Equal(gotStarts, tt.wantStarts) || !slices.Equal(gotNumbers, tt.wantNumbers) {
				t.Errorf("day 0: starts %v numbers %v, want %v %v", gotStarts, gotNumbers, tt.wantStarts, tt.wantNumbers)
			}
			if r.starts[0] != tt.wantStarts[0]-minutesPerDay {
				t.Errorf("first run starts at %d, want the day before, %d", r.starts[0], tt.wantStarts[0]-minutesPerDay)
			}
		})
	}
}

// smallTimetable returns a valid two-station timetable to break in tests.
func smallTimetable() *fileTimetable {
	return &fileTimetable{
		Stations: []fileStation{
			{ID: "alpha", Name: "Alpha", Lat: 46.5, Lon: 7.5, Platforms: []string{"1", "2"}},
			{ID: "beta", Name: "Beta", Aliases: []string{"Bravo"}, Lat: 47, Lon: 8, Platforms: []string{"1"}},
		},
		Lines: []fileLine{{
			Name:        "IC 9",
			FirstNumber: 100,
			Stops: []fileStop{
				{Station: "alpha", Arr: 0, Dep: 0, Platform: "1", ReturnPlatform: "2"},
				{Station: "beta", Arr: 30, Dep: 30, Platform: "1", ReturnPlatform: "1"},
			},
			Outbound: filePattern{First: "06:00", Last: "07:00", Every: 30},
			Inbound:  filePattern{First: "06:15", Last: "07:15", Every: 30},
		}},
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

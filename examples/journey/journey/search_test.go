package journey

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
)

// elementary is a ride between two consecutive stops of a run, the unit of
// the connection scan that checks the planner's search.
type elementary struct {
	from, to, dep, arr, run int
}

// connectionScan is a reference earliest-arrival search, written
// differently from the planner's: a connection scan over every elementary
// connection of every run, sorted by departure.
type connectionScan struct {
	net         *network
	connections []elementary
	runs        int
}

func newConnectionScan(n *network) *connectionScan {
	cs := &connectionScan{net: n}
	for _, r := range n.routes {
		for run, start := range r.starts {
			for i := 1; i < len(r.stops); i++ {
				cs.connections = append(cs.connections, elementary{
					from: r.stops[i-1], to: r.stops[i],
					dep: start + r.dep[i-1], arr: start + r.arr[i],
					run: cs.runs + run,
				})
			}
		}
		cs.runs += len(r.starts)
	}
	slices.SortStableFunc(cs.connections, func(a, b elementary) int { return cmp.Compare(a.dep, b.dep) })
	return cs
}

// arrivals returns, for k = 0 to maxRides, the earliest arrival at every
// station from origin departing at t or later with at most k rides. With a
// target, it stops when no connection can reach the target any earlier,
// so that only the arrivals there are final.
func (cs *connectionScan) arrivals(origin, t, target int) [maxRides + 1][]int {
	var arr [maxRides + 1][]int
	var onRun [maxRides + 1][]bool
	for k := range arr {
		arr[k] = make([]int, len(cs.net.stations))
		for s := range arr[k] {
			arr[k][s] = never
		}
		arr[k][origin] = t
		onRun[k] = make([]bool, cs.runs)
	}
	first, _ := slices.BinarySearchFunc(cs.connections, t, func(c elementary, t int) int { return cmp.Compare(c.dep, t) })
	for _, c := range cs.connections[first:] {
		if target >= 0 && c.dep >= arr[maxRides][target] {
			break
		}
		for k := maxRides; k >= 1; k-- {
			ready := never
			switch prev := arr[k-1][c.from]; {
			case c.from == origin:
				ready = t
			case prev != never:
				ready = prev + changeMinutes
			}
			if !onRun[k][c.run] && ready > c.dep {
				continue
			}
			onRun[k][c.run] = true
			for j := k; j <= maxRides; j++ {
				arr[j][c.to] = min(arr[j][c.to], c.arr)
			}
		}
	}
	return arr
}

// TestSearchMatchesConnectionScan compares the first connection of every
// pair of stations at several times of day with the reference: the same
// earliest arrival, reached with as few rides.
func TestSearchMatchesConnectionScan(t *testing.T) {
	n, err := parseNetwork(timetableJSON)
	if err != nil {
		t.Fatal(err)
	}
	cs := newConnectionScan(n)
	times := []int{0, 5*60 + 30, 8 * 60, 12*60 + 17, 17*60 + 45, 22*60 + 50, 23*60 + 59}
	if testing.Short() {
		times = times[2:3]
	}
	for _, t0 := range times {
		for origin := range n.stations {
			ref := cs.arrivals(origin, t0, -1)
			for target := range n.stations {
				if target == origin {
					continue
				}
				name := fmt.Sprintf("%s-%s@%d", n.stations[origin].ID, n.stations[target].ID, t0)
				got := n.connections(origin, target, t0, 1)
				wantArr := ref[maxRides][target]
				if wantArr == never {
					if len(got) != 0 {
						t.Errorf("%s: found a connection the reference does not", name)
					}
					continue
				}
				if len(got) != 1 {
					t.Errorf("%s: no connection, reference arrives at %d", name, wantArr)
					continue
				}
				wantRides := 1
				for ref[wantRides][target] != wantArr {
					wantRides++
				}
				if got[0].arr != wantArr || len(got[0].rides) != wantRides {
					t.Errorf("%s: arrives at %d with %d rides, reference %d with %d",
						name, got[0].arr, len(got[0].rides), wantArr, wantRides)
				}
			}
		}
	}
}

// departures returns the times at which some run leaves station st,
// ascending and without repeats.
func (cs *connectionScan) departures(st int) []int {
	var out []int
	for _, c := range cs.connections {
		if c.from == st {
			out = append(out, c.dep)
		}
	}
	return slices.Compact(out)
}

// TestConnectionsAgainstConnectionScan checks each connection of a list
// against the reference, for every departure from the origin between the
// connection before (exclusive) and this one (inclusive): it arrives no
// later than this one unless as early as the one before, and with no fewer
// rides if as early as this one. After this connection's departure, nothing
// arrives as early with as few rides. So the list has one connection per
// arrival time, and a connection left out is as late as a listed one.
func TestConnectionsAgainstConnectionScan(t *testing.T) {
	n, err := parseNetwork(timetableJSON)
	if err != nil {
		t.Fatal(err)
	}
	cs := newConnectionScan(n)
	step := 1
	if testing.Short() {
		step = 7
	}
	const t0 = 7 * 60
	for origin := 0; origin < len(n.stations); origin += step {
		departures := cs.departures(origin)
		for target := range n.stations {
			if target == origin {
				continue
			}
			name := n.stations[origin].ID + "-" + n.stations[target].ID
			trips := n.connections(origin, target, t0, DefaultLimit)
			if len(trips) != DefaultLimit {
				t.Errorf("%s: %d connections, want %d", name, len(trips), DefaultLimit)
			}
			after, prevArr := t0, -1
			for i, tr := range trips {
				rides := len(tr.rides)
				from, _ := slices.BinarySearch(departures, after)
				for _, d := range departures[from:] {
					if d > tr.dep {
						break
					}
					ref := cs.arrivals(origin, d, target)
					switch arr := ref[maxRides][target]; {
					case arr == prevArr:
					case arr != tr.arr:
						t.Errorf("%s #%d: arrives at %d; departing at %d, the reference arrives at %d", name, i, tr.arr, d, arr)
					case ref[rides-1][target] == arr:
						t.Errorf("%s #%d: arrives at %d with %d rides; departing at %d, the reference needs fewer", name, i, tr.arr, rides, d)
					}
				}
				if later := cs.arrivals(origin, tr.dep+1, target); later[rides][target] == tr.arr {
					t.Errorf("%s #%d: departs at %d; a later departure arrives at %d too with %d rides", name, i, tr.dep, tr.arr, rides)
				}
				after, prevArr = tr.dep+1, tr.arr
			}
		}
	}
}

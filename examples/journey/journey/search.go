package journey

import (
	"math"
	"slices"
	"time"
)

// maxRides is the most trains in a connection.
const maxRides = MaxChanges + 1

// changeMinutes is MinChange in the minutes the search counts in.
const changeMinutes = int(MinChange / time.Minute)

// never is the time of a station not reached.
const never = math.MaxInt

// ride is a part of a connection on one run: the route, the index of the
// run in route.starts, and the stops where it is boarded and left. A ride
// with route -1 is no ride.
type ride struct {
	route, run    int
	board, alight int
}

// trip is a connection as a search finds it, in minutes after midnight of
// the query day.
type trip struct {
	dep, arr int
	rides    []ride
}

// searcher runs earliest-arrival searches (RAPTOR: round k finds the
// earliest arrivals with k rides) on one network. It can be reused but not
// shared between goroutines.
type searcher struct {
	net      *network
	best     []int                // per station: earliest arrival so far
	ready    [maxRides + 1][]int  // ready[k][s]: earliest time to board at s after k rides
	reached  [maxRides + 1][]ride // reached[k][s]: the ride of round k that improved best[s]
	marked   []bool               // per station: improved in this round
	improved []int                // the stations marked
	scanFrom []int                // per route: first stop to scan in this round, -1 if none
	queue    []int                // the routes to scan in this round
}

// newSearcher returns a searcher for net.
func newSearcher(net *network) *searcher {
	ns := len(net.stations)
	s := &searcher{
		net:      net,
		best:     make([]int, ns),
		marked:   make([]bool, ns),
		scanFrom: make([]int, len(net.routes)),
	}
	for k := range s.ready {
		s.ready[k] = make([]int, ns)
		s.reached[k] = make([]ride, ns)
	}
	for r := range s.scanFrom {
		s.scanFrom[r] = -1
	}
	return s
}

// search returns the connection from origin to target with the earliest
// arrival, departing at minute t or later, with the fewest rides among
// those arriving then. It reports false if there is none.
func (s *searcher) search(origin, target, t int) (trip, bool) {
	s.reset()
	s.best[origin] = t
	s.ready[0][origin] = t
	s.mark(origin)
	for k := 1; k <= maxRides && len(s.improved) > 0; k++ {
		copy(s.ready[k], s.ready[k-1])
		s.queueRoutes()
		for _, r := range s.queue {
			s.scanRoute(k, r, target)
		}
	}
	return s.trace(origin, target)
}

// reset forgets the previous search.
func (s *searcher) reset() {
	for st := range s.best {
		s.best[st] = never
		s.marked[st] = false
		for k := range s.ready {
			s.ready[k][st] = never
			s.reached[k][st] = ride{route: -1}
		}
	}
	s.improved = s.improved[:0]
}

// mark notes that station st improved in this round.
func (s *searcher) mark(st int) {
	if !s.marked[st] {
		s.marked[st] = true
		s.improved = append(s.improved, st)
	}
}

// queueRoutes queues the routes calling at a station improved in the last
// round, each from its first such stop, and clears the marks.
func (s *searcher) queueRoutes() {
	s.queue = s.queue[:0]
	for _, st := range s.improved {
		s.marked[st] = false
		for _, rs := range s.net.serving[st] {
			switch from := s.scanFrom[rs.route]; {
			case from < 0:
				s.queue = append(s.queue, rs.route)
				s.scanFrom[rs.route] = rs.stop
			case rs.stop < from:
				s.scanFrom[rs.route] = rs.stop
			}
		}
	}
	s.improved = s.improved[:0]
}

// scanRoute runs along route ri in round k: it rides the earliest run that
// can be caught at a stop reached in round k-1, and records each stop where
// that run arrives earlier than known so far.
func (s *searcher) scanRoute(k, ri, target int) {
	r := &s.net.routes[ri]
	from := s.scanFrom[ri]
	s.scanFrom[ri] = -1
	run, board := -1, -1
	last := len(r.stops) - 1
	for i := from; i <= last; i++ {
		st := r.stops[i]
		if run >= 0 {
			// Target pruning: an arrival after the best one at the target
			// cannot lead to a better connection.
			if a := r.starts[run] + r.arr[i]; a < s.best[st] && a < s.best[target] {
				s.best[st] = a
				s.ready[k][st] = a + changeMinutes
				s.reached[k][st] = ride{route: ri, run: run, board: board, alight: i}
				s.mark(st)
			}
		}
		if i == last {
			break
		}
		rd := s.ready[k-1][st]
		if rd == never || (run >= 0 && rd > r.starts[run]+r.dep[i]) {
			continue
		}
		// The first run leaving stop i at rd or later.
		if j, _ := slices.BinarySearch(r.starts, rd-r.dep[i]); j < len(r.starts) && (run < 0 || j < run) {
			run, board = j, i
		}
	}
}

// trace rebuilds the connection to target from the rides recorded by the
// last search, using the fewest rides that reach the earliest arrival.
func (s *searcher) trace(origin, target int) (trip, bool) {
	if s.best[target] == never {
		return trip{}, false
	}
	var rides []ride
	k := maxRides
	for st := target; st != origin; k-- {
		// A station's best arrival is the ride of the last round that
		// improved it: later rounds record only strict improvements.
		for k > 0 && s.reached[k][st].route < 0 {
			k--
		}
		if k == 0 {
			return trip{}, false // unreachable: every reached station has a ride
		}
		rd := s.reached[k][st]
		rides = append(rides, rd)
		st = s.net.routes[rd.route].stops[rd.board]
	}
	slices.Reverse(rides)
	first, last := rides[0], rides[len(rides)-1]
	fr, lr := &s.net.routes[first.route], &s.net.routes[last.route]
	return trip{
		dep:   fr.starts[first.run] + fr.dep[first.board],
		arr:   lr.starts[last.run] + lr.arr[last.alight],
		rides: rides,
	}, true
}

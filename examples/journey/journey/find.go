package journey

import (
	"cmp"
	"errors"
	"strconv"
	"time"
)

// Find returns up to in.Limit connections from in.From to in.To departing
// at in.Departure or later, within 24 hours: a query after the last train
// of a day gets the first trains of the next day.
//
// Each connection arrives as early as any connection departing at the same
// time or later. Of the connections arriving at the same time only one is
// listed: the one with the fewest changes, and of those the one departing
// last. So departures and arrivals both increase down the list, and no
// connection is dominated by another. A connection has at most
// [MaxChanges] changes, each of [MinChange] or more.
//
// The arguments are checked together and every problem is reported, joined
// with [errors.Join]: stations as in [Planner.Station], a departure that is
// not RFC 3339 or not in the years 2000 to 2099, a limit outside 0 to
// [MaxLimit], and the same station twice. All errors wrap
// [ErrInvalidInput]. No connection at all gives an empty list, not an
// error.
func (p *Planner) Find(in FindInput) (Connections, error) {
	from, errFrom := p.net.resolve("from", in.From)
	to, errTo := p.net.resolve("to", in.To)
	midnight, minute, errDep := parseDeparture(in.Departure)
	errLimit := checkLimit(in.Limit)
	if err := errors.Join(errFrom, errTo, errDep, errLimit); err != nil {
		return Connections{}, err
	}
	if from == to {
		return Connections{}, invalid("from and to are both %q; give two different stations", p.net.stations[from].Name)
	}
	trips := p.net.connections(from, to, minute, cmp.Or(in.Limit, DefaultLimit))
	out := Connections{
		From:        p.net.stations[from].Name,
		To:          p.net.stations[to].Name,
		Connections: make([]Connection, 0, len(trips)),
	}
	for _, tr := range trips {
		out.Connections = append(out.Connections, p.net.connection(midnight, tr))
	}
	return out, nil
}

// checkLimit checks FindInput.Limit; zero stands for DefaultLimit.
func checkLimit(limit int) error {
	if limit < 0 || limit > MaxLimit {
		return invalid("limit %d is out of range; give 1 to %d, or leave it out for %d", limit, MaxLimit, DefaultLimit)
	}
	return nil
}

// connections searches again from just after each connection found and
// keeps one connection per arrival time: the one with the fewest changes,
// and of those the one departing last. The result is sorted by departure
// and by arrival, cut to limit; departures are before t plus one day.
func (n *network) connections(from, to, t, limit int) []trip {
	s := newSearcher(n)
	end := t + minutesPerDay
	var out []trip
	for at := t; ; {
		tr, ok := s.search(from, to, at)
		if !ok || tr.dep >= end {
			break
		}
		// A search from a later time never arrives earlier, so connections
		// with the same arrival come one after the other.
		if last := len(out) - 1; last >= 0 && tr.arr == out[last].arr {
			if len(tr.rides) <= len(out[last].rides) {
				out[last] = tr
			}
		} else {
			if len(out) == limit {
				break
			}
			out = append(out, tr)
		}
		at = tr.dep + 1
	}
	return out
}

// connection turns a trip into its JSON form; midnight is the start of the
// query day.
func (n *network) connection(midnight time.Time, tr trip) Connection {
	legs := make([]Leg, len(tr.rides))
	for i, rd := range tr.rides {
		r := &n.routes[rd.route]
		start := r.starts[rd.run]
		legs[i] = Leg{
			Train:             r.line + " " + strconv.Itoa(r.numbers[rd.run]),
			From:              n.stations[r.stops[rd.board]].Name,
			To:                n.stations[r.stops[rd.alight]].Name,
			Departure:         formatTime(midnight, start+r.dep[rd.board]),
			Arrival:           formatTime(midnight, start+r.arr[rd.alight]),
			DeparturePlatform: r.platforms[rd.board],
			ArrivalPlatform:   r.platforms[rd.alight],
		}
	}
	return Connection{
		Departure: formatTime(midnight, tr.dep),
		Arrival:   formatTime(midnight, tr.arr),
		Duration:  formatDuration(tr.arr - tr.dep),
		Changes:   len(legs) - 1,
		Legs:      legs,
	}
}

package journey

import (
	"fmt"
	"slices"
)

// maxRunsPerDirection bounds the runs of one direction of a line, so that
// the train numbers of a line, first_number up to first_number+2*runs-1,
// stay within a block of a hundred.
const maxRunsPerDirection = 50

// addLine checks a line and adds its two routes. numbers maps the train
// numbers taken so far to their line.
func (n *network) addLine(fl *fileLine, byID map[string]int, numbers map[int]string) error {
	if err := checkName(fl.Name); err != nil {
		return fmt.Errorf("line: %w", err)
	}
	for _, r := range n.routes {
		if r.line == fl.Name {
			return fmt.Errorf("line %q listed twice", fl.Name)
		}
	}
	if fl.FirstNumber <= 0 {
		return fmt.Errorf("line %q: first_number %d is not positive", fl.Name, fl.FirstNumber)
	}
	out, err := n.outboundRoute(fl, byID)
	if err != nil {
		return fmt.Errorf("line %q: %w", fl.Name, err)
	}
	in := reverseRoute(out, fl)
	if err := n.addRuns(&out, fl.Outbound, fl.FirstNumber, numbers); err != nil {
		return fmt.Errorf("line %q: outbound: %w", fl.Name, err)
	}
	if err := n.addRuns(&in, fl.Inbound, fl.FirstNumber+1, numbers); err != nil {
		return fmt.Errorf("line %q: inbound: %w", fl.Name, err)
	}
	for _, r := range []route{out, in} {
		for i, st := range r.stops {
			n.serving[st] = append(n.serving[st], routeStop{route: len(n.routes), stop: i})
		}
		n.routes = append(n.routes, r)
	}
	for _, st := range out.stops {
		n.stations[st].Lines = append(n.stations[st].Lines, fl.Name)
	}
	return nil
}

// addRuns gives r the runs of pattern p on the days a search sees. The
// runs of a day are numbered firstNumber, firstNumber+2, and so on.
func (n *network) addRuns(r *route, p filePattern, firstNumber int, numbers map[int]string) error {
	daily, err := p.starts()
	if err != nil {
		return err
	}
	for i := range daily {
		num := firstNumber + 2*i
		if other, taken := numbers[num]; taken {
			return fmt.Errorf("train number %d also used by %q", num, other)
		}
		numbers[num] = r.line
	}
	for day := firstDay; day <= lastDay; day++ {
		for i, s := range daily {
			r.starts = append(r.starts, s+day*minutesPerDay)
			r.numbers = append(r.numbers, firstNumber+2*i)
		}
	}
	n.runsPerDay += len(daily)
	return nil
}

// outboundRoute checks the stops of a line and returns its outbound route,
// without runs.
func (n *network) outboundRoute(fl *fileLine, byID map[string]int) (route, error) {
	r := route{line: fl.Name}
	if len(fl.Stops) < 2 {
		return r, fmt.Errorf("has %d stops; a line needs two at least", len(fl.Stops))
	}
	for i, s := range fl.Stops {
		st, ok := byID[s.Station]
		if !ok {
			return r, fmt.Errorf("stop %d: unknown station id %q", i, s.Station)
		}
		if slices.Contains(r.stops, st) {
			return r, fmt.Errorf("stop %d: station %q called at twice", i, s.Station)
		}
		if err := checkOffsets(fl.Stops, i); err != nil {
			return r, fmt.Errorf("stop %d (%s): %w", i, s.Station, err)
		}
		platforms := n.stations[st].Platforms
		for _, p := range []string{s.Platform, s.ReturnPlatform} {
			if !slices.Contains(platforms, p) {
				return r, fmt.Errorf("stop %d: station %q has no platform %q", i, s.Station, p)
			}
		}
		r.stops = append(r.stops, st)
		r.arr = append(r.arr, s.Arr)
		r.dep = append(r.dep, s.Dep)
		r.platforms = append(r.platforms, s.Platform)
	}
	return r, nil
}

// checkOffsets checks the minutes of stop i: the first stop is at 0, a
// train never leaves before it arrives, every ride takes time, and the
// last stop has no dwell.
func checkOffsets(stops []fileStop, i int) error {
	s := stops[i]
	switch {
	case i == 0 && (s.Arr != 0 || s.Dep != 0):
		return fmt.Errorf("first stop must have arr and dep 0, not %d and %d", s.Arr, s.Dep)
	case s.Dep < s.Arr:
		return fmt.Errorf("dep %d is before arr %d", s.Dep, s.Arr)
	case i > 0 && s.Arr <= stops[i-1].Dep:
		return fmt.Errorf("arr %d is not after the previous dep %d", s.Arr, stops[i-1].Dep)
	case i == len(stops)-1 && s.Dep != s.Arr:
		return fmt.Errorf("last stop must have dep equal to arr %d, not %d", s.Arr, s.Dep)
	case s.Dep > minutesPerDay:
		return fmt.Errorf("dep %d is more than a day after the start", s.Dep)
	}
	return nil
}

// reverseRoute returns the inbound route of a line from its outbound
// route: the stops in reverse order, the same times between them, and the
// return platforms.
func reverseRoute(out route, fl *fileLine) route {
	last := len(out.stops) - 1
	total := out.arr[last]
	in := route{line: out.line}
	for i := last; i >= 0; i-- {
		in.stops = append(in.stops, out.stops[i])
		in.arr = append(in.arr, total-out.dep[i])
		in.dep = append(in.dep, total-out.arr[i])
		in.platforms = append(in.platforms, fl.Stops[i].ReturnPlatform)
	}
	return in
}

// starts returns the minutes after midnight at which the runs of the
// pattern start.
func (p filePattern) starts() ([]int, error) {
	first, err := parseClock(p.First)
	if err != nil {
		return nil, fmt.Errorf("first: %w", err)
	}
	last, err := parseClock(p.Last)
	if err != nil {
		return nil, fmt.Errorf("last: %w", err)
	}
	switch {
	case p.Every <= 0:
		return nil, fmt.Errorf("every %d is not positive", p.Every)
	case last < first:
		return nil, fmt.Errorf("last %s is before first %s", p.Last, p.First)
	case (last-first)%p.Every != 0:
		return nil, fmt.Errorf("last %s is not first %s plus a multiple of %d minutes", p.Last, p.First, p.Every)
	case (last-first)/p.Every+1 > maxRunsPerDirection:
		return nil, fmt.Errorf("more than %d runs", maxRunsPerDirection)
	}
	var out []int
	for m := first; m <= last; m += p.Every {
		out = append(out, m)
	}
	return out, nil
}

// parseClock parses "HH:MM", 00:00 to 23:59, into minutes after midnight.
func parseClock(s string) (int, error) {
	if len(s) != 5 || s[2] != ':' || !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[3]) || !isDigit(s[4]) {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	if h > 23 || m > 59 {
		return 0, fmt.Errorf("%q is not a time of day", s)
	}
	return h*60 + m, nil
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

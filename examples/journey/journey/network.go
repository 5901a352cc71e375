package journey

import (
	"cmp"
	"fmt"
	"slices"
)

// minutesPerDay is the length of a timetable day; there is no DST.
const minutesPerDay = 24 * 60

// The days, relative to the day of a query, whose runs a search sees:
// yesterday's late runs may still be under way, and the 24-hour window of
// a late query ends tomorrow, with changes reaching into the day after.
const (
	firstDay = -1
	lastDay  = 2
)

// network is the validated timetable in the form the search uses. It is
// never modified after parseNetwork returns it.
type network struct {
	stations   []Station     // sorted by key; the index is the station number
	keys       [][]string    // per station: normalized name, id and aliases
	routes     []route       // two per line: outbound, inbound
	serving    [][]routeStop // per station: the routes calling there
	runsPerDay int
}

// route is one direction of a line. All its runs call at the same stops
// with the same offsets, so they never overtake one another.
type route struct {
	line      string   // "IC 1"
	stops     []int    // station numbers
	arr, dep  []int    // minutes after the start of a run
	platforms []string // per stop
	starts    []int    // run starts on days firstDay..lastDay, minutes after midnight of day 0, ascending
	numbers   []int    // train number of each run, parallel to starts
}

// routeStop is the stop index of a station on a route.
type routeStop struct {
	route, stop int
}

// parseNetwork decodes and checks a timetable. Every problem is an error,
// so an invalid embedded file fails a test rather than a query.
func parseNetwork(data []byte) (*network, error) {
	tt, err := decodeTimetable(data)
	if err != nil {
		return nil, err
	}
	n := &network{}
	byID, err := n.addStations(tt.Stations)
	if err != nil {
		return nil, err
	}
	numbers := make(map[int]string)
	for i := range tt.Lines {
		if err := n.addLine(&tt.Lines[i], byID, numbers); err != nil {
			return nil, err
		}
	}
	if len(n.routes) == 0 {
		return nil, fmt.Errorf("timetable has no lines")
	}
	return n, nil
}

// addStations checks the stations, sorts them by name and returns the
// station number of each id.
func (n *network) addStations(in []fileStation) (map[string]int, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("timetable has no stations")
	}
	sorted := slices.Clone(in)
	slices.SortFunc(sorted, func(a, b fileStation) int {
		return cmp.Or(cmp.Compare(normalize(a.Name), normalize(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	byID := make(map[string]int, len(sorted))
	owner := make(map[string]string) // key -> station id
	for i, fs := range sorted {
		if err := checkStation(&fs); err != nil {
			return nil, err
		}
		if _, dup := byID[fs.ID]; dup {
			return nil, fmt.Errorf("station id %q used twice", fs.ID)
		}
		byID[fs.ID] = i
		var keys []string
		for _, name := range append([]string{fs.Name, fs.ID}, fs.Aliases...) {
			k := normalize(name)
			if k == "" {
				return nil, fmt.Errorf("station %q: name or alias %q has no letters or digits", fs.ID, name)
			}
			if o, taken := owner[k]; taken && o != fs.ID {
				return nil, fmt.Errorf("station %q: name or alias %q is also a name of %q", fs.ID, name, o)
			}
			owner[k] = fs.ID
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		n.keys = append(n.keys, keys)
		n.stations = append(n.stations, Station{
			Name:      fs.Name,
			ID:        fs.ID,
			Latitude:  fs.Lat,
			Longitude: fs.Lon,
			Platforms: slices.Clone(fs.Platforms),
			Lines:     []string{},
		})
	}
	n.serving = make([][]routeStop, len(n.stations))
	return byID, nil
}

// checkStation checks the fields of one station.
func checkStation(fs *fileStation) error {
	if !isSlug(fs.ID) {
		return fmt.Errorf("station id %q is not a lower-case slug", fs.ID)
	}
	if err := checkName(fs.Name); err != nil {
		return fmt.Errorf("station %q: %w", fs.ID, err)
	}
	for _, a := range fs.Aliases {
		if err := checkName(a); err != nil {
			return fmt.Errorf("station %q: alias: %w", fs.ID, err)
		}
	}
	if fs.Lat < -90 || fs.Lat > 90 || fs.Lon < -180 || fs.Lon > 180 {
		return fmt.Errorf("station %q: coordinates %v, %v out of range", fs.ID, fs.Lat, fs.Lon)
	}
	if len(fs.Platforms) == 0 {
		return fmt.Errorf("station %q has no platforms", fs.ID)
	}
	for i, p := range fs.Platforms {
		if p == "" || slices.Contains(fs.Platforms[:i], p) {
			return fmt.Errorf("station %q: platform %q is empty or listed twice", fs.ID, p)
		}
	}
	return nil
}

// isSlug reports whether s is lower-case letters and digits in words
// joined by single hyphens.
func isSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

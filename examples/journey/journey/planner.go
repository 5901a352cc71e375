package journey

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// Limits and defaults of [Planner.Find].
const (
	// MinChange is the shortest change between two trains at a station,
	// whatever the platforms.
	MinChange = 4 * time.Minute
	// MaxChanges is the most changes in a connection.
	MaxChanges = 2
	// DefaultLimit is the number of connections Find returns when
	// FindInput.Limit is zero.
	DefaultLimit = 5
	// MaxLimit is the largest FindInput.Limit.
	MaxLimit = 10
)

// Planner answers station and connection queries on the embedded
// timetable. It is immutable and safe for concurrent use.
type Planner struct {
	net *network
}

// loadPlanner parses the embedded timetable the first time it is called.
var loadPlanner = sync.OnceValues(func() (*Planner, error) {
	net, err := parseNetwork(timetableJSON)
	if err != nil {
		return nil, fmt.Errorf("journey: embedded timetable: %w", err)
	}
	return &Planner{net: net}, nil
})

// NewPlanner returns the planner of the embedded timetable. The timetable
// is parsed and checked once; later calls return the same Planner. An
// error means the embedded timetable is invalid, which the package tests
// rule out.
func NewPlanner() (*Planner, error) {
	return loadPlanner()
}

// Stations returns every station, sorted by name ignoring case and
// accents. The caller may modify the result.
func (p *Planner) Stations() []Station {
	out := make([]Station, len(p.net.stations))
	for i := range p.net.stations {
		out[i] = p.net.station(i)
	}
	return out
}

// Station returns the station a name means. The name may be the station's
// name, an alias ("Geneva", "Lucerne"), its id, or a prefix of three
// letters or more that only one station has; case, accents, spaces and
// punctuation do not matter. An unknown or ambiguous name gives an
// [*UnknownStationError] with suggestions; an unusable one (empty, longer
// than [MaxNameLen], control characters) an error wrapping [ErrInvalidInput].
// Messages call the argument "name", as [StationInput] does.
func (p *Planner) Station(name string) (Station, error) {
	st, err := p.net.resolve("name", name)
	if err != nil {
		return Station{}, err
	}
	return p.net.station(st), nil
}

// station returns a copy of station st that shares no memory with the
// network.
func (n *network) station(st int) Station {
	s := n.stations[st]
	s.Platforms = slices.Clone(s.Platforms)
	s.Lines = slices.Clone(s.Lines)
	return s
}

package journey

// FindInput is the input of [Planner.Find].
type FindInput struct {
	// From is the departure station: a name, an alias, an id or an
	// unambiguous prefix, compared ignoring case, accents and punctuation.
	From string `json:"from" jsonschema:"departure station name"`
	// To is the arrival station, matched like From.
	To string `json:"to" jsonschema:"arrival station name"`
	// Departure is the earliest departure time in RFC 3339.
	Departure string `json:"departure" jsonschema:"earliest departure time, RFC 3339"`
	// Limit is the maximum number of connections, 1 to MaxLimit; zero means
	// DefaultLimit.
	Limit int `json:"limit,omitempty" jsonschema:"maximum number of connections, 1-10, default 5"`
}

// Connections is the result of [Planner.Find].
type Connections struct {
	// From is the canonical name of the departure station.
	From string `json:"from" jsonschema:"departure station"`
	// To is the canonical name of the arrival station.
	To string `json:"to" jsonschema:"arrival station"`
	// Connections are sorted by departure; Find never returns them nil.
	Connections []Connection `json:"connections" jsonschema:"connections sorted by departure"`
}

// Connection is one way from the departure to the arrival station.
type Connection struct {
	// Departure is the departure of the first leg, RFC 3339.
	Departure string `json:"departure" jsonschema:"departure from the first station, RFC 3339"`
	// Arrival is the arrival of the last leg, RFC 3339.
	Arrival string `json:"arrival" jsonschema:"arrival at the last station, RFC 3339"`
	// Duration is Arrival minus Departure as an ISO 8601 duration.
	Duration string `json:"duration" jsonschema:"travel time as an ISO 8601 duration, such as PT1H2M"`
	// Changes is the number of changes, len(Legs)-1.
	Changes int `json:"changes" jsonschema:"number of changes between trains"`
	// Legs are the train rides in travel order.
	Legs []Leg `json:"legs" jsonschema:"train rides in travel order"`
}

// Leg is a ride on one train.
type Leg struct {
	// Train is the line and the train number, such as "IC 1 709".
	Train string `json:"train" jsonschema:"line and train number, such as IC 1 709"`
	// From is the station where the leg starts.
	From string `json:"from" jsonschema:"station where the ride starts"`
	// To is the station where the leg ends.
	To string `json:"to" jsonschema:"station where the ride ends"`
	// Departure is the departure from From, RFC 3339.
	Departure string `json:"departure" jsonschema:"departure time, RFC 3339"`
	// Arrival is the arrival at To, RFC 3339.
	Arrival string `json:"arrival" jsonschema:"arrival time, RFC 3339"`
	// DeparturePlatform is the platform the train leaves from.
	DeparturePlatform string `json:"departure_platform" jsonschema:"platform at the departure station"`
	// ArrivalPlatform is the platform the train arrives at.
	ArrivalPlatform string `json:"arrival_platform" jsonschema:"platform at the arrival station"`
}

// StationInput is the input of a station look-up with [Planner.Station].
type StationInput struct {
	// Name is a station name, alias, id or unambiguous prefix.
	Name string `json:"name" jsonschema:"station name"`
}

// Station describes a station of the network.
type Station struct {
	// Name is the canonical name, such as "Zürich HB".
	Name string `json:"name" jsonschema:"station name"`
	// ID is a stable lower-case slug, such as "zurich-hb".
	ID string `json:"id" jsonschema:"stable station id"`
	// Latitude is the WGS 84 latitude in degrees.
	Latitude float64 `json:"latitude" jsonschema:"latitude in degrees (WGS 84)"`
	// Longitude is the WGS 84 longitude in degrees.
	Longitude float64 `json:"longitude" jsonschema:"longitude in degrees (WGS 84)"`
	// Platforms are the platforms of the station.
	Platforms []string `json:"platforms" jsonschema:"platforms of the station"`
	// Lines are the lines calling at the station, in timetable order.
	Lines []string `json:"lines" jsonschema:"lines calling at the station"`
}

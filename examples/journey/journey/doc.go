// Package journey is an offline journey planner for a small Swiss rail
// network. It is the data and logic behind the journey example server and
// knows nothing about MCP: the server wraps [Planner.Find] and
// [Planner.Station] as tools and renders their results.
//
// # Timetable
//
// The timetable is embedded (timetable.json) and small enough to read: 30
// stations and 15 lines. A line lists its stops with the minutes after the
// start of a run, the platforms in each direction, and a daily pattern per
// direction ("every 30 minutes from 04:35 to 21:35"). The runs of a day are
// derived from these patterns, the same every day of the year: about 700 runs
// with train numbers counting up from the line's first number, even numbers
// outbound and odd numbers inbound ("IC 1 709").
//
// All timetable times are local Swiss time with a fixed offset of +01:00.
// There is no daylight saving time: a departure given as
// 2026-07-01T08:00:00+02:00 is the instant 07:00+01:00 and the answer is in
// +01:00. Every time the package returns is RFC 3339 with the offset +01:00.
//
// # Search
//
// [Planner.Find] runs a round-based earliest-arrival search (RAPTOR) with at
// most three trains, that is up to two changes. A change needs at least
// [MinChange] at the same station, whatever the platforms. Find repeats the
// search from just after each connection it found, so each connection
// arrives as early as possible for its departure. It keeps one connection
// per arrival time, the one with the fewest changes and then the latest
// departure, so departures and arrivals both increase down the list and no
// connection is dominated by another. Connections depart within 24 hours
// of the requested time, so a late query rolls over to the first trains of
// the next day.
//
// # Errors
//
// Errors wrap [ErrInvalidInput]; unknown and ambiguous station names are an
// [*UnknownStationError], which also matches [ErrUnknownStation] and carries
// the closest station names. Messages name the argument and say what to send
// instead, so a model can correct its call.
//
// A [Planner] is immutable and safe for concurrent use.
package journey

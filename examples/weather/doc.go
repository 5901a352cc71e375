// Package weather is the offline data and logic behind the content-negotiation
// demo's weather server: a fixed catalogue of cities, a resolver that turns
// what a person or a model typed into one of them, and a generator of current
// conditions and daily forecasts. It knows nothing about MCP; the demo server
// wires a [Service] into its tools.
//
// # Cities
//
// The catalogue is embedded from cities.json and listed by [Service.Cities].
// Each [City] has a display name ("Bern, Switzerland", "Springfield, IL"), a
// slug ("bern", "springfield-il"), a position, a fixed UTC offset and a small
// [Climate] description. The offset is the city's standard time all year:
// daylight saving time is deliberately ignored, so local times are simple and
// never ambiguous.
//
// [Service.Resolve] accepts, in this order of preference: the display name,
// the slug, or the city part of the display name (before the comma), all
// case-insensitively; see its documentation for the details. A name matching several cities is an
// [*AmbiguousCityError]; a name matching none is an [*UnknownCityError] with up
// to three suggestions. Both match [ErrAmbiguousCity] and [ErrUnknownCity]
// with [errors.Is].
//
// # Weather
//
// The weather is invented, not observed, but it is plausible and it is
// deterministic: it is a pure function of the city and the time. The climate
// normals give each day's expected temperature and chance of precipitation;
// a hash of the city's slug and the local date (FNV-1a with a SplitMix64
// finalizer) moves the day away from the normals, and a hash that adds the
// local hour varies each hour. Temperatures follow a daily cycle with the low at 06:00 and the
// high at 15:00 local time, humidity follows from a daily dew point, the
// apparent temperature is the wind chill or the heat index where those apply,
// and the UV index follows the sun's elevation, so it is 0 at night.
//
// The same city and local hour always give the same output, whatever the
// minute or the process. The [Service] takes its clock as a function so that
// tests and examples can fix it. Across processor architectures a value can,
// rarely, round differently in its last decimal, because Go may fuse
// floating-point multiply-adds on some of them.
package weather

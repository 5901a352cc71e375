package weather

import "strings"

// City is one place in the catalogue. Values are copies: changing one does
// not change the catalogue.
type City struct {
	// Name is the display name, unique in the catalogue: the city, a comma
	// and the country or, for the United States, usually the state
	// ("Bern, Switzerland", "Springfield, IL").
	Name string `json:"name" jsonschema:"display name, unique in the catalogue"`
	// Slug is the unique, URL-safe, lower-case identifier ("springfield-il").
	Slug string `json:"slug" jsonschema:"unique lower-case identifier made of letters, digits and hyphens"`
	// Country is the English short name of the country ("United States").
	Country string `json:"country" jsonschema:"English short name of the country"`
	// CountryCode is the ISO 3166-1 alpha-2 code of the country ("US").
	CountryCode string `json:"country_code" jsonschema:"ISO 3166-1 alpha-2 country code"`
	// Region is the state or province where that helps tell places apart
	// ("Illinois"); it is empty otherwise.
	Region string `json:"region,omitempty" jsonschema:"state or province, when given"`
	// Latitude is in decimal degrees, north positive.
	Latitude float64 `json:"latitude" jsonschema:"latitude in decimal degrees, north positive"`
	// Longitude is in decimal degrees, east positive.
	Longitude float64 `json:"longitude" jsonschema:"longitude in decimal degrees, east positive"`
	// UTCOffsetMinutes is the city's standard-time offset from UTC in
	// minutes (330 for UTC+05:30). It is fixed all year: daylight saving
	// time is ignored.
	UTCOffsetMinutes int `json:"utc_offset_minutes" jsonschema:"fixed offset from UTC in minutes, without daylight saving time"`
	// Climate is what the weather generator varies around.
	Climate Climate `json:"climate" jsonschema:"climate normals the generated weather varies around"`
}

// Climate is the small description of a city's climate that the weather is
// generated from. Monthly arrays run from January to December; the seasons
// of the southern hemisphere are in the numbers themselves.
type Climate struct {
	// MeanTempC is the mean daily temperature of each month, in °C.
	MeanTempC [12]float64 `json:"mean_temp_c" jsonschema:"mean daily air temperature of each month from January, in degrees Celsius"`
	// TempStdDevC is the standard deviation of a day's mean temperature
	// around the monthly normal, in °C: small by the sea and in the
	// tropics, large inland at high latitudes.
	TempStdDevC float64 `json:"temp_stddev_c" jsonschema:"standard deviation of a day's mean temperature around the monthly normal in degrees Celsius"`
	// PrecipProbability is the chance of a day with precipitation in each
	// month, from 0 to 1.
	PrecipProbability [12]float64 `json:"precip_probability" jsonschema:"chance of a day with precipitation in each month from January, as a fraction from 0 to 1"`
	// DiurnalRangeC is the typical difference between a clear day's high
	// and low, in °C.
	DiurnalRangeC float64 `json:"diurnal_range_c" jsonschema:"typical difference between the daily high and low in degrees Celsius"`
	// HumidityPercent is the typical relative humidity, in percent.
	HumidityPercent float64 `json:"humidity_percent" jsonschema:"typical relative humidity in percent"`
	// WindKmh is the typical wind speed, in km/h.
	WindKmh float64 `json:"wind_kmh" jsonschema:"typical wind speed in kilometres per hour"`
	// WindFromDeg is the prevailing wind direction, the bearing the wind
	// blows from in degrees clockwise from north.
	WindFromDeg float64 `json:"wind_from_deg" jsonschema:"prevailing wind direction in degrees clockwise from north, where the wind blows from"`
}

// place returns the city part of a display name: what precedes the first
// comma, without surrounding space.
func place(name string) string {
	p, _, _ := strings.Cut(name, ",")
	return strings.TrimSpace(p)
}

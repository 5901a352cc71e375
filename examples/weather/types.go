package weather

// Conditions is the weather at one city at one hour. The field order is the
// order in which the fields are shown.
type Conditions struct {
	// Location is the display name of the city ("Bern, Switzerland").
	Location string `json:"location" jsonschema:"display name of the city the conditions are for"`
	// Conditions summarises the sky and any precipitation: one of Clear,
	// Partly cloudy, Mostly cloudy, Overcast, Fog, Light rain, Rain,
	// Thunderstorms, Sleet, Light snow or Snow.
	Conditions string `json:"conditions" jsonschema:"sky and precipitation summary: Clear, Partly cloudy, Mostly cloudy, Overcast, Fog, Light rain, Rain, Thunderstorms, Sleet, Light snow or Snow"`
	// TemperatureC is the air temperature in °C, to one decimal.
	TemperatureC float64 `json:"temperature_c" jsonschema:"air temperature in degrees Celsius"`
	// FeelsLikeC is the apparent temperature in °C, to one decimal: the
	// wind chill at or below 10 °C with wind above 4.8 km/h, the heat index
	// at or above 27 °C, the air temperature otherwise.
	FeelsLikeC float64 `json:"feels_like_c" jsonschema:"apparent temperature in degrees Celsius: wind chill at or below 10 °C, heat index at or above 27 °C"`
	// HumidityPercent is the relative humidity, from 0 to 100.
	HumidityPercent int `json:"humidity_percent" jsonschema:"relative humidity in percent, from 0 to 100"`
	// PrecipitationProbability is the chance of precipitation in the hour,
	// from 0 to 1, to two decimals.
	PrecipitationProbability float64 `json:"precipitation_probability" jsonschema:"chance of precipitation as a fraction from 0 to 1"`
	// WindSpeedKmh is the mean wind speed in km/h, to one decimal.
	WindSpeedKmh float64 `json:"wind_speed_kmh" jsonschema:"mean wind speed in kilometres per hour"`
	// WindDirection is where the wind blows from, as one of the eight
	// compass points N, NE, E, SE, S, SW, W and NW.
	WindDirection string `json:"wind_direction" jsonschema:"compass point the wind blows from: N, NE, E, SE, S, SW, W or NW"`
	// UVIndex is the UV index, 0 at night.
	UVIndex int `json:"uv_index" jsonschema:"UV index from 0 (night) upwards; 11 and above is extreme"`
	// ObservedAt is the hour the conditions are for, in RFC 3339 with the
	// city's fixed UTC offset ("2026-11-20T14:00:00+01:00").
	ObservedAt string `json:"observed_at" jsonschema:"time of the observation on the hour, RFC 3339 in the city's fixed UTC offset"`
}

// Forecast is a daily forecast for one city, starting today in the city's
// local time.
type Forecast struct {
	// Location is the display name of the city.
	Location string `json:"location" jsonschema:"display name of the city the forecast is for"`
	// Days are consecutive local days, the first being today.
	Days []ForecastDay `json:"days" jsonschema:"consecutive days starting today in the city's local time"`
}

// ForecastDay is the forecast for one local day.
type ForecastDay struct {
	// Date is the local date, YYYY-MM-DD.
	Date string `json:"date" jsonschema:"local date in the city's fixed UTC offset, YYYY-MM-DD"`
	// HighC is the day's highest temperature in °C, to one decimal.
	HighC float64 `json:"high_c" jsonschema:"highest air temperature of the day in degrees Celsius"`
	// LowC is the day's lowest temperature in °C, to one decimal. It is
	// never above HighC.
	LowC float64 `json:"low_c" jsonschema:"lowest air temperature of the day in degrees Celsius"`
	// Conditions summarises the day, with the same words as
	// [Conditions.Conditions].
	Conditions string `json:"conditions" jsonschema:"sky and precipitation summary of the day, same words as in current conditions"`
	// PrecipitationProbability is the chance of precipitation during the
	// day, from 0 to 1, to two decimals.
	PrecipitationProbability float64 `json:"precipitation_probability" jsonschema:"chance of precipitation during the day as a fraction from 0 to 1"`
}

// WeatherInput is the input of a current-conditions tool.
type WeatherInput struct {
	// City names the city; see [Service.Resolve] for what is accepted.
	City string `json:"city" jsonschema:"city name such as Bern or Tokyo; add the state or country after a comma when several cities share the name, as in Springfield, IL"`
}

// ForecastInput is the input of a forecast tool.
type ForecastInput struct {
	// City names the city; see [Service.Resolve] for what is accepted.
	City string `json:"city" jsonschema:"city name such as Bern or Tokyo; add the state or country after a comma when several cities share the name, as in Springfield, IL"`
	// Days is the number of days to forecast, from [MinForecastDays] to
	// [MaxForecastDays].
	Days int `json:"days" jsonschema:"number of days to forecast, from 1 to 7; day 1 is today in the city's local time"`
}

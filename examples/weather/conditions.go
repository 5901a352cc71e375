package weather

// Words of [Conditions.Conditions] and [ForecastDay.Conditions].
const (
	condClear         = "Clear"
	condPartlyCloudy  = "Partly cloudy"
	condMostlyCloudy  = "Mostly cloudy"
	condOvercast      = "Overcast"
	condFog           = "Fog"
	condLightRain     = "Light rain"
	condRain          = "Rain"
	condThunderstorms = "Thunderstorms"
	condSleet         = "Sleet"
	condLightSnow     = "Light snow"
	condSnow          = "Snow"
)

// Thresholds of the words.
const (
	// wetHour is the chance of precipitation from which an hour is shown
	// with precipitation; wetDay is the same for a forecast day.
	wetHour, wetDay = 0.45, 0.5
	// heavy is the chance from which rain or snow is not "light".
	heavy = 0.7
	// snowBelowC is the temperature below which precipitation is snow.
	snowBelowC = 1.0
)

// hourConditions names the weather of local hour h at t °C with chance p of
// precipitation, cloud cover, relative humidity rh and wind in km/h.
func hourConditions(t, p, cloud float64, rh int, wind float64, h int) string {
	if p >= wetHour {
		switch {
		case t < snowBelowC:
			return snowOrLight(p)
		case t < snowBelowC+2:
			return condSleet
		case t >= 22 && p >= 0.65 && h >= 12 && h <= 21:
			return condThunderstorms
		default:
			return rainOrLight(p)
		}
	}
	if rh >= 97 && wind < 10 {
		return condFog
	}
	return sky(cloud)
}

// dayConditions names the weather of a day from its high and low in °C, its
// chance of precipitation and its cloud cover.
func dayConditions(high, low, p, cloud float64) string {
	switch {
	case p < wetDay:
		return sky(cloud)
	case high < snowBelowC:
		return snowOrLight(p)
	case low < snowBelowC && high < 5:
		return condSleet
	case high >= 25 && p >= 0.65:
		return condThunderstorms
	default:
		return rainOrLight(p)
	}
}

// snowOrLight is Snow or Light snow by the chance of precipitation.
func snowOrLight(p float64) string {
	if p >= heavy {
		return condSnow
	}
	return condLightSnow
}

// rainOrLight is Rain or Light rain by the chance of precipitation.
func rainOrLight(p float64) string {
	if p >= heavy {
		return condRain
	}
	return condLightRain
}

// sky names a cloud cover without precipitation.
func sky(cloud float64) string {
	switch {
	case cloud >= 0.8:
		return condOvercast
	case cloud >= 0.55:
		return condMostlyCloudy
	case cloud >= 0.3:
		return condPartlyCloudy
	default:
		return condClear
	}
}

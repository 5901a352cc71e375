package weather

import (
	"math"
	"time"
)

// Tuning of the generator.
const (
	// lowHour and highHour are the local hours of the daily low and high.
	lowHour, highHour = 6, 15
	// maxDewPointC caps the dew point at that of humid tropical air, which
	// keeps the heat index in the range its regression was fitted for.
	maxDewPointC = 26.0
)

// day is the generated weather of one city on one local date, unrounded.
type day struct {
	high, low float64 // °C
	precip    float64 // chance of precipitation during the day, 0..1
	cloud     float64 // mean cloud cover, 0..1
	dewPoint  float64 // °C
	wind      float64 // mean wind speed, km/h
	windFrom  float64 // degrees
}

// dayNumber counts days from 1970-01-01 to a civil date.
func dayNumber(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// monthly interpolates twelve monthly normals linearly between the middles
// of the months, for day number n.
func monthly(normals *[12]float64, n int64) float64 {
	t := time.Unix(n*86400, 0).UTC()
	y, m, d := t.Date()
	days := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
	pos := float64(m-1) + (float64(d)-0.5)/float64(days) - 0.5 // 0 is mid-January
	i := int(math.Floor(pos))
	frac := pos - float64(i)
	a, b := normals[(i+12)%12], normals[(i+13)%12]
	return a + (b-a)*frac
}

// day generates the weather of the entry's city on day number n.
func (e *entry) day(n int64) day {
	cl := &e.city.Climate
	slug := e.city.Slug
	normalP := monthly(&cl.PrecipProbability, n)
	p := precipChance(normalP, uniform(slug, n, wholeDay, chPrecip))
	cloud := clamp(0.15+0.9*p+(cl.HumidityPercent-65)/150+0.5*(uniform(slug, n, wholeDay, chCloud)-0.5), 0, 1)

	// The temperature anomaly is a weighted moving sum of daily noise, so
	// neighbouring days share most of it and the weather drifts rather
	// than jumps. Dividing by the root of the summed squared weights keeps
	// unit variance.
	var anomaly float64
	for k, w := range anomalyWeights {
		anomaly += w * normal(slug, n+int64(k-len(anomalyWeights)/2), wholeDay, chTemp)
	}
	anomaly /= anomalyNorm
	mean := monthly(&cl.MeanTempC, n) + cl.TempStdDevC*anomaly - 3*(p-normalP)
	span := cl.DiurnalRangeC * (1 - 0.45*cloud) * (0.85 + 0.3*uniform(slug, n, wholeDay, chRange))

	rh := clamp(cl.HumidityPercent-8+20*(p-normalP)+12*(uniform(slug, n, wholeDay, chHumidity)-0.5), 15, 97)
	return day{
		high:     mean + span/2,
		low:      mean - span/2,
		precip:   p,
		cloud:    cloud,
		dewPoint: min(dewPoint(mean, rh), maxDewPointC),
		wind:     cl.WindKmh * (0.55 + 0.9*uniform(slug, n, wholeDay, chWind)) * (1 + 0.4*p),
		windFrom: cl.WindFromDeg + 100*(uniform(slug, n, wholeDay, chWindDir)-0.5),
	}
}

// anomalyWeights weigh the noise of the five days centred on a day in its
// temperature anomaly; anomalyNorm is the root of their summed squares.
var (
	anomalyWeights = [5]float64{1, 2, 3, 2, 1}
	anomalyNorm    = math.Sqrt(1 + 4 + 9 + 4 + 1)
)

// precipChance turns normalP, the chance of a day with precipitation in the
// season, and a uniform number u into one day's chance of precipitation. A
// fraction normalP of days is wet, with a chance from 0.55 to 0.95; the
// other days are dry, with a chance below both 0.45 and 1.5·normalP, mostly
// near 0.
func precipChance(normalP, u float64) float64 {
	if u < normalP {
		return 0.95 - 0.4*u/normalP
	}
	dry := 1 - (u-normalP)/(1-normalP) // 1 just above normalP, 0 at u = 1
	return min(0.45, 1.5*normalP) * dry * dry
}

// temperature is the air temperature at local hour h of day number n: a
// half cosine rising from the day's low at [lowHour] to its high at
// [highHour], then falling to the next day's low.
func (e *entry) temperature(n int64, h int, today day) float64 {
	switch {
	case h < lowHour:
		yesterday := e.day(n - 1)
		return falling(yesterday.high, today.low, float64(h+24-highHour))
	case h < highHour:
		x := float64(h-lowHour) / (highHour - lowHour)
		return today.low + (today.high-today.low)*(1-math.Cos(math.Pi*x))/2
	default:
		return falling(today.high, e.day(n+1).low, float64(h-highHour))
	}
}

// falling is the temperature hours after the high, going down to low by the
// next [lowHour].
func falling(high, low, hours float64) float64 {
	x := hours / (24 - highHour + lowHour)
	return high - (high-low)*(1-math.Cos(math.Pi*x))/2
}

// conditionsAt generates the conditions at the entry's city for the local
// hour containing now.
func (e *entry) conditionsAt(now time.Time) Conditions {
	local := now.In(e.loc)
	y, m, d := local.Date()
	h := local.Hour()
	observed := time.Date(y, m, d, h, 0, 0, 0, e.loc)
	n := dayNumber(y, m, d)
	slug := e.city.Slug
	today := e.day(n)

	p := today.precip * (0.5 + 0.5*uniform(slug, n, h, chPrecip))
	cloud := clamp(today.cloud+0.3*(uniform(slug, n, h, chCloud)-0.5), 0, 1)
	if p >= wetHour {
		cloud = max(cloud, 0.85)
	}
	sun := max(0, math.Sin(math.Pi*float64(h-7)/12)) // afternoon breeze
	wind := round1(today.wind * (0.8 + 0.4*sun) * (0.85 + 0.3*uniform(slug, n, h, chWind)))
	windFrom := today.windFrom + 40*(uniform(slug, n, h, chWindDir)-0.5)

	raw := e.temperature(n, h, today)
	t := round1(raw)
	dew := today.dewPoint
	if p >= wetHour {
		// Precipitation brings the air close to saturation.
		dew = max(dew, min(raw-1.5, maxDewPointC))
	}
	rh := max(1, int(math.Round(relativeHumidity(raw, dew))))
	return Conditions{
		Location:                 e.city.Name,
		Conditions:               hourConditions(t, p, cloud, rh, wind, h),
		TemperatureC:             t,
		FeelsLikeC:               round1(feelsLike(t, wind, float64(rh))),
		HumidityPercent:          rh,
		PrecipitationProbability: round2(p),
		WindSpeedKmh:             wind,
		WindDirection:            compass(windFrom),
		UVIndex:                  uvIndex(e.city.Latitude, e.city.Longitude, observed, cloud),
		ObservedAt:               observed.Format(time.RFC3339),
	}
}

// forecastFrom generates days daily forecasts starting with the local day
// containing now.
func (e *entry) forecastFrom(now time.Time, days int) Forecast {
	y, m, d := now.In(e.loc).Date()
	first := dayNumber(y, m, d)
	f := Forecast{Location: e.city.Name, Days: make([]ForecastDay, days)}
	for i := range f.Days {
		n := first + int64(i)
		g := e.day(n)
		high, low := round1(g.high), round1(g.low)
		f.Days[i] = ForecastDay{
			Date:                     time.Unix(n*86400, 0).UTC().Format(time.DateOnly),
			HighC:                    high,
			LowC:                     low,
			Conditions:               dayConditions(high, low, g.precip, g.cloud),
			PrecipitationProbability: round2(g.precip),
		}
	}
	return f
}

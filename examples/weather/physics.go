package weather

import (
	"math"
	"time"
)

// windChill is the apparent temperature in °C of air at t °C with wind of v
// km/h, by the formula used in Canada and the United States since 2001. It
// applies at or below 10 °C with wind above 4.8 km/h; elsewhere it returns t.
func windChill(t, v float64) float64 {
	if t > 10 || v <= 4.8 {
		return t
	}
	p := math.Pow(v, 0.16)
	return min(t, 13.12+0.6215*t-11.37*p+0.3965*t*p)
}

// heatIndex is the apparent temperature in °C of air at t °C and rh percent
// relative humidity, by the algorithm of the US National Weather Service
// (Steadman's simple formula, else the Rothfusz regression with its two
// adjustments). It applies at or above 27 °C; below it returns t.
func heatIndex(t, rh float64) float64 {
	if t < 27 {
		return t
	}
	f := t*9/5 + 32
	hi := 0.5 * (f + 61 + (f-68)*1.2 + rh*0.094)
	if (hi+f)/2 >= 80 {
		hi = -42.379 + 2.04901523*f + 10.14333127*rh -
			0.22475541*f*rh - 0.00683783*f*f - 0.05481717*rh*rh +
			0.00122874*f*f*rh + 0.00085282*f*rh*rh - 0.00000199*f*f*rh*rh
		switch {
		case rh < 13 && f >= 80 && f <= 112:
			hi -= (13 - rh) / 4 * math.Sqrt((17-math.Abs(f-95))/17)
		case rh > 85 && f >= 80 && f <= 87:
			hi += (rh - 85) / 10 * (87 - f) / 5
		}
	}
	return (hi - 32) * 5 / 9
}

// feelsLike is the apparent temperature: the wind chill when it applies, the
// heat index when it applies, otherwise the air temperature.
func feelsLike(t, windKmh, rh float64) float64 {
	if t >= 27 {
		return heatIndex(t, rh)
	}
	return windChill(t, windKmh)
}

// Magnus formula coefficients (Alduchov and Eskridge, 1996).
const (
	magnusB = 17.625
	magnusC = 243.04 // °C
)

// dewPoint is the dew point in °C of air at t °C and rh percent relative
// humidity, by the Magnus formula.
func dewPoint(t, rh float64) float64 {
	g := math.Log(rh/100) + magnusB*t/(magnusC+t)
	return magnusC * g / (magnusB - g)
}

// relativeHumidity is the relative humidity in percent of air at t °C with
// dew point td °C, by the Magnus formula, at most 100.
func relativeHumidity(t, td float64) float64 {
	rh := 100 * math.Exp(magnusB*td/(magnusC+td)-magnusB*t/(magnusC+t))
	return min(rh, 100)
}

// uvIndex estimates the UV index at latitude lat and longitude lon (degrees)
// at instant at, under a fraction cloud of cloud cover. Clear-sky UV is
// 12.5·μ^2.42, μ being the cosine of the solar zenith angle (Madronich's
// approximation for a typical ozone column); clouds remove up to three
// quarters of it. The sun's position uses the declination's cosine
// approximation and mean solar time. It is 0 when the sun is down.
func uvIndex(lat, lon float64, at time.Time, cloud float64) int {
	at = at.UTC()
	const rad = math.Pi / 180
	decl := -23.44 * math.Cos(2*math.Pi/365*float64(at.YearDay()+10))
	solarHours := float64(at.Hour()) + float64(at.Minute())/60 + lon/15
	hourAngle := 15 * (solarHours - 12)
	mu := math.Sin(lat*rad)*math.Sin(decl*rad) + math.Cos(lat*rad)*math.Cos(decl*rad)*math.Cos(hourAngle*rad)
	if mu <= 0 {
		return 0
	}
	uv := 12.5 * math.Pow(mu, 2.42) * (1 - 0.75*math.Pow(cloud, 3.4))
	return int(math.Round(uv))
}

// compassPoints are the eight points of the compass, clockwise from north.
var compassPoints = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// compass names the compass point nearest to a bearing in degrees.
func compass(deg float64) string {
	deg = math.Mod(deg, 360)
	if deg < 0 {
		deg += 360
	}
	return compassPoints[int(math.Round(deg/45))%8]
}

// round1 rounds to one decimal, without returning negative zero.
func round1(x float64) float64 { return roundTo(x, 10) }

// round2 rounds to two decimals, without returning negative zero.
func round2(x float64) float64 { return roundTo(x, 100) }

// roundTo rounds x to the nearest multiple of 1/scale, halves away from
// zero. Negative zero becomes zero so that JSON shows 0, not -0.
func roundTo(x, scale float64) float64 {
	r := math.Round(x*scale) / scale
	if r == 0 {
		return 0
	}
	return r
}

// clamp limits x to [lo, hi].
func clamp(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

package weather

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed cities.json
var citiesJSON []byte

// record is one entry of cities.json as written. The monthly normals are
// slices here so that a wrong count is an error rather than zeros.
type record struct {
	Name             string   `json:"name"`
	Slug             string   `json:"slug"`
	Country          string   `json:"country"`
	CountryCode      string   `json:"country_code"`
	Region           string   `json:"region"`
	Aliases          []string `json:"aliases"`
	Latitude         float64  `json:"latitude"`
	Longitude        float64  `json:"longitude"`
	UTCOffsetMinutes int      `json:"utc_offset_minutes"`
	Climate          struct {
		MeanTempC         []float64 `json:"mean_temp_c"`
		TempStdDevC       float64   `json:"temp_stddev_c"`
		PrecipProbability []float64 `json:"precip_probability"`
		DiurnalRangeC     float64   `json:"diurnal_range_c"`
		HumidityPercent   float64   `json:"humidity_percent"`
		WindKmh           float64   `json:"wind_kmh"`
		WindFromDeg       float64   `json:"wind_from_deg"`
	} `json:"climate"`
}

// entry is a city with what the resolver and the generator precompute.
type entry struct {
	city City
	loc  *time.Location
	// places are the lower-case city part of the name and the aliases.
	places []string
	// qualifiers are the lower-case words that may follow the comma:
	// the rest of the display name, the country, its code and the region.
	qualifiers []string
}

// catalog is the parsed, validated and sorted city list. It is immutable.
type catalog struct {
	entries []entry // sorted by display name
	bySlug  map[string]int
}

// defaultCatalog parses the embedded cities once. The data is part of the
// program, so a problem with it is a bug and panics; a test checks it.
var defaultCatalog = sync.OnceValue(func() *catalog {
	c, err := parseCatalog(citiesJSON)
	if err != nil {
		panic("weather: embedded cities.json: " + err.Error())
	}
	return c
})

// parseCatalog decodes and validates a cities.json document.
func parseCatalog(data []byte) (*catalog, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var recs []record
	if err := dec.Decode(&recs); err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errors.New("no cities")
	}
	c := &catalog{bySlug: make(map[string]int, len(recs))}
	names := make(map[string]bool, len(recs))
	for i, r := range recs {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("city %d (%q): %w", i, r.Name, err)
		}
		key := strings.ToLower(r.Name)
		if names[key] {
			return nil, fmt.Errorf("city %d: duplicate name %q", i, r.Name)
		}
		names[key] = true
		c.entries = append(c.entries, r.entry())
	}
	slices.SortFunc(c.entries, func(a, b entry) int { return strings.Compare(a.city.Name, b.city.Name) })
	for i, e := range c.entries {
		if _, dup := c.bySlug[e.city.Slug]; dup {
			return nil, fmt.Errorf("duplicate slug %q", e.city.Slug)
		}
		c.bySlug[e.city.Slug] = i
	}
	return c, nil
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// validate checks one record against the ranges the generator relies on.
func (r *record) validate() error {
	cl := &r.Climate
	switch {
	case place(r.Name) == "" || !strings.Contains(r.Name, ", "):
		return errors.New(`name must look like "City, Country"`)
	case len(r.Name) > MaxCityNameBytes:
		return fmt.Errorf("name is longer than %d bytes", MaxCityNameBytes)
	case !slugPattern.MatchString(r.Slug):
		return fmt.Errorf("slug %q is not lower-case letters, digits and hyphens", r.Slug)
	case r.Country == "" || len(r.CountryCode) != 2 || strings.ToUpper(r.CountryCode) != r.CountryCode:
		return errors.New("country and a two-letter upper-case country code are required")
	case r.Latitude < -90 || r.Latitude > 90 || r.Longitude < -180 || r.Longitude > 180:
		return errors.New("latitude or longitude out of range")
	case r.UTCOffsetMinutes < -12*60 || r.UTCOffsetMinutes > 14*60 || r.UTCOffsetMinutes%15 != 0:
		return errors.New("utc_offset_minutes must be a multiple of 15 between -720 and 840")
	case len(cl.MeanTempC) != 12 || len(cl.PrecipProbability) != 12:
		return errors.New("climate needs 12 monthly temperatures and 12 monthly probabilities")
	case cl.TempStdDevC < 0 || cl.TempStdDevC > 10:
		return errors.New("temp_stddev_c must be in [0, 10]")
	case cl.DiurnalRangeC <= 0 || cl.DiurnalRangeC > 25:
		return errors.New("diurnal_range_c must be in (0, 25]")
	case cl.HumidityPercent <= 0 || cl.HumidityPercent > 100:
		return errors.New("humidity_percent must be in (0, 100]")
	case cl.WindKmh < 0 || cl.WindKmh > 80:
		return errors.New("wind_kmh must be in [0, 80]")
	case cl.WindFromDeg < 0 || cl.WindFromDeg >= 360:
		return errors.New("wind_from_deg must be in [0, 360)")
	}
	for m := range 12 {
		if t := cl.MeanTempC[m]; t < -60 || t > 45 {
			return fmt.Errorf("mean_temp_c[%d] = %v is out of range", m, t)
		}
		if p := cl.PrecipProbability[m]; p < 0 || p > 1 {
			return fmt.Errorf("precip_probability[%d] = %v is not in [0, 1]", m, p)
		}
	}
	for _, a := range r.Aliases {
		if strings.TrimSpace(a) == "" || strings.Contains(a, ",") {
			return fmt.Errorf("alias %q must be a non-empty name without a comma", a)
		}
	}
	return nil
}

// entry builds the catalogue entry of a valid record.
func (r *record) entry() entry {
	city := City{
		Name:             r.Name,
		Slug:             r.Slug,
		Country:          r.Country,
		CountryCode:      r.CountryCode,
		Region:           r.Region,
		Latitude:         r.Latitude,
		Longitude:        r.Longitude,
		UTCOffsetMinutes: r.UTCOffsetMinutes,
		Climate: Climate{
			MeanTempC:         [12]float64(r.Climate.MeanTempC),
			TempStdDevC:       r.Climate.TempStdDevC,
			PrecipProbability: [12]float64(r.Climate.PrecipProbability),
			DiurnalRangeC:     r.Climate.DiurnalRangeC,
			HumidityPercent:   r.Climate.HumidityPercent,
			WindKmh:           r.Climate.WindKmh,
			WindFromDeg:       r.Climate.WindFromDeg,
		},
	}
	e := entry{
		city:   city,
		loc:    time.FixedZone(zoneName(r.UTCOffsetMinutes), r.UTCOffsetMinutes*60),
		places: []string{normalize(place(r.Name))},
	}
	for _, a := range r.Aliases {
		e.places = append(e.places, normalize(a))
	}
	_, rest, _ := strings.Cut(r.Name, ",")
	for _, q := range []string{rest, r.Country, r.CountryCode, r.Region} {
		if q = normalize(q); q != "" && !slices.Contains(e.qualifiers, q) {
			e.qualifiers = append(e.qualifiers, q)
		}
	}
	return e
}

// zoneName names a fixed offset the way RFC 3339 writes it: "UTC+05:30".
func zoneName(offsetMinutes int) string {
	sign := '+'
	if offsetMinutes < 0 {
		sign, offsetMinutes = '-', -offsetMinutes
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, offsetMinutes/60, offsetMinutes%60)
}

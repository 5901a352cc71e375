package weather

import "time"

// Forecast lengths accepted by [Service.Forecast], in days.
const (
	MinForecastDays = 1
	MaxForecastDays = 7
)

// Service answers weather questions about the embedded cities. It is safe
// for concurrent use. The zero value is ready to use with the system clock.
type Service struct {
	now func() time.Time
}

// NewService returns a service whose clock is now; nil means [time.Now].
func NewService(now func() time.Time) *Service {
	return &Service{now: now}
}

// clock returns the current time by the service's clock.
func (s *Service) clock() time.Time {
	if s.now == nil {
		return time.Now()
	}
	return s.now()
}

// Cities returns every city, sorted by display name (byte order). The slice
// is the caller's to keep or change.
func (s *Service) Cities() []City {
	c := defaultCatalog()
	out := make([]City, len(c.entries))
	for i := range c.entries {
		out[i] = c.entries[i].city
	}
	return out
}

// Resolve finds the city a name means. Surrounding space is ignored and
// letters compare case-insensitively. It tries, in order:
//
//   - the display name ("Springfield, IL", "bern, switzerland");
//   - the slug ("new-york");
//   - the city part of the display name, or one of a few alternative
//     spellings ("Sao Paulo", "NYC"), with runs of space counting as one
//     ("Bern", "new  york"). Text after a comma must then equal the rest of
//     the display name, the country, its code or the region, so
//     "Springfield, Illinois" and "Paris, FR" resolve too.
//
// If that finds several cities the error is an [*AmbiguousCityError] listing
// them all. If it finds none, or the name is empty or longer than
// [MaxCityNameBytes], the error is an [*UnknownCityError], with suggestions
// when some city part is within a small edit distance.
func (s *Service) Resolve(name string) (City, error) {
	c := defaultCatalog()
	i, err := c.resolve(name)
	if err != nil {
		return City{}, err
	}
	return c.entries[i].city, nil
}

// BySlug returns the city with exactly this slug, and whether there is one.
func (s *Service) BySlug(slug string) (City, bool) {
	c := defaultCatalog()
	i, ok := c.bySlug[slug]
	if !ok {
		return City{}, false
	}
	return c.entries[i].city, true
}

// Current returns the conditions at the city a name means (see
// [Service.Resolve]) for the local hour that contains the service's now.
func (s *Service) Current(name string) (Conditions, error) {
	c := defaultCatalog()
	i, err := c.resolve(name)
	if err != nil {
		return Conditions{}, err
	}
	return c.entries[i].conditionsAt(s.clock()), nil
}

// Forecast returns a daily forecast of days days for the city a name means
// (see [Service.Resolve]), starting with the local day that contains the
// service's now. days must be from [MinForecastDays] to [MaxForecastDays];
// otherwise the error is an [*InvalidDaysError], whatever the name.
func (s *Service) Forecast(name string, days int) (Forecast, error) {
	if days < MinForecastDays || days > MaxForecastDays {
		return Forecast{}, &InvalidDaysError{Days: days}
	}
	c := defaultCatalog()
	i, err := c.resolve(name)
	if err != nil {
		return Forecast{}, err
	}
	return c.entries[i].forecastFrom(s.clock(), days), nil
}

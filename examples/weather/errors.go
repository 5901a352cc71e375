package weather

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sentinel errors. The error types of this package match them with
// [errors.Is]; use [errors.As] for the details.
var (
	// ErrUnknownCity is matched by [*UnknownCityError].
	ErrUnknownCity = errors.New("unknown city")
	// ErrAmbiguousCity is matched by [*AmbiguousCityError].
	ErrAmbiguousCity = errors.New("ambiguous city")
	// ErrInvalidDays is matched by [*InvalidDaysError].
	ErrInvalidDays = errors.New("invalid number of forecast days")
)

// UnknownCityError says that a name matches no city.
type UnknownCityError struct {
	// Name is the name looked up, without surrounding space.
	Name string
	// Suggestions are up to three display names whose city part is close
	// to Name's, closest first and ties by name. They are empty when nothing
	// is close, or when Name is empty or longer than [MaxCityNameBytes].
	Suggestions []string
}

// Error says which name is unknown and what was probably meant.
func (e *UnknownCityError) Error() string {
	switch {
	case e.Name == "":
		return "unknown city: the city name is empty"
	case len(e.Name) > MaxCityNameBytes:
		return fmt.Sprintf("unknown city %q...: names are at most %d bytes", truncate(e.Name, 32), MaxCityNameBytes)
	case len(e.Suggestions) == 0:
		return fmt.Sprintf("unknown city %q; no city in the catalogue has a similar name", e.Name)
	}
	return fmt.Sprintf("unknown city %q; did you mean: %s?", e.Name, quoteList(e.Suggestions))
}

// Is reports whether target is [ErrUnknownCity].
func (e *UnknownCityError) Is(target error) bool { return target == ErrUnknownCity }

// AmbiguousCityError says that a name matches several cities.
type AmbiguousCityError struct {
	// Name is the name looked up, without surrounding space.
	Name string
	// Candidates are the display names of every matching city, sorted.
	Candidates []string
}

// Error lists the cities the name could mean.
func (e *AmbiguousCityError) Error() string {
	return fmt.Sprintf("%q is ambiguous; candidates: %s", e.Name, quoteList(e.Candidates))
}

// Is reports whether target is [ErrAmbiguousCity].
func (e *AmbiguousCityError) Is(target error) bool { return target == ErrAmbiguousCity }

// InvalidDaysError says that a forecast length is out of range.
type InvalidDaysError struct {
	// Days is the number of days asked for.
	Days int
}

// Error states the accepted range.
func (e *InvalidDaysError) Error() string {
	return fmt.Sprintf("days must be from %d to %d, got %d", MinForecastDays, MaxForecastDays, e.Days)
}

// Is reports whether target is [ErrInvalidDays].
func (e *InvalidDaysError) Is(target error) bool { return target == ErrInvalidDays }

// quoteList quotes each name, because display names contain commas, and
// joins them with commas.
func quoteList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

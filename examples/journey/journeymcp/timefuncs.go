package journeymcp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/template"
	"time"
)

// TimeFuncs returns the template functions the journey templates use,
// passed to the renderers with renderers.TemplateSpec.Funcs:
//
//	clock T           an RFC 3339 time's time of day, in its own offset: "08:02"
//	date T            an RFC 3339 time's day, in its own offset: "Fri 20 Nov 2026"
//	duration D        an ISO 8601 duration P[nD][T[nH][nM][nS]] for people: "56 min" for PT56M,
//	                  "1 h 02 min" for PT1H2M, "26 h 00 min" for P1DT2H, "0 min 30 s" for PT30S
//	between A B       the time from RFC 3339 time A to B, in whole seconds, written like duration:
//	                  "17 min"; "-5 min" when B is before A
//
// A function given a value it cannot read (a number for clock, "PT1.5H" or
// "P1M" for duration) returns an error, on which the rendering falls back to
// the generic renderer; none panics.
func TimeFuncs() template.FuncMap {
	return template.FuncMap{"clock": clock, "date": date, "duration": duration, "between": between}
}

// clock returns the time of day of an RFC 3339 time, in the time's own offset: "08:02".
func clock(v any) (string, error) {
	t, err := parseTime("clock", v)
	if err != nil {
		return "", err
	}
	return t.Format("15:04"), nil
}

// date returns the day of an RFC 3339 time, in the time's own offset: "Fri 20 Nov 2026".
func date(v any) (string, error) {
	t, err := parseTime("date", v)
	if err != nil {
		return "", err
	}
	return t.Format("Mon 2 Jan 2006"), nil
}

// between returns the time from the RFC 3339 time a to b, in whole seconds, written like
// duration: "17 min", "1 h 02 min"; "-5 min" when b is before a.
func between(a, b any) (string, error) {
	ta, err := parseTime("between", a)
	if err != nil {
		return "", err
	}
	tb, err := parseTime("between", b)
	if err != nil {
		return "", err
	}
	return formatSeconds(tb.Unix() - ta.Unix()), nil
}

// duration writes an ISO 8601 duration of days, hours, minutes and seconds for people:
// "PT56M" gives "56 min", "PT1H2M" "1 h 02 min", "P1DT2H" "26 h 00 min", "PT30S" "0 min 30 s".
// Years, months, weeks, fractions and signs are errors: their length is not fixed, or the
// form is rare enough that a template should not guess.
func duration(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("duration: %T is not an ISO 8601 duration", v)
	}
	secs, err := parseISODuration(s)
	if err != nil {
		return "", fmt.Errorf("duration: %q: %w", s, err)
	}
	return formatSeconds(secs), nil
}

// parseTime reads v as an RFC 3339 time for the function fn.
func parseTime(fn string, v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("%s: %T is not an RFC 3339 time", fn, v)
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %q is not an RFC 3339 time: %w", fn, s, err)
	}
	return t, nil
}

// maxDurationDigits bounds each number of an ISO 8601 duration, so that the total in seconds
// cannot overflow an int64 (10⁹ days is 8.64·10¹³ s).
const maxDurationDigits = 9

// parseISODuration returns the seconds of an ISO 8601 duration "P[nD][T[nH][nM][nS]]": at least
// one component, in that order, each a whole number.
func parseISODuration(s string) (int64, error) {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok {
		return 0, errors.New("does not start with P")
	}
	var total int64
	last := int64(math.MaxInt64) // the unit of the previous component: units must decrease
	inTime := false
	for rest != "" {
		if rest[0] == 'T' && !inTime {
			inTime = true
			rest = rest[1:]
			if rest == "" {
				return 0, errors.New("no component after T")
			}
			continue
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 0 || n == len(rest) {
			return 0, fmt.Errorf("expected a whole number and a designator at %q", rest)
		}
		if n > maxDurationDigits {
			return 0, fmt.Errorf("number %s has more than %d digits", rest[:n], maxDurationDigits)
		}
		num, _ := strconv.ParseInt(rest[:n], 10, 64) // at most 9 digits: cannot fail
		unit, err := durationUnit(rest[n], inTime)
		if err != nil {
			return 0, err
		}
		if unit >= last {
			return 0, fmt.Errorf("designator %q out of order or repeated", rest[n])
		}
		total += num * unit
		last = unit
		rest = rest[n+1:]
	}
	if last == math.MaxInt64 {
		return 0, errors.New("no component")
	}
	return total, nil
}

// durationUnit returns the seconds of an ISO 8601 designator, before T (date) or after it (time).
func durationUnit(designator byte, inTime bool) (int64, error) {
	switch {
	case !inTime && designator == 'D':
		return 24 * 3600, nil
	case inTime && designator == 'H':
		return 3600, nil
	case inTime && designator == 'M':
		return 60, nil
	case inTime && designator == 'S':
		return 1, nil
	}
	return 0, fmt.Errorf("unsupported designator %q (days before T; hours, minutes, seconds after it)", designator)
}

// formatSeconds writes seconds as "56 min", "1 h 02 min", "0 min 30 s", "-5 min".
func formatSeconds(secs int64) string {
	sign := ""
	if secs < 0 {
		sign, secs = "-", -secs
	}
	h, m, s := secs/3600, secs%3600/60, secs%60
	out := fmt.Sprintf("%d min", m)
	if h > 0 {
		out = fmt.Sprintf("%d h %02d min", h, m)
	}
	if s > 0 {
		out += fmt.Sprintf(" %02d s", s)
	}
	return sign + out
}

package journey

import (
	"strconv"
	"strings"
	"time"
)

// zone is the time zone of the timetable: Swiss standard time, a fixed
// +01:00 all year, without daylight saving time.
var zone = time.FixedZone("+01:00", 60*60)

// The years a departure may be in. The timetable repeats every day, but a
// far-off date is more likely a mistake than a plan.
const (
	minYear = 2000
	maxYear = 2099
)

// maxTimeLen bounds the departure argument; RFC 3339 with nanoseconds is 35.
const maxTimeLen = 64

// exampleTime shows the expected form in error messages.
const exampleTime = "2026-11-20T08:00:00+01:00"

// parseDeparture parses an RFC 3339 departure and returns midnight of its
// day in the timetable zone and the minutes after that midnight, rounded up
// to a whole minute since trains leave on the minute.
func parseDeparture(s string) (midnight time.Time, minute int, err error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return time.Time{}, 0, invalid("departure is empty; give an RFC 3339 time such as %s", exampleTime)
	case len(s) > maxTimeLen:
		return time.Time{}, 0, invalid("departure is %d bytes long; give an RFC 3339 time such as %s", len(s), exampleTime)
	}
	t, perr := time.Parse(time.RFC3339, s)
	if perr != nil {
		return time.Time{}, 0, invalid("departure %q is not an RFC 3339 time; give one such as %s", s, exampleTime)
	}
	t = t.In(zone)
	if y := t.Year(); y < minYear || y > maxYear {
		return time.Time{}, 0, invalid("departure %q is in %d; give a date in the years %d to %d", s, y, minYear, maxYear)
	}
	midnight = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, zone)
	since := t.Sub(midnight)
	minute = int(since / time.Minute)
	if since%time.Minute != 0 {
		minute++
	}
	if minute == minutesPerDay { // 23:59:30 rounds up to 00:00 of the next day
		midnight = midnight.AddDate(0, 0, 1)
		minute = 0
	}
	return midnight, minute, nil
}

// formatTime returns the RFC 3339 form of the time minute minutes after
// midnight; minute may be negative or beyond one day.
func formatTime(midnight time.Time, minute int) string {
	return midnight.Add(time.Duration(minute) * time.Minute).Format(time.RFC3339)
}

// formatDuration returns minutes as an ISO 8601 duration: "PT56M",
// "PT1H2M", "PT2H", "PT0M". Days are counted as hours ("PT26H").
func formatDuration(minutes int) string {
	h, m := minutes/60, minutes%60
	var b strings.Builder
	b.WriteString("PT")
	if h > 0 {
		b.WriteString(strconv.Itoa(h))
		b.WriteByte('H')
	}
	if m > 0 || h == 0 {
		b.WriteString(strconv.Itoa(m))
		b.WriteByte('M')
	}
	return b.String()
}

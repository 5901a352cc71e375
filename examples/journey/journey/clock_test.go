package journey

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDeparture(t *testing.T) {
	tests := []struct {
		name         string
		give         string
		wantMidnight string // RFC 3339
		wantMinute   int
	}{
		{"timetable offset", "2026-11-20T08:00:00+01:00", "2026-11-20T00:00:00+01:00", 480},
		{"UTC", "2026-11-20T07:00:00Z", "2026-11-20T00:00:00+01:00", 480},
		{"summer offset is not DST", "2026-07-01T08:00:00+02:00", "2026-07-01T00:00:00+01:00", 420},
		{"other day in the timetable zone", "2026-11-20T23:30:00Z", "2026-11-21T00:00:00+01:00", 30},
		{"seconds round up", "2026-11-20T08:00:01+01:00", "2026-11-20T00:00:00+01:00", 481},
		{"fraction rounds up", "2026-11-20T08:00:00.5+01:00", "2026-11-20T00:00:00+01:00", 481},
		{"rounds up past midnight", "2026-11-20T23:59:30+01:00", "2026-11-21T00:00:00+01:00", 0},
		{"midnight", "2026-11-20T00:00:00+01:00", "2026-11-20T00:00:00+01:00", 0},
		{"surrounding space", " 2026-11-20T08:00:00+01:00\n", "2026-11-20T00:00:00+01:00", 480},
		{"first year", "2000-01-01T00:00:00+01:00", "2000-01-01T00:00:00+01:00", 0},
		{"last year", "2099-12-31T23:59:00+01:00", "2099-12-31T00:00:00+01:00", 1439},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			midnight, minute, err := parseDeparture(tt.give)
			if err != nil {
				t.Fatalf("parseDeparture(%q): %v", tt.give, err)
			}
			if got := midnight.Format(time.RFC3339); got != tt.wantMidnight || minute != tt.wantMinute {
				t.Errorf("parseDeparture(%q) = %s, %d; want %s, %d", tt.give, got, minute, tt.wantMidnight, tt.wantMinute)
			}
		})
	}
}

func TestParseDepartureErrors(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string // part of the message
	}{
		{"empty", "", "departure is empty"},
		{"blank", "  ", "departure is empty"},
		{"no offset", "2026-11-20T08:00:00", "not an RFC 3339 time"},
		{"space separator", "2026-11-20 08:00:00+01:00", "not an RFC 3339 time"},
		{"date only", "2026-11-20", "not an RFC 3339 time"},
		{"clock only", "08:00", "not an RFC 3339 time"},
		{"impossible date", "2026-02-30T08:00:00+01:00", "not an RFC 3339 time"},
		{"words", "tomorrow morning", "not an RFC 3339 time"},
		{"control characters", "2026-11-20T08:00:00\x00+01:00", `\x00`},
		{"too early", "1999-12-31T22:00:00Z", "in 1999"},
		{"too late", "2100-01-01T08:00:00+01:00", "in 2100"},
		{"huge", strings.Repeat("2026", 1000), "4000 bytes long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseDeparture(tt.give)
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("parseDeparture(%q) = %v, want ErrInvalidInput", tt.give, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.want) || !strings.Contains(msg, exampleTime) && !strings.Contains(msg, "years") {
				t.Errorf("message %q, want it to contain %q and an example", msg, tt.want)
			}
			if len(err.Error()) > 200 {
				t.Errorf("message is %d bytes long", len(err.Error()))
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		give int
		want string
	}{
		{0, "PT0M"},
		{1, "PT1M"},
		{56, "PT56M"},
		{60, "PT1H"},
		{62, "PT1H2M"},
		{241, "PT4H1M"},
		{26 * 60, "PT26H"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := formatDuration(tt.give); got != tt.want {
				t.Errorf("formatDuration(%d) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

func TestFormatTime(t *testing.T) {
	midnight := time.Date(2026, 11, 20, 0, 0, 0, 0, zone)
	tests := []struct {
		give int
		want string
	}{
		{482, "2026-11-20T08:02:00+01:00"},
		{-5, "2026-11-19T23:55:00+01:00"},
		{minutesPerDay + 61, "2026-11-21T01:01:00+01:00"},
		{2 * minutesPerDay, "2026-11-22T00:00:00+01:00"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := formatTime(midnight, tt.give); got != tt.want {
				t.Errorf("formatTime(%d) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

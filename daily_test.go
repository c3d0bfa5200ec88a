package cribbage

import (
	"reflect"
	"testing"
	"time"
)

// TestDay: a day is the UTC date, whatever the zone or the hour, and
// knows its month.
func TestDay(t *testing.T) {
	tests := []struct {
		at                     time.Time
		want, month, nextMonth string
	}{
		{time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC), "2026-03-14", "2026-03-01", "2026-04-01"},
		{time.Date(2026, 3, 14, 23, 59, 59, 999, time.UTC), "2026-03-14", "2026-03-01", "2026-04-01"},
		{time.Date(2026, 3, 15, 1, 0, 0, 0, time.FixedZone("CET", 3600)), "2026-03-15", "2026-03-01", "2026-04-01"},
		{time.Date(2026, 3, 14, 23, 30, 0, 0, time.FixedZone("EST", -5*3600)), "2026-03-15", "2026-03-01", "2026-04-01"},
		{time.Date(2026, 12, 31, 12, 0, 0, 0, time.UTC), "2026-12-31", "2026-12-01", "2027-01-01"},
		{time.Date(2028, 2, 29, 12, 0, 0, 0, time.UTC), "2028-02-29", "2028-02-01", "2028-03-01"},
		{time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC), "1969-12-31", "1969-12-01", "1970-01-01"},
	}
	for _, tt := range tests {
		d := DayOf(tt.at)
		if d.String() != tt.want || d.MonthStart().String() != tt.month || d.NextMonth().String() != tt.nextMonth {
			t.Errorf("%v: day %s, month %s to %s; want %s, %s to %s", tt.at, d, d.MonthStart(), d.NextMonth(), tt.want, tt.month, tt.nextMonth)
		}
		if DayOf(d.Start()) != d || DayOf(d.Start().Add(-time.Nanosecond)) != d-1 {
			t.Errorf("%s does not start at %v", d, d.Start())
		}
	}
}

// TestStreak: days in a row up to today, or up to yesterday while
// today's hand is open.
func TestStreak(t *testing.T) {
	const today Day = 100
	tests := []struct {
		name string
		days []Day
		want int
	}{
		{"none", nil, 0},
		{"today only", []Day{100}, 1},
		{"yesterday only: today is still open", []Day{99}, 1},
		{"three days to today", []Day{98, 99, 100}, 3},
		{"three days to yesterday", []Day{97, 98, 99}, 3},
		{"a gap breaks it", []Day{95, 96, 98, 99, 100}, 3},
		{"the day before yesterday is over", []Day{97, 98}, 0},
		{"in any order, with repeats", []Day{100, 98, 99, 99}, 3},
	}
	for _, tt := range tests {
		if got := Streak(tt.days, today); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestTotals: a player's month is their days and points given up, under
// their latest name; fewest points first, then more days, then by id.
func TestTotals(t *testing.T) {
	answers := []DailyAnswer{
		{Day: 1, UserID: "b", Name: "Bob", GaveUp: 0.5},
		{Day: 1, UserID: "a", Name: "Al", GaveUp: 1},
		{Day: 2, UserID: "a", Name: "Alice", GaveUp: 0},
		{Day: 2, UserID: "c", Name: "Cy", GaveUp: 0.5},
		{Day: 3, UserID: "d", Name: "Di", GaveUp: 2},
		{Day: 3, UserID: "e", Name: "Ed", GaveUp: 0.5},
	}
	want := []DailyTotal{
		{UserID: "b", Name: "Bob", Days: 1, GaveUp: 0.5},
		{UserID: "c", Name: "Cy", Days: 1, GaveUp: 0.5},
		{UserID: "e", Name: "Ed", Days: 1, GaveUp: 0.5},
		{UserID: "a", Name: "Alice", Days: 2, GaveUp: 1},
		{UserID: "d", Name: "Di", Days: 1, GaveUp: 2},
	}
	if got := Totals(answers); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	more := []DailyTotal{{UserID: "x", Days: 1, GaveUp: 1}, {UserID: "y", Days: 3, GaveUp: 1}}
	SortTotals(more)
	if more[0].UserID != "y" {
		t.Errorf("at equal points the player of more days is not first: %+v", more)
	}
}

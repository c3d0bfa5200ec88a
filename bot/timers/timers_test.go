package timers

import (
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// TestReminderDue holds the pings of a wait to their schedule: the first
// after the nudge (or the reminder, if it comes sooner), once; then one a
// reminder period.
func TestReminderDue(t *testing.T) {
	since := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		ts       waits
		reminded time.Time
		idle     time.Duration
		want     bool
	}{
		{"before the nudge", waits{nudge: 5 * time.Minute, reminder: 24 * time.Hour}, time.Time{}, 4 * time.Minute, false},
		{"at the nudge", waits{nudge: 5 * time.Minute, reminder: 24 * time.Hour}, time.Time{}, 5 * time.Minute, true},
		{"a reminder sooner than the nudge", waits{nudge: time.Hour, reminder: 10 * time.Minute}, time.Time{}, 10 * time.Minute, true},
		{"no nudge: the reminder", waits{reminder: time.Hour}, time.Time{}, 59 * time.Minute, false},
		{"nothing set", waits{}, time.Time{}, 1000 * time.Hour, false},
		{"nudged this wait, before the next reminder", waits{nudge: 5 * time.Minute, reminder: time.Hour}, since.Add(5 * time.Minute), 64 * time.Minute, false},
		{"nudged this wait, a reminder later", waits{nudge: 5 * time.Minute, reminder: time.Hour}, since.Add(5 * time.Minute), 65 * time.Minute, true},
		{"nudged, no reminders", waits{nudge: 5 * time.Minute}, since.Add(5 * time.Minute), 100 * time.Hour, false},
		{"reminded of an earlier wait", waits{nudge: 5 * time.Minute, reminder: time.Hour}, since.Add(-time.Minute), 5 * time.Minute, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := &cribbage.Table{Status: cribbage.StatusPlaying, WaitingSince: since, RemindedAt: tc.reminded}
			if got := tc.ts.reminderDue(tb, since.Add(tc.idle)); got != tc.want {
				t.Errorf("reminderDue after %v = %v, want %v", tc.idle, got, tc.want)
			}
		})
	}
}

package main

import (
	"testing"
	"time"
)

// TestStoryFloor holds the benchmark's floor for the story to what the bot
// token allows: as many messages in any second as its limit, oldest
// first.
func TestStoryFloor(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	at := func(ms ...int) []time.Time {
		out := make([]time.Time, len(ms))
		for i, m := range ms {
			out[i] = t0.Add(time.Duration(m) * time.Millisecond)
		}
		return out
	}
	many := func(n, everyMS int) []time.Time {
		out := make([]time.Time, n)
		for i := range out {
			out[i] = t0.Add(time.Duration(i*everyMS) * time.Millisecond)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		queued    []time.Time
		perSecond int
		slowest   time.Duration
	}{
		{"fewer than a second's worth wait for nothing", at(0, 0, 0), 5, 0},
		{"a second's worth more waits a second", many(10, 0), 5, time.Second},
		{"out of order, counted by when each was queued", at(900, 0, 100, 0), 2, time.Second - 100*time.Millisecond},
		{"spread under the limit, no wait", many(100, 250), 5, 0},
		{"a burst of 900 at 50 a second", many(900, 0), 50, 17 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := storyFloor(tc.queued, tc.perSecond)
			if len(d) != len(tc.queued) {
				t.Fatalf("%d delays for %d messages", len(d), len(tc.queued))
			}
			if got := d[len(d)-1]; got != tc.slowest {
				t.Errorf("slowest waits %v, want %v (all: %v)", got, tc.slowest, d)
			}
		})
	}
}

package live

import (
	"context"
	"testing"
	"time"
)

// TestScheduledTouchesCoalesceAndFollowTheClock: a table has one scheduled
// touch, the soonest asked for; TouchDue makes those due on the clock
// before their timers run (a clock moved on, as a test's fake clock is);
// and a timer whose touch was replaced or made already does nothing.
func TestScheduledTouchesCoalesceAndFollowTheClock(t *testing.T) {
	start := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c := &clock{now: start}
	// A stopped bot's Context: the touches themselves send nothing.
	s := New(Options{Now: c.Now, After: c.After, Context: func() (context.Context, bool) { return nil, false }})
	s.touchLater(1, time.Hour)
	s.touchLater(1, 2*time.Hour)    // later than the one waiting: nothing new
	s.touchLater(1, 30*time.Minute) // sooner: it replaces the one waiting
	s.touchLater(2, time.Hour)
	if n := s.Pending(); n != 2 {
		t.Fatalf("%d touches scheduled for two tables, want 2", n)
	}
	scheduled := func(table int64) bool {
		s.l.mu.Lock()
		defer s.l.mu.Unlock()
		_, ok := s.l.laterAt[table]
		return ok
	}
	steps := []struct {
		at           time.Duration
		want1, want2 bool // each table's touch still scheduled
		pending      int
	}{
		{10 * time.Minute, true, true, 2},  // nothing due
		{45 * time.Minute, false, true, 1}, // table 1's due
		{2 * time.Hour, false, false, 0},   // both due
	}
	for _, st := range steps {
		c.mu.Lock()
		c.now = start.Add(st.at) // moved on, the timers not run
		c.mu.Unlock()
		s.TouchDue()
		if scheduled(1) != st.want1 || scheduled(2) != st.want2 || s.Pending() != st.pending {
			t.Errorf("at %s: scheduled %v %v, %d pending; want %v %v, %d", st.at, scheduled(1), scheduled(2), s.Pending(), st.want1, st.want2, st.pending)
		}
	}
	// The timers, run at last, find their touches made or replaced.
	c.Advance(0)
	if n := s.Pending(); n != 0 {
		t.Errorf("%d pending after the timers ran", n)
	}
}

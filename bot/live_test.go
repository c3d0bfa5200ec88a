package bot

import (
	"testing"
	"time"
)

// TestScheduledTouchesCoalesceAndFollowTheBotsClock: a table has one
// scheduled touch, the soonest asked for, and a timer pass makes those due
// on the bot's clock however little wall-clock time has passed.
func TestScheduledTouchesCoalesceAndFollowTheBotsClock(t *testing.T) {
	u := newUnit(t)
	b := u.b
	start := u.clock
	b.touchLater(1, time.Hour)
	b.touchLater(1, 2*time.Hour)    // later than the one waiting: nothing new
	b.touchLater(1, 30*time.Minute) // sooner: it replaces the one waiting
	b.touchLater(2, time.Hour)
	if n := b.live.pending(); n != 2 {
		t.Fatalf("%d touches scheduled for two tables, want 2", n)
	}
	if due := b.live.laterAt[1].due; !due.Equal(start.Add(30 * time.Minute)) {
		t.Errorf("table 1's touch is due at %s, want the soonest asked for", due.Sub(start))
	}
	steps := []struct {
		after      time.Duration
		want1      bool // table 1's touch still scheduled
		want2      bool
		wantLeft   int
		whyNotDone string
	}{
		{10 * time.Minute, true, true, 2, "nothing is due"},
		{45 * time.Minute, false, true, 1, "table 1's touch is due"},
		{2 * time.Hour, false, false, 0, "both are due"},
	}
	for _, s := range steps {
		u.clock = start.Add(s.after)
		b.touchDue()
		if b.live.scheduled(1) != s.want1 || b.live.scheduled(2) != s.want2 || b.live.pending() != s.wantLeft {
			t.Errorf("after %s (%s): scheduled %v %v, %d pending", s.after, s.whyNotDone, b.live.scheduled(1), b.live.scheduled(2), b.live.pending())
		}
	}
}

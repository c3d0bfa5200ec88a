package live

import (
	"slices"
	"sync"
	"time"
)

// clock is a manual clock whose After runs f only when Advance passes its
// time.
type clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []timer
}

// timer is a func After scheduled, and when it is due.
type timer struct {
	at time.Time
	f  func()
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) After(d time.Duration, f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers = append(c.timers, timer{at: c.now.Add(d), f: f})
}

// Advance moves the clock on by d and runs, in the order they are due, the
// funcs due by then. It returns how many ran.
func (c *clock) Advance(d time.Duration) int {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due, left []timer
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			left = append(left, tm)
		} else {
			due = append(due, tm)
		}
	}
	c.timers = left
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b timer) int { return a.at.Compare(b.at) })
	for _, tm := range due {
		tm.f()
	}
	return len(due)
}

// Waits are how long from now each scheduled func is due, soonest first.
func (c *clock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []time.Duration
	for _, tm := range c.timers {
		out = append(out, tm.at.Sub(c.now))
	}
	slices.Sort(out)
	return out
}

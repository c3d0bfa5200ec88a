package rest

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limits keeps Discord's rate limits as the sender has learned them, on
// the sender's clock: each bucket's requests left and when it resets, from
// the X-RateLimit-* headers of its last answer, and the bot token's global
// budget, which Discord announces only with a 429, counted here. A request
// that would wait is not made: the caller is told until when, and goes on
// with other tables. Nothing here sleeps.
type Limits struct {
	now func() time.Time
	// global is how many bot-token requests a second are made at most.
	global int

	mu      sync.Mutex
	buckets map[string]*bucket
	// sent are the times of the last second's bot-token requests.
	sent []time.Time
	// globalUntil is when a global 429 ends.
	globalUntil time.Time
	// nextSlot is the next free time to tell a request held back by the
	// global budget to come back at (see globalWait).
	nextSlot time.Time
	// turns are the times the buckets held back by the global budget were
	// told to come back at (see globalTurn).
	turns map[string]time.Time
}

// bucket is one bucket's state: requests left until reset, and whether a
// request on it is under way (one at a time, so none finds it used up).
type bucket struct {
	remaining int
	known     bool
	reset     time.Time
	busy      bool
}

// GlobalBudget is how many bot-token requests a second the sender makes at
// most: under Discord's 50, leaving room for the few the bot makes outside
// it (commands at start), and for requests counted here when they start
// but by Discord when they arrive: under load, a few started at the end of
// one second arrive with the next second's. At 45, a 900-table run met
// four 429s a minute this way.
const GlobalBudget = 40

// NewLimits returns limits on a clock (time.Now if nil).
func NewLimits(now func() time.Time) *Limits {
	if now == nil {
		now = time.Now
	}
	return &Limits{now: now, global: GlobalBudget, buckets: map[string]*bucket{}, turns: map[string]time.Time{}}
}

// take claims bucket key for one request now, and one of the second's
// bot-token requests if global is set. It returns the release to call with
// the answer's headers (nil if there was none), or, when the request would
// wait, when to try again.
func (l *Limits) take(key string, global bool) (release func(http.Header), until time.Time, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.forgetLocked(now)
		}
		b = &bucket{}
		l.buckets[key] = b
	}
	if b.busy {
		// Another request holds the bucket; it ends in moments.
		return nil, now.Add(BusyRetry), false
	}
	if b.known && !now.Before(b.reset) {
		b.known = false // the window has passed: its count starts afresh
	}
	if b.known && b.remaining <= 0 {
		return nil, b.reset, false
	}
	if global {
		if until, ok := l.globalTurn(key, now); !ok {
			return nil, until, false
		}
		l.sent = append(l.sent, now)
		delete(l.turns, key)
	}
	b.busy = true
	if b.known {
		b.remaining--
	}
	return func(h http.Header) { l.release(key, h) }, time.Time{}, true
}

// Ready reports whether a request on bucket key could be made now, or
// when to try again, without claiming anything: for a caller that does
// work (sealing a post) only for a request that will go.
func (l *Limits) Ready(key string, global bool) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if b := l.buckets[key]; b != nil {
		if b.busy {
			return now.Add(BusyRetry), false
		}
		if b.known && b.remaining <= 0 && now.Before(b.reset) {
			return b.reset, false
		}
	}
	if global {
		return l.globalTurn(key, now)
	}
	return time.Time{}, true
}

// globalTurn reports whether a bot-token request on bucket key may go now
// within the global budget, or when to come back; l.mu is held.
//
// The requests held back keep their order: one whose turn has come goes
// before any that has not waited, and a new one waits behind those
// already waiting even if the budget has room this moment. Otherwise a
// post that came in just as a place freed took it from one whose turn it
// was, and that one was sent to the back: when 900 tables ended their
// hands together, a tenth of the hand records waited 16 s or more while
// later ones went.
func (l *Limits) globalTurn(key string, now time.Time) (time.Time, bool) {
	if now.Before(l.globalUntil) {
		return l.globalUntil, false
	}
	cut := 0
	for cut < len(l.sent) && now.Sub(l.sent[cut]) >= time.Second {
		cut++
	}
	l.sent = l.sent[cut:]
	room := len(l.sent) < l.global
	free := now
	if !room {
		free = l.sent[0].Add(time.Second)
	}
	turn, waiting := l.turns[key]
	switch {
	case waiting && now.Before(turn):
		return turn, false
	case waiting && room:
		return time.Time{}, true
	case waiting:
		// Its turn, and no room after all (a request outside the queue
		// took the place): it goes first when one frees.
		l.turns[key] = free
		return free, false
	case room && !l.nextSlot.After(now):
		return time.Time{}, true
	}
	if len(l.turns) >= maxBuckets {
		l.forgetTurnsLocked(now)
	}
	at := l.globalWait(now, free)
	l.turns[key] = at
	return at, false
}

// forgetTurnsLocked drops the turns long past, of requests that did not
// come back (their tables went to another process, or were given up).
func (l *Limits) forgetTurnsLocked(now time.Time) {
	for k, t := range l.turns {
		if now.Sub(t) > time.Minute {
			delete(l.turns, k)
		}
	}
}

// globalWait is when a request held back by the global budget, which
// frees its first place at free, is to come back: each one held back is
// given a time of its own, the budget's spacing after the last one given.
// Told all to come back when the first place frees, hundreds of tables
// waiting on the budget (a tournament round's threads, hands ending
// together) came back together, one went, and the rest were held back
// again: some twenty tries a request, each reading its table.
func (l *Limits) globalWait(now, free time.Time) time.Time {
	if l.nextSlot.Before(now) {
		l.nextSlot = time.Time{}
	}
	at := free
	if l.nextSlot.After(at) {
		at = l.nextSlot
	}
	l.nextSlot = at.Add(time.Second / time.Duration(l.global))
	return at
}

// BusyRetry is how soon a request on a busy bucket is tried again.
const BusyRetry = 20 * time.Millisecond

// release ends a request on bucket key and learns from its answer's
// headers how many requests are left and when the bucket resets.
func (l *Limits) release(key string, h http.Header) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	b.busy = false
	if h == nil {
		return
	}
	remaining, err1 := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	after, err2 := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
	if err1 != nil || err2 != nil {
		return
	}
	b.known, b.remaining = true, remaining
	b.reset = l.now().Add(time.Duration(math.Ceil(after*1000)) * time.Millisecond)
}

// holdGlobal stops every bot-token request until a global 429 ends.
func (l *Limits) holdGlobal(until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if until.After(l.globalUntil) {
		l.globalUntil = until
	}
}

// maxBuckets is how many buckets are kept before those whose windows have
// passed are swept: a bucket a webhook token, and tokens come and go.
const maxBuckets = 4096

// forgetLocked drops the buckets whose windows have passed and that no
// request holds. l.mu is held.
func (l *Limits) forgetLocked(now time.Time) {
	for k, b := range l.buckets {
		if !b.busy && (!b.known || !now.Before(b.reset)) {
			delete(l.buckets, k)
		}
	}
}

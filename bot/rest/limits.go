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
	// sent are the times the last second's bot-token requests were
	// answered, in order, and inFlight how many are under way: a request
	// holds its place in the budget from its start until a second after
	// its answer (see GlobalBudget).
	sent     []time.Time
	inFlight int
	// globalUntil is when a global 429 ends.
	globalUntil time.Time
	// nextSlot is the next free time to tell a request held back by the
	// global budget to come back at (see globalWait).
	nextSlot time.Time
	// turns are the requests held back with a turn of their own
	// (Request.Turn), by turn; overdue is the next time for a request that
	// goes ahead of them (one without a turn, or one whose time came with
	// no place free); swept is when the turns given up on were last
	// dropped (see globalTurn).
	turns   map[string]turnTimes
	overdue time.Time
	swept   time.Time
}

// turnTimes are when a request held back with a turn was told to come
// back, and when it last asked.
type turnTimes struct{ at, seen time.Time }

// OutboxTurn is the turn (Request.Turn) of the request that delivers
// announcement id: its sender makes it again until it goes.
func OutboxTurn(id int64) string { return "outbox " + strconv.FormatInt(id, 10) }

// bucket is one bucket's state: requests left until reset, and whether a
// request on it is under way (one at a time, so none finds it used up).
type bucket struct {
	remaining int
	known     bool
	reset     time.Time
	busy      bool
}

// GlobalBudget is how many bot-token requests a second the bot makes at
// most: under Discord's 50, leaving room for the few discordgo makes
// outside these limits (the application and the commands at start, and
// GET /gateway when a shard reconnects).
//
// Discord counts a request when it arrives, which the bot cannot see. So
// a request holds its place here from when it starts until a second after
// its answer, which is later than its arrival: any requests Discord
// counts within one second were all counted here, under way or answered
// within the second, by the last of them to start, so they are never
// more than the budget. Counted from their starts instead, requests
// started at the end of one second arrived with the next second's, and at
// 45 a 900-table run met four 429s a minute.
//
// The price is that a place frees once a round trip and a second: the
// budget gives 48/(1+round trip) requests a second: 47 against the
// benchmark's fake on the same machine, 44 at a 0.1-s round trip, and 40
// (what the old count gave whatever the round trip) at 0.2 s. This is one
// process's count: replicas on one token each keep their own, as they
// did.
const GlobalBudget = 48

// NewLimits returns limits on a clock (time.Now if nil).
func NewLimits(now func() time.Time) *Limits {
	if now == nil {
		now = time.Now
	}
	return &Limits{now: now, global: GlobalBudget, buckets: map[string]*bucket{}, turns: map[string]turnTimes{}}
}

// take claims bucket key for one request now, and one of the second's
// bot-token requests if global is set (the request's place in the queue is
// turn, if it has one: see globalTurn). It returns the release to call
// with the answer's headers (nil if there was none), or, when the request
// would wait, when to try again.
func (l *Limits) take(key, turn string, global bool) (release func(http.Header), until time.Time, ok bool) {
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
		l.seenTurn(turn, now)
		return nil, now.Add(BusyRetry), false
	}
	if b.known && !now.Before(b.reset) {
		b.known = false // the window has passed: its count starts afresh
	}
	if b.known && b.remaining <= 0 {
		l.seenTurn(turn, now)
		return nil, b.reset, false
	}
	if global {
		if until, ok := l.globalTurn(turn, now); !ok {
			return nil, until, false
		}
		l.inFlight++
		delete(l.turns, turn)
	}
	b.busy = true
	if b.known {
		b.remaining--
	}
	return func(h http.Header) { l.release(key, global, h) }, time.Time{}, true
}

// Ready reports whether a request on bucket key could be made now, or
// when to try again: for a caller that does work (sealing a post) only for
// a request that will go. It claims no place; but a request with a turn
// (Request.Turn) held back by the global budget is given its place in the
// queue here, as it would be by the request.
func (l *Limits) Ready(key, turn string, global bool) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if b := l.buckets[key]; b != nil {
		if b.busy {
			l.seenTurn(turn, now)
			return now.Add(BusyRetry), false
		}
		if b.known && b.remaining <= 0 && now.Before(b.reset) {
			l.seenTurn(turn, now)
			return b.reset, false
		}
	}
	if global {
		return l.globalTurn(turn, now)
	}
	return time.Time{}, true
}

// globalTurn reports whether a bot-token request may go now within the
// global budget, or when to come back. l.mu is held.
//
// A request without a turn (a table message edited with the bot token,
// a tournament's standings) takes a place when one is free, and is told
// when the next frees otherwise, a spacing after the last one told so that
// they do not all come back at once: the story's backlog never holds it
// up.
//
// The requests with one (the announcements a sender makes again until
// they go) keep their order: one whose time has come goes before any that
// has not waited, and one that has not waited goes behind those waiting
// even if a place is free this moment. Without that, an announcement that
// came in just as a place freed took it from one whose time it was, and
// that one was sent to the back of the queue: when 900 tables ended their
// hands together, 651 of 850 hand records were posted more than 2 s after
// one queued later than they were, and their p99 was 16-17 s where
// sending them in order at the budget allows 9-11 s.
func (l *Limits) globalTurn(turn string, now time.Time) (time.Time, bool) {
	if now.Before(l.globalUntil) {
		return l.globalUntil, false
	}
	cut := 0
	for cut < len(l.sent) && now.Sub(l.sent[cut]) >= time.Second {
		cut++
	}
	l.sent = l.sent[cut:]
	room := len(l.sent)+l.inFlight < l.global
	free := now
	switch {
	case room:
	case len(l.sent) > 0:
		free = l.sent[0].Add(time.Second)
	default:
		// Every place is held by a request under way: the first frees a
		// second after its answer, which is not yet.
		free = now.Add(time.Second)
	}
	if turn == "" {
		if room {
			return time.Time{}, true
		}
		return l.ahead(free), false
	}
	l.sweepTurns(now)
	q, waiting := l.turns[turn]
	q.seen = now
	switch {
	case waiting && now.Before(q.at):
		l.turns[turn] = q
		return q.at, false
	case waiting && room:
		return time.Time{}, true
	case waiting:
		// Its time came with no place free: those before it came back
		// late, or requests without a turn took the places. It comes
		// back when the next place frees, or a spacing after another
		// such: before those whose times are still to come, though
		// nothing keeps their place from a request without a turn.
		q.at = l.ahead(free)
		if l.nextSlot.Before(l.overdue) {
			l.nextSlot = l.overdue
		}
	case room && !l.nextSlot.After(now):
		return time.Time{}, true
	default:
		q.at = l.globalWait(now, free)
	}
	l.turns[turn] = q
	return q.at, false
}

// ahead is when a request that goes ahead of the queue of turns is to come
// back, the next place freeing at free: then, or a spacing after the last
// one told. l.mu is held.
func (l *Limits) ahead(free time.Time) time.Time {
	at := free
	if l.overdue.After(at) {
		at = l.overdue
	}
	l.overdue = at.Add(time.Second / time.Duration(l.global))
	return at
}

// seenTurn notes that the request with a turn asked again at now (held by
// its own bucket this time, a channel's limit): it has not been given up.
// l.mu is held.
func (l *Limits) seenTurn(turn string, now time.Time) {
	if q, ok := l.turns[turn]; ok {
		q.seen = now
		l.turns[turn] = q
	}
}

// staleTurn is how long a turn is kept past its time when its request
// does not ask again: a sender asks at least every pass, and one that
// stops (its table went to another process, or its announcement was given
// up) must not leave a turn that lets a much later request go first.
const staleTurn = 5 * time.Second

// sweepTurns drops, at most once a second, the turns whose requests have
// not asked for staleTurn since their time. l.mu is held.
func (l *Limits) sweepTurns(now time.Time) {
	if now.Sub(l.swept) < time.Second && !now.Before(l.swept) {
		return
	}
	l.swept = now
	for k, q := range l.turns {
		last := q.at
		if q.seen.After(last) {
			last = q.seen
		}
		if now.Sub(last) > staleTurn {
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

// release ends a request on bucket key, and on the global budget if
// global is set, and learns from its answer's headers how many requests
// are left and when the bucket resets.
func (l *Limits) release(key string, global bool, h http.Header) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if global {
		l.inFlight--
		l.sent = append(l.sent, l.now())
	}
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

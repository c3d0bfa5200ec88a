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

	mu      sync.Mutex
	buckets map[string]*bucket
	// budgets are the global budgets, by Budget: the bot token's and the
	// address's.
	budgets [2]*budget
}

// Budget names the global budget a request counts against, as Discord
// counts them: "All bots can make up to 50 requests per second to our
// API. If no authorization header is provided, then the limit is applied
// to the IP address" (topics/rate-limits); interaction endpoints are
// bound to neither.
type Budget uint8

const (
	// BotToken counts the requests made with the bot token.
	BotToken Budget = iota
	// Address counts the requests made with no authorization: a channel
	// webhook executed with its own token (Request.Webhook). Discord
	// counts them against the bot's address, apart from the bot token's.
	Address
	// Unbudgeted is an interaction's token, which no global budget counts.
	Unbudgeted
)

// budget is one global budget's state. Limits.mu guards it.
type budget struct {
	// per is how many requests a second are made at most.
	per int
	// sent are the times the last second's requests were answered, in
	// order, and inFlight how many are under way: a request holds its
	// place in the budget from its start until a second after its answer
	// (see GlobalBudget).
	sent     []time.Time
	inFlight int
	// until is when a global 429 ends.
	until time.Time
	// nextSlot is the next free time to tell a request held back by the
	// budget to come back at (see wait).
	nextSlot time.Time
	// turns are the requests held back with a turn of their own
	// (Request.Turn), by turn; overdue is the next time for a request that
	// goes ahead of them (one without a turn, or one whose time came with
	// no place free); swept is when the turns given up on were last
	// dropped (see turn).
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
	l := &Limits{now: now, buckets: map[string]*bucket{}}
	for i := range l.budgets {
		l.budgets[i] = &budget{per: GlobalBudget, turns: map[string]turnTimes{}}
	}
	return l
}

// take claims bucket key for one request now, and one of the second's
// places in budget g unless it is Unbudgeted (the request's place in the
// queue is turn, if it has one: see budget.turn). It returns the release
// to call with the answer's headers (nil if there was none), or, when the
// request would wait, when to try again.
func (l *Limits) take(key, turn string, g Budget) (release func(http.Header), until time.Time, ok bool) {
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
	if until, held := l.heldBy(b, turn, now); held {
		return nil, until, false
	}
	if g != Unbudgeted {
		if until, ok := l.budgets[g].turn(turn, now); !ok {
			return nil, until, false
		}
		l.budgets[g].inFlight++
		l.dropTurn(turn)
	}
	b.busy = true
	if b.known {
		b.remaining--
	}
	return func(h http.Header) { l.release(key, g, h) }, time.Time{}, true
}

// heldBy reports whether bucket b holds a request back now, and until
// when, noting that the request with turn asked. l.mu is held.
func (l *Limits) heldBy(b *bucket, turn string, now time.Time) (time.Time, bool) {
	if b == nil {
		return time.Time{}, false
	}
	if b.busy {
		// Another request holds the bucket; it ends in moments.
		l.seenTurn(turn, now)
		return now.Add(BusyRetry), true
	}
	if b.known && !now.Before(b.reset) {
		b.known = false // the window has passed: its count starts afresh
	}
	if b.known && b.remaining <= 0 {
		l.seenTurn(turn, now)
		return b.reset, true
	}
	return time.Time{}, false
}

// Ready reports whether a request on bucket key could be made now, or
// when to try again: for a caller that does work (sealing a post) only for
// a request that will go. It claims no place; but a request with a turn
// (Request.Turn) held back by budget g is given its place in the queue
// here, as it would be by the request.
func (l *Limits) Ready(key, turn string, g Budget) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if until, held := l.heldBy(l.buckets[key], turn, now); held {
		return until, false
	}
	if g == Unbudgeted {
		return time.Time{}, true
	}
	return l.budgets[g].turn(turn, now)
}

// Way is one way a request may go: its bucket and global budget.
type Way struct {
	Bucket string
	Budget Budget
}

// ReadyAny is Ready for a request that may go any of ways (a story post,
// with the bot token or through the channel's webhook): which one it
// could go by now, the first that can; or, when none can, which to try
// again and when. The other ways spread the global budgets alone: a
// request the first way's own bucket holds back (its channel's limit)
// waits for it. A request that has not waited joins the queue whose
// next time is soonest, and keeps that queue once in it, unless another
// way can take it at once: a queue it leaves keeps the time it gave,
// which then goes to the next in it. Like Ready, it claims no place.
func (l *Limits) ReadyAny(turn string, ways ...Way) (int, time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	at := make([]time.Time, len(ways))
	held := make([]bool, len(ways))
	queued := -1
	for i, w := range ways {
		at[i], held[i] = l.heldBy(l.buckets[w.Bucket], turn, now)
		if held[0] {
			return 0, at[0], false
		}
		if held[i] || w.Budget == Unbudgeted {
			continue
		}
		g := l.budgets[w.Budget]
		if q, ok := g.turns[turn]; ok {
			queued, at[i] = i, q.at
		} else {
			at[i] = g.next(now)
		}
	}
	for i, w := range ways {
		if held[i] || at[i].After(now) {
			continue
		}
		if w.Budget == Unbudgeted {
			return i, time.Time{}, true
		}
		until, ok := l.budgets[w.Budget].turn(turn, now)
		if ok {
			return i, time.Time{}, true
		}
		at[i] = until
	}
	pick := queued
	if pick < 0 || held[pick] {
		for i := range ways {
			if pick < 0 || at[i].Before(at[pick]) {
				pick = i
			}
		}
	}
	if held[pick] || ways[pick].Budget == Unbudgeted {
		return pick, at[pick], false
	}
	until, ok := l.budgets[ways[pick].Budget].turn(turn, now)
	return pick, until, ok
}

// dropTurn forgets turn in every budget: its request went. l.mu is held.
func (l *Limits) dropTurn(turn string) {
	if turn == "" {
		return
	}
	for _, g := range l.budgets {
		delete(g.turns, turn)
	}
}

// seenTurn notes that the request with a turn asked again at now (held by
// its own bucket this time, a channel's limit): it has not been given up.
// l.mu is held.
func (l *Limits) seenTurn(turn string, now time.Time) {
	for _, g := range l.budgets {
		if q, ok := g.turns[turn]; ok {
			q.seen = now
			g.turns[turn] = q
		}
	}
}

// room reports whether a place in the budget is free now, after dropping
// the places freed, and when the next frees otherwise.
func (g *budget) room(now time.Time) (bool, time.Time) {
	cut := 0
	for cut < len(g.sent) && now.Sub(g.sent[cut]) >= time.Second {
		cut++
	}
	g.sent = g.sent[cut:]
	switch {
	case len(g.sent)+g.inFlight < g.per:
		return true, now
	case len(g.sent) > 0:
		return false, g.sent[0].Add(time.Second)
	default:
		// Every place is held by a request under way: the first frees a
		// second after its answer, which is not yet.
		return false, now.Add(time.Second)
	}
}

// next is when a request with a turn that has not waited could go: now,
// or the time the budget would give it. It changes nothing that turn
// would not.
func (g *budget) next(now time.Time) time.Time {
	if now.Before(g.until) {
		return g.until
	}
	room, free := g.room(now)
	slot := g.nextSlot
	if slot.Before(now) {
		slot = time.Time{}
	}
	if room && slot.IsZero() {
		return now
	}
	if slot.After(free) {
		return slot
	}
	return free
}

// turn reports whether a request may go now within the budget, or when
// to come back. Limits.mu is held.
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
func (g *budget) turn(turn string, now time.Time) (time.Time, bool) {
	if now.Before(g.until) {
		return g.until, false
	}
	room, free := g.room(now)
	if turn == "" {
		if room {
			return time.Time{}, true
		}
		return g.ahead(free), false
	}
	g.sweepTurns(now)
	q, waiting := g.turns[turn]
	q.seen = now
	switch {
	case waiting && now.Before(q.at):
		g.turns[turn] = q
		return q.at, false
	case waiting && room:
		return time.Time{}, true
	case waiting:
		// Its time came with no place free: those before it came back
		// late, or requests without a turn took the places. It comes
		// back when the next place frees, or a spacing after another
		// such: before those whose times are still to come, though
		// nothing keeps their place from a request without a turn.
		q.at = g.ahead(free)
		if g.nextSlot.Before(g.overdue) {
			g.nextSlot = g.overdue
		}
	case room && !g.nextSlot.After(now):
		return time.Time{}, true
	default:
		q.at = g.wait(now, free)
	}
	g.turns[turn] = q
	return q.at, false
}

// ahead is when a request that goes ahead of the queue of turns is to come
// back, the next place freeing at free: then, or a spacing after the last
// one told.
func (g *budget) ahead(free time.Time) time.Time {
	at := free
	if g.overdue.After(at) {
		at = g.overdue
	}
	g.overdue = at.Add(time.Second / time.Duration(g.per))
	return at
}

// staleTurn is how long a turn is kept past its time when its request
// does not ask again: a sender asks at least every pass, and one that
// stops (its table went to another process, or its announcement was given
// up, or went another way) must not leave a turn that lets a much later
// request go first.
const staleTurn = 5 * time.Second

// sweepTurns drops, at most once a second, the turns whose requests have
// not asked for staleTurn since their time.
func (g *budget) sweepTurns(now time.Time) {
	if now.Sub(g.swept) < time.Second && !now.Before(g.swept) {
		return
	}
	g.swept = now
	for k, q := range g.turns {
		last := q.at
		if q.seen.After(last) {
			last = q.seen
		}
		if now.Sub(last) > staleTurn {
			delete(g.turns, k)
		}
	}
}

// wait is when a request held back by the budget, which frees its first
// place at free, is to come back: each one held back is given a time of
// its own, the budget's spacing after the last one given. Told all to
// come back when the first place frees, hundreds of tables waiting on the
// budget (a tournament round's threads, hands ending together) came back
// together, one went, and the rest were held back again: some twenty
// tries a request, each reading its table.
func (g *budget) wait(now, free time.Time) time.Time {
	if g.nextSlot.Before(now) {
		g.nextSlot = time.Time{}
	}
	at := free
	if g.nextSlot.After(at) {
		at = g.nextSlot
	}
	g.nextSlot = at.Add(time.Second / time.Duration(g.per))
	return at
}

// BusyRetry is how soon a request on a busy bucket is tried again.
const BusyRetry = 20 * time.Millisecond

// release ends a request on bucket key, and on budget g unless it is
// Unbudgeted, and learns from its answer's headers how many requests are
// left and when the bucket resets.
func (l *Limits) release(key string, g Budget, h http.Header) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if g != Unbudgeted {
		l.budgets[g].inFlight--
		l.budgets[g].sent = append(l.budgets[g].sent, l.now())
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

// holdGlobal stops every request counted by budget g until a global 429
// ends.
func (l *Limits) holdGlobal(g Budget, until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if until.After(l.budgets[g].until) {
		l.budgets[g].until = until
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

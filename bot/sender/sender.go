// Package sender delivers the bot's queued announcements to Discord: each
// table's in order, whichever process sends them (a lease per table), as
// fast as Discord's rate limits allow and never into a 429 it could have
// seen coming, retrying server errors with backoff, and after a restart
// whatever the last run left. What an announcement says, and the request
// that sends it, are a Deliverer's (the story's: bot/story); when, how
// often and what happens on failure are this package's.
//
// Time is the sender's injected clock, and so are the rate limits it learns
// (rest.Limits): its tests run Discord's limits on a fake clock instead of
// sleeping through them.
package sender

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// Deliverer sends one announcement, and returns the others of its table it
// carried in the same message (a hand's story lines), done with it. It
// makes its requests through a rest.Client, whose errors the sender reads:
// *rest.Paced and *rest.RateLimited hold the table back, a rest.Permanent
// error gives the announcement up, anything else is retried with backoff.
type Deliverer func(ctx context.Context, it cribbage.OutboxItem) (carried []int64, err error)

// Options are a sender's parts.
type Options struct {
	Store cribbage.OutboxService
	// Owner names this process in the outbox's leases.
	Owner string
	// Now is the clock (time.Now if nil).
	Now     func() time.Time
	Deliver Deliverer
	// Aside, if set, picks announcements that are not sent in order but
	// handed to Handle at once and marked delivered (the bot's table
	// refreshes: the table message is kept live elsewhere, and must never
	// wait behind the story).
	Aside  func(it cribbage.OutboxItem) bool
	Handle func(it cribbage.OutboxItem)
	Log    *slog.Logger
	// RateLimited, if set, is told of every 429.
	RateLimited func()
}

// Sender delivers the outbox.
type Sender struct {
	opts Options
	wake chan struct{}

	mu sync.Mutex
	// holds are the tables held back, until when.
	holds map[int64]time.Time

	// passing is held by a pass, which reads and keeps what follows.
	passing sync.Mutex
	// known are the claimed announcements the last passes read and are
	// not done with, in order; readTo is the newest id read, and readAll
	// when the whole outbox was last read.
	known   []cribbage.OutboxItem
	readTo  int64
	readAll time.Time
}

// Workers is how many tables are delivered for at once: each delivery is a
// few local reads and writes and one request that waits on the network, so
// several overlap. At 900 tables two kept the story 4 s behind at the
// median with the budget half used.
const Workers = 8

// Batch is how many ready announcements one pass reads.
const Batch = 500

// Lease is how long this process holds a table's announcements once it has
// claimed them (renewed every pass): a process that dies holds them no
// longer than this, then another sends.
const Lease = 30 * time.Second

// The wait between attempts at one announcement: FirstBackoff, doubling
// (at most maxDoublings times, which keeps the shift in range) up to
// MaxBackoff.
const (
	FirstBackoff = 500 * time.Millisecond
	MaxBackoff   = 5 * time.Minute
	maxDoublings = 12
)

// New returns a sender; Run starts it.
func New(opts Options) *Sender {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Sender{opts: opts, wake: make(chan struct{}, 1), holds: map[int64]time.Time{}}
}

// Wake asks the sender to look at the outbox now.
func (s *Sender) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// passGap is the least time between the starts of two passes: short
// beside a person's pace, long beside a burst of moves, every one of which
// wakes the sender.
const passGap = 25 * time.Millisecond

// idlePoll is how often the sender looks at the outbox unasked: for
// retries that came due and tables another process let go.
const idlePoll = time.Second

// Run delivers until ctx ends: when woken, when a held table's time comes,
// and once a second.
func (s *Sender) Run(ctx context.Context) {
	timer := time.NewTimer(idlePoll)
	defer timer.Stop()
	for {
		start := time.Now()
		s.Drain(ctx)
		wait := idlePoll
		if next, ok := s.Next(); ok {
			wait = min(wait, max(next.Sub(s.opts.Now()), passGap))
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-timer.C:
		}
		if gap := passGap - time.Since(start); gap > 0 {
			timer.Reset(gap)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		}
	}
}

// Drain makes passes until one delivers nothing.
func (s *Sender) Drain(ctx context.Context) {
	for ctx.Err() == nil && s.Pass(ctx) > 0 {
	}
}

// Pass claims the tables it may send for, hands aside what goes aside, and
// sends each table's first ready announcement that is due and not held,
// returning how many announcements it is done with.
func (s *Sender) Pass(ctx context.Context) int {
	s.passing.Lock()
	defer s.passing.Unlock()
	now := s.opts.Now()
	items, err := s.claim(ctx, now)
	if err != nil {
		if ctx.Err() == nil {
			s.opts.Log.Error("outbox: cannot read", "err", err)
		}
		return 0
	}
	var done []int64
	var heads []cribbage.OutboxItem
	seen := map[int64]bool{}
	held := s.held(now)
	for _, it := range items {
		if s.opts.Aside != nil && s.opts.Aside(it) {
			done = append(done, it.ID)
			s.opts.Handle(it)
			continue
		}
		// A later announcement never overtakes an earlier one of its
		// table; tables sharing a channel do not wait for each other.
		if seen[it.TableID] {
			continue
		}
		seen[it.TableID] = true
		if !it.NextAttemptAt.After(now) && !held[it.TableID] {
			heads = append(heads, it)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, Workers)
	for _, it := range heads {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if ids := s.deliverOne(ctx, it); len(ids) > 0 {
				mu.Lock()
				done = append(done, ids...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// One transaction marks the whole pass: a crash before it only means a
	// resend, which the post's nonce makes harmless.
	if err := s.opts.Store.MarkDelivered(ctx, done...); err != nil {
		if ctx.Err() == nil {
			s.opts.Log.Error("outbox: cannot record deliveries", "err", err)
		}
		return 0
	}
	s.forget(done)
	return len(done)
}

// ReadAll is how often a pass reads the whole outbox rather than only
// what was queued since the last read: for the tables another process
// let go, and for announcements committed out of id order (PostgreSQL
// hands out ids before commit). In between, a pass works from what it
// knows: at 900 tables, with hundreds of announcements waiting on the bot
// token's budget, reading all of them forty times a second was an eighth
// of the process's work.
const ReadAll = time.Second

// claim returns the announcements this pass works from: the whole outbox
// (as much as Batch) every ReadAll, and otherwise what the last passes
// read and are not done with, and whatever was queued since. The list is
// the sender's own (s.known), not a copy: a pass reads it before it
// delivers anything, and only its deliveries (retried) and its end
// (forget) change it. Copying it for every pass, with hundreds of
// announcements waiting at 900 tables, was a thirtieth of all the memory
// the benchmark allocated.
func (s *Sender) claim(ctx context.Context, now time.Time) ([]cribbage.OutboxItem, error) {
	switch {
	case s.readAll.IsZero() || now.Sub(s.readAll) >= ReadAll || now.Before(s.readAll):
		items, err := s.opts.Store.ClaimOutbox(ctx, s.opts.Owner, 0, Batch, Lease)
		if err != nil {
			return nil, err
		}
		s.known, s.readAll = items, now
	case len(s.known) < Batch:
		// What is claimed of a table starts at its first announcement, so
		// a table this process takes over between whole reads (another
		// let it go) is not sent from its newest: the announcements
		// already known are read again with it, and kept once.
		items, err := s.opts.Store.ClaimOutbox(ctx, s.opts.Owner, s.readTo, Batch, Lease)
		if err != nil {
			return nil, err
		}
		s.known = mergeKnown(s.known, items)
	}
	if n := len(s.known); n > 0 {
		s.readTo = max(s.readTo, s.known[n-1].ID)
	}
	return s.known, nil
}

// mergeKnown adds to known the announcements of read it does not hold,
// keeping the order of ids.
func mergeKnown(known, read []cribbage.OutboxItem) []cribbage.OutboxItem {
	have := make(map[int64]bool, len(known))
	for _, it := range known {
		have[it.ID] = true
	}
	added := false
	for _, it := range read {
		if !have[it.ID] {
			known = append(known, it)
			added = true
		}
	}
	if added {
		slices.SortFunc(known, func(a, b cribbage.OutboxItem) int { return cmp.Compare(a.ID, b.ID) })
	}
	return known
}

// forget drops the announcements a pass is done with from what it knows.
func (s *Sender) forget(done []int64) {
	if len(done) == 0 {
		return
	}
	gone := make(map[int64]bool, len(done))
	for _, id := range done {
		gone[id] = true
	}
	s.known = slices.DeleteFunc(s.known, func(it cribbage.OutboxItem) bool { return gone[it.ID] })
}

// retried records in what a pass knows that an announcement failed an
// attempt and waits until next, as the store now has it.
func (s *Sender) retried(id int64, next time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.known {
		if s.known[i].ID == id {
			s.known[i].Attempts++
			s.known[i].NextAttemptAt = next
		}
	}
}

// deliverOne sends one announcement and returns the announcements it is
// done with (delivered, carried with it, or given up), none if it is to be
// retried; a failure to retry is recorded here. A panic is recovered and
// the item retried later, so one bad item cannot stop the sender.
func (s *Sender) deliverOne(ctx context.Context, it cribbage.OutboxItem) (done []int64) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.Log.Error("outbox: panic delivering an announcement", "id", it.ID, "table", it.TableID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			next := s.opts.Now().Add(MaxBackoff)
			s.markFailed(ctx, it.ID, next)
			done = nil
		}
	}()
	carried, err := s.opts.Deliver(ctx, it)
	var paced *rest.Paced
	var limited *rest.RateLimited
	switch {
	case err == nil:
		return append(carried, it.ID)
	case errors.As(err, &paced):
		s.Hold(it.TableID, paced.Until)
		return nil
	case errors.As(err, &limited):
		if s.opts.RateLimited != nil {
			s.opts.RateLimited()
		}
		// Not a failed attempt: Discord said when to come back.
		s.Hold(it.TableID, s.opts.Now().Add(limited.RetryAfter))
		return nil
	case rest.Permanent(err) || errors.Is(err, ErrGiveUp):
		s.opts.Log.Warn("outbox: giving up on an announcement", "id", it.ID, "table", it.TableID, "kind", it.Kind, "err", err)
		return append(carried, it.ID)
	}
	wait := Backoff(it.Attempts)
	s.opts.Log.Info("outbox: will retry", "id", it.ID, "table", it.TableID, "in", wait, "err", err)
	next := s.opts.Now().Add(wait)
	s.markFailed(ctx, it.ID, next)
	return nil
}

// markFailed records a failed attempt at an announcement, to be tried
// again at next, in the store and in what the passes know.
func (s *Sender) markFailed(ctx context.Context, id int64, next time.Time) {
	if err := s.opts.Store.MarkFailed(ctx, id, next); err != nil {
		if ctx.Err() == nil {
			s.opts.Log.Error("outbox: cannot record a failed delivery", "id", id, "err", err)
		}
		return
	}
	s.retried(id, next)
}

// ErrGiveUp marks an announcement that can never be delivered.
var ErrGiveUp = errors.New("sender: announcement cannot be delivered")

// Backoff doubles from FirstBackoff up to MaxBackoff.
func Backoff(attempts int) time.Duration {
	d := FirstBackoff << min(attempts, maxDoublings)
	return min(d, MaxBackoff)
}

// Hold keeps a table's announcements back until a time, keeping a later
// hold it already has.
func (s *Sender) Hold(table int64, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if until.After(s.holds[table]) {
		s.holds[table] = until
	}
}

// held returns the tables held back at now, forgetting those whose time
// has come.
func (s *Sender) held(now time.Time) map[int64]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int64]bool{}
	for id, t := range s.holds {
		if now.Before(t) {
			out[id] = true
		} else {
			delete(s.holds, id)
		}
	}
	return out
}

// Next returns the earliest time a held table may go on.
func (s *Sender) Next() (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first time.Time
	for _, t := range s.holds {
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first, !first.IsZero()
}

// Release gives up this process's leases, so another takes its tables
// over at once.
func (s *Sender) Release(ctx context.Context) error {
	// A pass after this one claims afresh: what this process knew is
	// another's to send now.
	s.passing.Lock()
	s.known, s.readAll = nil, time.Time{}
	s.passing.Unlock()
	return s.opts.Store.ReleaseOutbox(ctx, s.opts.Owner)
}

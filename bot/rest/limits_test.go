package rest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestBucketsOfAnsweredInteractionsAreForgotten answers many more
// interactions than the limits keep buckets for, each in its own bucket
// as an answer is: the buckets kept stay bounded, so a bot that runs for
// days does not grow by a bucket a click.
func TestBucketsOfAnsweredInteractionsAreForgotten(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	c := &Client{HTTP: srv.Client(), Limits: NewLimits(func() time.Time { return now })}
	for i := range 3 * maxBuckets {
		id := strconv.Itoa(i)
		if _, err := c.Do(context.Background(), Request{Method: http.MethodPost, URL: srv.URL + "/interactions/" + id + "/tok/callback",
			Bucket: CallbackBucket(id), Route: "callback", Body: map[string]int{"type": 6}, Interaction: true, TokenAt: now}); err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		now = now.Add(time.Millisecond)
	}
	c.Limits.mu.Lock()
	kept := len(c.Limits.buckets)
	c.Limits.mu.Unlock()
	if kept > maxBuckets {
		t.Errorf("%d buckets kept after %d answers, want at most %d", kept, 3*maxBuckets, maxBuckets)
	}
}

// TestHeldBackRequestsKeepTheirOrder: once the bot token's budget for the
// second is used, the requests held back with a turn of their own come
// back in the order they were held back. One that comes in as a place
// frees waits behind them instead of taking it, while a request without a
// turn takes a free place as before; two turns on one bucket each have a
// time of their own; and one whose time comes with no place free (those
// before it came back late, all at once) goes when the next place frees,
// ahead of the queue behind it.
func TestHeldBackRequestsKeepTheirOrder(t *testing.T) {
	start := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	now := start
	l := NewLimits(func() time.Time { return now })
	take := func(key, turn string) (time.Time, bool) {
		t.Helper()
		release, until, ok := l.take(key, turn, BotToken)
		if ok {
			release(nil)
		}
		return until, ok
	}
	for i := range GlobalBudget {
		if _, ok := take(fmt.Sprint("post ", i), ""); !ok {
			t.Fatalf("request %d of the first second held back", i)
		}
	}
	spacing := time.Second / GlobalBudget
	now = start.Add(100 * time.Millisecond)
	waiters := 2*GlobalBudget + 1
	var turns []time.Time
	for i := range waiters {
		// The first two share a bucket, as posts into one channel do.
		until, ok := take(fmt.Sprint("post ", max(i, 1)), fmt.Sprint("outbox ", i))
		if want := start.Add(time.Second + time.Duration(i)*spacing); ok || !until.Equal(want) {
			t.Fatalf("waiter %d: went %v, told to come back at %v; want held until %v", i, ok, until, want)
		}
		turns = append(turns, until)
	}
	// One without a turn is told when the next place frees, and moves
	// no one's time.
	if until, ok := take("edit elsewhere", ""); ok || !until.Equal(start.Add(time.Second)) {
		t.Errorf("a request without a turn with no place free: went %v, told %v; want held until %v", ok, until, start.Add(time.Second))
	}
	end := turns[waiters-1].Add(spacing)

	// A place frees at start+1s: a newcomer with a turn just after it
	// waits behind them all; one without takes the place.
	now = start.Add(time.Second + time.Millisecond)
	if until, ok := take("post newcomer", "outbox newcomer"); ok || !until.Equal(end) {
		t.Errorf("a newcomer as a place freed: went %v, told %v; want held until %v, behind the waiters", ok, until, end)
	}
	if _, ok := take("edit elsewhere", ""); !ok {
		t.Error("a request without a turn did not take a free place")
	}
	if until, ok := l.Ready("post 2", "outbox 2", BotToken); ok || !until.Equal(turns[2]) {
		t.Errorf("waiter 2 before its time: ready %v, told %v; want held until %v", ok, until, turns[2])
	}

	// All but the last two of the first GlobalBudget come back late,
	// together, and go: with the request without a turn, the second's
	// budget is used.
	late := turns[GlobalBudget-1].Add(-5 * time.Millisecond)
	now = late
	for i := range GlobalBudget - 1 {
		if _, ok := take(fmt.Sprint("post ", max(i, 1)), fmt.Sprint("outbox ", i)); !ok {
			t.Fatalf("waiter %d held back again after its time", i)
		}
	}
	// The next two find no place free at their times. The first comes
	// back as the first place frees (the request without a turn's); the
	// second a spacing after it, among those whose times come next, not
	// behind the queue.
	first := start.Add(2*time.Second + time.Millisecond)
	for i := GlobalBudget - 1; i <= GlobalBudget; i++ {
		now = turns[i]
		until, ok := take(fmt.Sprint("post ", i), fmt.Sprint("outbox ", i))
		switch {
		case ok:
			t.Errorf("waiter %d went with no place free", i)
		case i == GlobalBudget-1 && !until.Equal(first):
			t.Errorf("waiter %d with no place free at its time: told %v; want held until %v", i, until, first)
		case i == GlobalBudget && (!until.After(first) || !until.Before(turns[GlobalBudget+2])):
			t.Errorf("waiter %d with no place free at its time: told %v; want after %v and before waiter %d's %v", i, until, first, GlobalBudget+2, turns[GlobalBudget+2])
		}
	}
	now = late.Add(time.Second)
	for i := GlobalBudget - 1; i <= GlobalBudget; i++ {
		if _, ok := take(fmt.Sprint("post ", i), fmt.Sprint("outbox ", i)); !ok {
			t.Errorf("waiter %d held back again when places freed", i)
		}
	}
}

// TestTurnsNotTakenAreDropped: a turn whose request stops asking (its
// table went to another process) is dropped once it is staleTurn past its
// time, so it neither lets a much later request go first nor grows the
// limits; one whose request still asks, held by its channel's own limit,
// is kept.
func TestTurnsNotTakenAreDropped(t *testing.T) {
	start := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	now := start
	l := NewLimits(func() time.Time { return now })
	for i := range GlobalBudget + 10 {
		if release, _, ok := l.take(fmt.Sprint("post ", i), fmt.Sprint("outbox ", i), BotToken); ok {
			release(nil)
		}
	}
	kept := func() int {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.budgets[BotToken].turns)
	}
	if n := kept(); n != 10 {
		t.Fatalf("%d turns kept for 10 requests held back", n)
	}
	// The last one's channel is busy (another request on it) when it
	// asks again, well after its time.
	last := fmt.Sprint("post ", GlobalBudget+9)
	if _, _, ok := l.take(last, "", Unbudgeted); !ok {
		t.Fatal("could not take the bucket")
	}
	now = start.Add(time.Second + staleTurn - time.Second)
	if _, ok := l.Ready(last, fmt.Sprint("outbox ", GlobalBudget+9), BotToken); ok {
		t.Fatal("ready on a busy bucket")
	}
	now = now.Add(staleTurn - time.Second)
	l.Ready("post other", "outbox other", BotToken)
	if n := kept(); n != 1 {
		t.Errorf("%d turns kept %v after their time; want only the one that asked since", n, staleTurn)
	}
	now = now.Add(staleTurn)
	l.Ready("post other", "outbox other", BotToken)
	if n := kept(); n != 0 {
		t.Errorf("%d turns kept %v after their request last asked", n, staleTurn)
	}
}

// TestARequestHoldsItsPlaceUntilASecondAfterItsAnswer: a bot-token
// request counts against the global budget from its start until a second
// after its answer, which is after Discord counted it on arrival: requests
// answered late in one second are not taken for places free early in the
// next.
func TestARequestHoldsItsPlaceUntilASecondAfterItsAnswer(t *testing.T) {
	start := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	now := start
	l := NewLimits(func() time.Time { return now })
	var releases []func(http.Header)
	for i := range GlobalBudget {
		release, _, ok := l.take(fmt.Sprint("post ", i), "", BotToken)
		if !ok {
			t.Fatalf("request %d held back", i)
		}
		releases = append(releases, release)
	}
	// All under way: the first place frees no sooner than a second on.
	if until, ok := l.Ready("post more", "", BotToken); ok || until.Before(now.Add(time.Second)) {
		t.Errorf("with every place under way: ready %v, told %v; want held for at least a second", ok, until)
	}
	now = start.Add(300 * time.Millisecond)
	for _, release := range releases {
		release(nil)
	}
	now = start.Add(time.Second)
	answered := start.Add(1300 * time.Millisecond)
	if until, ok := l.Ready("post more", "", BotToken); ok || !until.Equal(answered) {
		t.Errorf("a second after the requests started: ready %v, told %v; want held until a second after their answers, %v", ok, until, answered)
	}
	now = answered
	if _, ok := l.Ready("post more", "", BotToken); !ok {
		t.Error("a second after the answers: still held back")
	}
}

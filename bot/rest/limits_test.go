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
// second is used, the requests held back come back in the order they were
// held back. One that comes in as a place frees waits behind them instead
// of taking it, and one whose turn comes with no room (those before it
// came back late, all at once) goes when the next place frees, not last.
func TestHeldBackRequestsKeepTheirOrder(t *testing.T) {
	start := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	now := start
	l := NewLimits(func() time.Time { return now })
	take := func(key string) (time.Time, bool) {
		t.Helper()
		release, until, ok := l.take(key, true)
		if ok {
			release(nil)
		}
		return until, ok
	}
	for i := range GlobalBudget {
		if _, ok := take(fmt.Sprint("first ", i)); !ok {
			t.Fatalf("request %d of the first second held back", i)
		}
	}
	spacing := time.Second / GlobalBudget
	now = start.Add(100 * time.Millisecond)
	var turns []time.Time
	for i := range GlobalBudget + 1 {
		until, ok := take(fmt.Sprint("waiter ", i))
		if want := start.Add(time.Second + time.Duration(i)*spacing); ok || !until.Equal(want) {
			t.Fatalf("waiter %d: went %v, told to come back at %v; want held until %v", i, ok, until, want)
		}
		turns = append(turns, until)
	}

	// A place frees at start+1s; a newcomer just after waits behind all.
	now = start.Add(time.Second + time.Millisecond)
	if until, ok := take("newcomer"); ok || !until.Equal(turns[GlobalBudget].Add(spacing)) {
		t.Errorf("a newcomer as a place freed: went %v, told %v; want held until %v, behind the waiters", ok, until, turns[GlobalBudget].Add(spacing))
	}
	if until, ok := l.Ready("waiter 1", true); ok || !until.Equal(turns[1]) {
		t.Errorf("waiter 1 before its turn: ready %v, told %v; want held until %v", ok, until, turns[1])
	}

	// The first forty come back late, together, and go.
	now = turns[GlobalBudget].Add(-10 * time.Millisecond)
	for i := range GlobalBudget {
		if _, ok := take(fmt.Sprint("waiter ", i)); !ok {
			t.Fatalf("waiter %d held back again after its turn", i)
		}
	}
	// The last one's turn comes with the second's budget used: it goes
	// when the first of those forty places frees.
	now = turns[GlobalBudget]
	if until, ok := take(fmt.Sprint("waiter ", GlobalBudget)); ok || !until.Equal(now.Add(time.Second-10*time.Millisecond)) {
		t.Errorf("last waiter with no room at its turn: went %v, told %v; want held until %v", ok, until, now.Add(time.Second-10*time.Millisecond))
	}
	now = now.Add(time.Second - 10*time.Millisecond)
	if _, ok := take(fmt.Sprint("waiter ", GlobalBudget)); !ok {
		t.Error("last waiter held back again when a place freed")
	}
}

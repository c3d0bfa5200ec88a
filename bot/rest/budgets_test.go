package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestTheAddressBudgetIsApart: the bot token's requests and a channel
// webhook's (made with no authorization) are counted apart, as Discord
// counts them: with the bot token's second used, a webhook's request
// still goes, up to a budget of its own; an interaction's token counts
// against neither. Only the bot token's requests carry it.
func TestTheAddressBudgetIsApart(t *testing.T) {
	var mu sync.Mutex
	auth := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth[r.URL.Path[:3]+" "+r.Header.Get("Authorization")]++
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	c := &Client{HTTP: srv.Client(), Token: "secret", Limits: NewLimits(func() time.Time { return now })}
	do := func(kind string, i int) error {
		r := Request{Method: http.MethodPost, Route: kind, Bucket: fmt.Sprint(kind, i)}
		switch kind {
		case "bot":
			r.URL = srv.URL + "/b/"
		case "hook":
			r.URL, r.Webhook = srv.URL+"/h/", true
		case "token":
			r.URL, r.Interaction, r.TokenAt = srv.URL+"/t/", true, now
		}
		_, err := c.Do(context.Background(), r)
		return err
	}
	for _, kind := range []string{"bot", "hook"} {
		for i := range GlobalBudget {
			if err := do(kind, i); err != nil {
				t.Fatalf("%s request %d of the second: %v", kind, i, err)
			}
		}
		var paced *Paced
		if err := do(kind, GlobalBudget); !errors.As(err, &paced) {
			t.Errorf("%s request past its budget: %v, want held back", kind, err)
		}
	}
	if err := do("token", 0); err != nil {
		t.Errorf("an interaction's token with both budgets used: %v", err)
	}
	want := map[string]int{"/b/ Bot secret": GlobalBudget, "/h/ ": GlobalBudget, "/t/ ": 1}
	if fmt.Sprint(auth) != fmt.Sprint(want) {
		t.Errorf("requests by path and authorization %v, want %v", auth, want)
	}
}

// TestReadyAnyTakesTheWayThatCanGo: a request that may go either way
// takes the bot token's while it has room, the webhook's when the bot
// token's second is used; when neither has room it joins the queue whose
// time is sooner, and keeps it when it asks again, unless the other way
// can take it at once.
func TestReadyAnyTakesTheWayThatCanGo(t *testing.T) {
	start := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	now := start
	l := NewLimits(func() time.Time { return now })
	ways := func(i int) []Way {
		return []Way{{Bucket: fmt.Sprint("post ", i), Budget: BotToken}, {Bucket: fmt.Sprint("webhook ", i), Budget: Address}}
	}
	// send takes the place ReadyAny said, as the post would.
	send := func(i int) (int, time.Time, bool) {
		t.Helper()
		turn := fmt.Sprint("outbox ", i)
		way, until, ok := l.ReadyAny(turn, ways(i)...)
		if ok {
			w := ways(i)[way]
			release, _, took := l.take(w.Bucket, turn, w.Budget)
			if !took {
				t.Fatalf("request %d: ReadyAny said way %d, whose take held it back", i, way)
			}
			release(nil)
		}
		return way, until, ok
	}
	n := 0
	for range GlobalBudget {
		if way, _, ok := send(n); !ok || way != 0 {
			t.Fatalf("request %d: way %d ok %v, want the bot token's at once", n, way, ok)
		}
		n++
	}
	for range GlobalBudget {
		if way, _, ok := send(n); !ok || way != 1 {
			t.Fatalf("request %d: way %d ok %v, want the webhook's at once", n, way, ok)
		}
		n++
	}
	// Both used for the second. The bot token's answers came first, so
	// its queue is sooner, then the webhook's, then the bot token's again.
	now = start.Add(10 * time.Millisecond)
	var told []int
	var times []time.Time
	for i := range 3 {
		way, until, ok := send(n + i)
		if ok {
			t.Fatalf("request %d went with both budgets used", n+i)
		}
		told, times = append(told, way), append(times, until)
	}
	// Both budgets' first places free at a second: the first joins the
	// bot token's queue (the first way, on a tie), the second the
	// webhook's, whose time is then sooner, the third the bot token's
	// again, a spacing later.
	second := start.Add(time.Second)
	wantWays, wantTimes := []int{0, 1, 0}, []time.Time{second, second, second.Add(time.Second / GlobalBudget)}
	if fmt.Sprint(told) != fmt.Sprint(wantWays) || fmt.Sprint(times) != fmt.Sprint(wantTimes) {
		t.Errorf("held back: ways %v at %v, want %v at %v", told, times, wantWays, wantTimes)
	}
	// Asked again before its time, each keeps its queue.
	for i := range 3 {
		if way, until, ok := send(n + i); ok || way != told[i] || !until.Equal(times[i]) {
			t.Errorf("request %d asked again: way %d at %v ok %v, want way %d at %v", n+i, way, until, ok, told[i], times[i])
		}
	}
	// At its time each goes the way it queued on.
	for i := range 3 {
		now = times[i]
		if way, _, ok := send(n + i); !ok || way != told[i] {
			t.Errorf("request %d at its time: way %d ok %v, want way %d at once", n+i, way, ok, told[i])
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for g, b := range l.budgets {
		if len(b.turns) != 0 {
			t.Errorf("budget %d keeps %d turns of requests that went", g, len(b.turns))
		}
	}
}

// TestReadyAnyWaitsForItsOwnChannel: the other ways spread the global
// budgets, not a channel's own limit: a post whose channel has used its
// messages for the window waits for the window, though the webhook's way
// is free.
func TestReadyAnyWaitsForItsOwnChannel(t *testing.T) {
	now := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	l := NewLimits(func() time.Time { return now })
	release, _, ok := l.take("post thread", "", BotToken)
	if !ok {
		t.Fatal("the first post held back")
	}
	h := http.Header{}
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset-After", "4.000")
	release(h)
	way, until, ok := l.ReadyAny("outbox 1", Way{Bucket: "post thread", Budget: BotToken}, Way{Bucket: "webhook 1", Budget: Address})
	if ok || way != 0 || !until.Equal(now.Add(4*time.Second)) {
		t.Errorf("way %d at %v ok %v, want the channel's own way at its reset, %v", way, until, ok, now.Add(4*time.Second))
	}
}

package sender

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/store"
)

// The sender's tests run it against the fake Discord with the fake's rate
// limits on a manual clock, the sender's own clock: a test moves the clock
// past a window instead of sleeping through it, and nothing waits in real
// time.

// clock is a manual clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// rig is a sender, its store (a real SQLite file), the fake Discord and
// the shared clock.
type rig struct {
	t      *testing.T
	clock  *clock
	fake   *discordtest.Server
	store  *store.Store
	client *rest.Client
	// sent counts the posts delivered, by announcement id.
	mu   sync.Mutex
	sent map[int64]int
}

const channel = "500000000000000001"

func newRig(t *testing.T) *rig {
	t.Helper()
	c := &clock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	fake := discordtest.New()
	t.Cleanup(func() {
		fake.Close()
		for _, v := range fake.Violations() {
			t.Errorf("Discord would refuse: %s", v)
		}
	})
	fake.SetRateClock(c.Now)
	fake.AddChannel(channel)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "cribbage.db"), store.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &rig{t: t, clock: c, fake: fake, store: st, sent: map[int64]int{},
		client: &rest.Client{HTTP: http.DefaultClient, Token: "test-token", Limits: rest.NewLimits(c.Now)}}
}

// sender is a sender of owner on the rig, posting each announcement's
// payload to its channel.
func (r *rig) sender(owner string) *Sender {
	return New(Options{Store: r.store, Owner: owner, Now: r.clock.Now, Deliver: r.post})
}

// post is the Deliverer: the payload as the message, with the announcement
// as its nonce.
func (r *rig) post(ctx context.Context, it cribbage.OutboxItem) ([]int64, error) {
	_, err := r.client.Do(ctx, rest.Request{Method: http.MethodPost, URL: r.fake.URL() + "/api/v9/channels/" + it.ChannelID + "/messages",
		Bucket: "post " + it.ChannelID, Route: "POST /channels/{channel}/messages",
		Body: map[string]any{"content": it.Payload, "nonce": fmt.Sprint("n", it.ID), "enforce_nonce": true}})
	if err == nil {
		r.mu.Lock()
		r.sent[it.ID]++
		r.mu.Unlock()
	}
	return nil, err
}

// queue opens n tables in the channel, each with one announcement.
func (r *rig) queue(n int) {
	r.t.Helper()
	for i := range n {
		_, err := r.store.CreateTable(context.Background(), &cribbage.Table{GuildID: "1", ChannelID: channel, HostID: "2",
			Options: cribbageOptions(), Status: cribbage.StatusLobby}, "",
			[]cribbage.Outbound{{ChannelID: channel, Kind: "post", Payload: fmt.Sprint("post ", i)}}, cribbage.Hold{})
		if err != nil {
			r.t.Fatal(err)
		}
	}
}

// cribbageOptions are a two-player table's.
func cribbageOptions() engine.Options { return engine.Options{Players: 2, Target: 121} }

// drain makes n of s's passes as the sender makes them, the clock
// moving on between them by the moment a busy bucket holds a table.
func (r *rig) drain(s *Sender, n int) {
	for range n {
		s.Drain(context.Background())
		r.clock.Advance(rest.BusyRetry)
	}
}

// posted counts the messages in the channel.
func (r *rig) posted() int { return len(r.fake.ChannelMessages(channel)) }

// pending counts the announcements not delivered.
func (r *rig) pending() int {
	items, err := r.store.PendingOutbox(context.Background(), 100)
	if err != nil {
		r.t.Fatal(err)
	}
	return len(items)
}

// TestPostsKeepAChannelsLimitOnTheClock: seven tables' posts in one
// channel, whose limit is 5 messages per 5 seconds. The sender sends five,
// learns from the answers that the window is used, and holds the rest
// until it resets, instead of meeting a 429; once the clock passes the
// window it sends the other two.
func TestPostsKeepAChannelsLimitOnTheClock(t *testing.T) {
	r := newRig(t)
	r.queue(7)
	s := r.sender("a")
	r.drain(s, 20)
	if got := r.posted(); got != 5 {
		t.Fatalf("%d posted in the first window, want 5", got)
	}
	next, ok := s.Next()
	if !ok || next.Sub(r.clock.Now()) > 5*time.Second {
		t.Errorf("held until %v (%v from now), want the window's end", next, next.Sub(r.clock.Now()))
	}
	r.clock.Advance(5 * time.Second)
	r.drain(s, 5)
	if got := r.posted(); got != 7 || r.pending() != 0 {
		t.Errorf("%d posted, %d pending after the window, want 7 and 0", got, r.pending())
	}
	if n := r.fake.RateLimited(); n["user"]+n["global"] != 0 {
		t.Errorf("the sender met %v 429s", n)
	}
}

// TestA429HoldsTheTableWithoutCountingAnAttempt: a 429 all the same
// holds its table for retry_after on the clock; it is not a failure.
func TestA429HoldsTheTableWithoutCountingAnAttempt(t *testing.T) {
	r := newRig(t)
	r.queue(1)
	limited := 0
	s := New(Options{Store: r.store, Owner: "a", Now: r.clock.Now, Deliver: r.post, RateLimited: func() { limited++ }})
	r.fake.FailNext("POST", "/messages", http.StatusTooManyRequests, 1)
	s.Drain(context.Background())
	if r.posted() != 0 || limited != 1 {
		t.Fatalf("%d posted, %d 429s told", r.posted(), limited)
	}
	next, ok := s.Next()
	if !ok || !next.After(r.clock.Now()) {
		t.Fatalf("not held: %v %v", next, ok)
	}
	s.Drain(context.Background())
	if r.posted() != 0 {
		t.Fatal("sent before retry_after")
	}
	r.clock.Advance(next.Sub(r.clock.Now()))
	s.Drain(context.Background())
	items, _ := r.store.TableOutbox(context.Background(), 1)
	if r.posted() != 1 || items[0].Attempts != 1 {
		t.Errorf("%d posted, %d attempts recorded; want 1 and 1 (the 429 is not a failure)", r.posted(), items[0].Attempts)
	}
}

// TestServerErrorsBackOffAndRefusalsGiveUp: a 500 is retried after half a
// second, then a second, on the clock; Discord refusing the request itself
// (403) gives the announcement up instead of retrying it forever.
func TestServerErrorsBackOffAndRefusalsGiveUp(t *testing.T) {
	r := newRig(t)
	r.queue(1)
	s := r.sender("a")
	r.fake.FailNext("POST", "/messages", http.StatusInternalServerError, 2)
	start := r.clock.Now()
	for _, wait := range []time.Duration{FirstBackoff, 2 * FirstBackoff} {
		s.Drain(context.Background())
		items, _ := r.store.PendingOutbox(context.Background(), 10)
		if len(items) != 1 || !items[0].NextAttemptAt.Equal(r.clock.Now().Add(wait).Truncate(time.Millisecond)) {
			t.Fatalf("after a 500 at %v: %+v, want the next try %v later", r.clock.Now().Sub(start), items, wait)
		}
		s.Drain(context.Background())
		if r.posted() != 0 {
			t.Fatal("retried before its time")
		}
		r.clock.Advance(wait)
	}
	s.Drain(context.Background())
	if r.posted() != 1 {
		t.Fatalf("%d posted after the backoff", r.posted())
	}

	r.queue(1)
	r.fake.FailNext("POST", "/messages", http.StatusForbidden, 1)
	s.Drain(context.Background())
	if r.pending() != 0 || r.posted() != 1 {
		t.Errorf("a refused post: %d pending, %d posted; want it given up", r.pending(), r.posted())
	}
}

// TestLeasesKeepATableWithOneSender: while one process holds a table's
// lease, another sends nothing of it; when the holder dies, the other
// takes the table once the lease lapses on the clock, and a process with
// the holder's own name (itself, restarted) takes it at once.
func TestLeasesKeepATableWithOneSender(t *testing.T) {
	for _, restarted := range []bool{false, true} {
		t.Run(fmt.Sprint("same owner ", restarted), func(t *testing.T) {
			r := newRig(t)
			r.queue(1)
			a := r.sender("a")
			r.fake.FailNext("POST", "/messages", http.StatusInternalServerError, 1)
			a.Drain(context.Background()) // claims the table, fails, holds the lease
			r.clock.Advance(time.Second)  // the retry is due
			other := "b"
			if restarted {
				other = "a"
			}
			b := r.sender(other)
			b.Drain(context.Background())
			if restarted {
				if r.posted() != 1 {
					t.Fatalf("the restarted owner sent %d", r.posted())
				}
				return
			}
			if r.posted() != 0 {
				t.Fatal("another process sent a table whose lease is held")
			}
			r.clock.Advance(Lease)
			b.Drain(context.Background())
			if r.posted() != 1 {
				t.Fatalf("%d posted once the lease lapsed", r.posted())
			}
		})
	}
}

// TestTheGlobalBudget: the sender makes at most rest.GlobalBudget bot-token
// requests a second however many buckets they are in, and holds the rest
// until the second is over, each told a time of its own, the budget's
// spacing apart, so they do not all come back at once; requests with an
// interaction's token do not count.
func TestTheGlobalBudget(t *testing.T) {
	r := newRig(t)
	ok, paced := 0, 0
	spacing := time.Second / rest.GlobalBudget
	for i := range rest.GlobalBudget + 5 {
		ch := fmt.Sprint(600000000000000000 + i)
		r.fake.AddChannel(ch)
		_, err := r.client.Do(context.Background(), rest.Request{Method: http.MethodPost, URL: r.fake.URL() + "/api/v9/channels/" + ch + "/messages",
			Bucket: "post " + ch, Route: "post", Body: map[string]any{"content": "x"}})
		var p *rest.Paced
		switch {
		case err == nil:
			ok++
		case errors.As(err, &p) && p.Until.Equal(r.clock.Now().Add(time.Second+time.Duration(paced)*spacing)):
			paced++
		default:
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if ok != rest.GlobalBudget || paced != 5 {
		t.Errorf("%d sent, %d held for the next second; want %d and 5", ok, paced, rest.GlobalBudget)
	}
}

// TestInteractionTokens: a token is not used once rest.TokenUsable has passed
// since its interaction (nothing is sent); while it is, edits through it
// keep the token's own limit of 5 per 2 seconds without a 429.
func TestInteractionTokens(t *testing.T) {
	r := newRig(t)
	i := r.fake.Prepare(discordtest.Command("1", channel, discordtest.User{ID: "3", Name: "A"}, "hand"))
	tok := i.Token
	// Discord sends the interaction; no bot is connected to take it (the
	// fake says so), and the test answers it as the bot would: with a
	// private message, which the token's @original then is.
	if _, err := r.fake.Send(context.Background(), i); err == nil {
		t.Fatal("an interaction was delivered with no bot connected")
	}
	data, _ := json.Marshal(discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "hand", Flags: discordgo.MessageFlagsEphemeral}})
	if _, err := r.client.Do(context.Background(), rest.Request{Method: http.MethodPost, URL: r.fake.URL() + "/api/v9/interactions/" + i.ID + "/" + tok + "/callback",
		Bucket: "callback", Route: "callback", Body: json.RawMessage(data), Interaction: true, TokenAt: r.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	edit := func(at time.Time) error {
		_, err := r.client.Do(context.Background(), rest.Request{Method: http.MethodPatch, URL: r.fake.URL() + "/api/v9/webhooks/" + r.fake.AppID + "/" + tok + "/messages/@original",
			Bucket: "token " + tok, Route: "PATCH @original", Body: map[string]any{"content": "edited"}, Interaction: true, TokenAt: at})
		return err
	}
	sent, paced := 0, 0
	for range 7 {
		var p *rest.Paced
		switch err := edit(r.clock.Now()); {
		case err == nil:
			sent++
		case errors.As(err, &p):
			paced++
		default:
			t.Fatal(err)
		}
	}
	if sent != 5 || paced != 2 {
		t.Errorf("%d edits sent, %d held; want 5 and 2", sent, paced)
	}
	requests := len(r.fake.Requests())
	if err := edit(r.clock.Now().Add(-rest.TokenUsable)); !errors.Is(err, rest.ErrTokenExpired) || !rest.TokenRefused(err) {
		t.Errorf("a token past its use: %v", err)
	}
	if len(r.fake.Requests()) != requests {
		t.Error("a request was made with an expired token")
	}
	if n := r.fake.RateLimited(); n["user"]+n["global"] != 0 {
		t.Errorf("%v 429s", n)
	}
}

// claimCounter is the rig's store, counting what the sender's claims read.
type claimCounter struct {
	*store.Store
	mu    sync.Mutex
	whole int // claims of the whole outbox
	rows  int // announcements the claims after an id returned
}

func (c *claimCounter) ClaimOutbox(ctx context.Context, owner string, after int64, limit int, lease time.Duration) ([]cribbage.OutboxItem, error) {
	items, err := c.Store.ClaimOutbox(ctx, owner, after, limit, lease)
	c.mu.Lock()
	defer c.mu.Unlock()
	if after == 0 {
		c.whole++
	} else {
		c.rows += len(items)
	}
	return items, err
}

// TestPassesReadOnlyWhatIsNew: tables held back by a channel's limit are
// not read again on every pass, only what was queued since; the whole
// outbox is read again once ReadAll has passed, and everything is sent.
func TestPassesReadOnlyWhatIsNew(t *testing.T) {
	r := newRig(t)
	r.queue(7)
	c := &claimCounter{Store: r.store}
	s := New(Options{Store: c, Owner: "a", Now: r.clock.Now, Deliver: r.post})
	r.drain(s, 20)
	if got := r.posted(); got != 5 {
		t.Fatalf("%d posted in the first window, want 5", got)
	}
	r.queue(1)
	c.mu.Lock()
	c.whole, c.rows = 0, 0
	c.mu.Unlock()
	for range 10 {
		s.Pass(context.Background())
	}
	c.mu.Lock()
	if c.whole != 0 || c.rows != 1 {
		t.Errorf("ten passes within %v read the whole outbox %d times and %d new announcements; want 0 and the 1 queued", ReadAll, c.whole, c.rows)
	}
	c.mu.Unlock()
	r.clock.Advance(5 * time.Second)
	r.drain(s, 5)
	if got := r.posted(); got != 8 || r.pending() != 0 {
		t.Errorf("%d posted, %d pending after the window, want 8 and 0", got, r.pending())
	}
	if c.whole == 0 {
		t.Errorf("the whole outbox was not read again after %v", ReadAll)
	}
}

// TestATableTakenOverBetweenWholeReadsGoesInOrder: another process held a
// table while this sender read the outbox, then let it go; a newer
// announcement of that table, read before the next whole read, does not
// go before the older one this sender never claimed.
func TestATableTakenOverBetweenWholeReadsGoesInOrder(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.queue(2) // table 1's "post 0" and table 2's "post 1"
	if got, err := r.store.ClaimOutbox(ctx, "other", 0, 1, Lease); err != nil || len(got) != 1 || got[0].TableID != 1 {
		t.Fatalf("the other process's claim: %v, %v", got, err)
	}
	s := r.sender("a")
	s.Pass(ctx)
	if got := r.posted(); got != 1 {
		t.Fatalf("%d posted while the other process held table 1, want table 2's alone", got)
	}
	if err := r.store.ReleaseOutbox(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if ok, err := r.store.MarkReminded(ctx, 1, time.Time{}, r.clock.Now(), []cribbage.Outbound{{ChannelID: channel, Kind: "post", Payload: "post 0, later"}}); !ok || err != nil {
		t.Fatalf("queueing table 1's second post: %v, %v", ok, err)
	}
	for range 3 {
		s.Pass(ctx)
		r.clock.Advance(rest.BusyRetry)
	}
	msgs := r.fake.ChannelMessages(channel)
	var order []string
	for _, m := range msgs {
		order = append(order, m.Content)
	}
	if fmt.Sprint(order) != "[post 1 post 0 post 0, later]" {
		t.Errorf("posted %q, want table 1's in the order queued", order)
	}
}

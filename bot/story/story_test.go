package story

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/live"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/bot/sender"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
	"github.com/cribbage-bot/cribbage/store"
)

// The story's tests deliver through a real sender, as the bot wires it,
// to the fake Discord, with a real SQLite store; the sender's clock, the
// REST client's rate limits, the store's and the fake's limits all run on
// one manual clock. A test moves the clock past a backoff instead of
// sleeping through it, and each Drain delivers everything due before it
// returns, so a test asserts straight after it.

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

// toFake sends discordgo's https://discord.com endpoints to the fake, as
// the bot's transport does with its API URL.
type toFake struct{ base *url.URL }

func (t toFake) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = t.base.Scheme, t.base.Host, t.base.Host
	return http.DefaultTransport.RoundTrip(out)
}

// touches is the live surface as the story sees it: the real one posts
// table messages; touches are counted instead of run.
type touches struct {
	*live.Surface
	mu      sync.Mutex
	touched []int64
}

func (l *touches) Touch(table int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.touched = append(l.touched, table)
}

// tables returns the tables touched, in order.
func (l *touches) tables() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.touched)
}

// rig is a Deliverer wired to a sender, the fake Discord, the store and
// the clock.
type rig struct {
	t      *testing.T
	clock  *clock
	fake   *discordtest.Server
	store  *store.Store
	live   *touches
	story  *Deliverer
	sender *sender.Sender
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
	base, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	client := &rest.Client{HTTP: &http.Client{Transport: toFake{base}}, Token: "test-token", Limits: rest.NewLimits(c.Now)}
	lv := &touches{Surface: live.New(live.Options{Store: st, REST: client, Now: c.Now,
		AppID: func() string { return fake.AppID }, Context: func() (context.Context, bool) { return context.Background(), false }})}
	d := New(Options{Store: st, REST: client, Live: lv, AppID: func() string { return fake.AppID }, Now: c.Now})
	s := sender.New(sender.Options{Store: st, Owner: "a", Now: c.Now, Deliver: d.Deliver, Aside: Aside, Handle: d.Handle})
	return &rig{t: t, clock: c, fake: fake, store: st, live: lv, story: d, sender: s}
}

// table opens a two-player lobby in channel with people seated.
func (r *rig) table(channelID string, people ...string) *cribbage.Table {
	r.t.Helper()
	var seats []cribbage.Seat
	for i, p := range people {
		seats = append(seats, cribbage.Seat{UserID: fmt.Sprint(i + 2), Name: p})
	}
	t, err := r.store.CreateTable(context.Background(), &cribbage.Table{GuildID: "1", ChannelID: channelID, HostID: "2",
		Options: engine.Options{Players: 2, Target: 121}, Status: cribbage.StatusLobby, Seats: seats}, "", nil, cribbage.Hold{})
	if err != nil {
		r.t.Fatal(err)
	}
	return t
}

// queue queues announcements for a table, as a change to it does.
func (r *rig) queue(id int64, out ...cribbage.Outbound) {
	r.t.Helper()
	_, err := servicetest.Update(context.Background(), r.store, id, "", func(t *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: t, Outbox: out}, nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

// drain delivers whatever is due now.
func (r *rig) drain() { r.sender.Drain(context.Background()) }

// after moves the clock on by d and delivers what came due.
func (r *rig) after(d time.Duration) {
	r.clock.Advance(d)
	r.drain()
}

// pending counts a table's undelivered announcements, waiting lines too.
func (r *rig) pending(id int64) int {
	r.t.Helper()
	items, err := r.store.TablePending(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return len(items)
}

// message reads what is recorded of a table's message.
func (r *rig) message(id int64) cribbage.TableMessage {
	r.t.Helper()
	m, err := r.store.TableMessage(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return m
}

// requests counts the requests the fake answered whose path ends so.
func (r *rig) requests(method, suffix string) int {
	n := 0
	for _, q := range r.fake.Requests() {
		if q.Method == method && strings.HasSuffix(q.Path, suffix) {
			n++
		}
	}
	return n
}

// line is a line of a hand in progress; ends is the post that ends the
// hand, with its last line.
func line(hand int, text string) cribbage.Outbound { return entry(render.KindLine, hand, text) }
func ends(hand int, text string) cribbage.Outbound { return entry(render.KindPost, hand, text) }

func entry(kind string, hand int, text string) cribbage.Outbound {
	raw, err := json.Marshal(render.PostPayload{Lines: []render.StoryEntry{{Text: text, Hand: hand}}})
	if err != nil {
		panic(err)
	}
	return cribbage.Outbound{ChannelID: channel, Kind: kind, Payload: string(raw), Waits: kind == render.KindLine}
}

// shown is what a story message shows: its text (content, or the text
// displays above its hand records), and each hand record's title and
// text (a container's, Components V2).
type shown struct {
	Content string
	Embeds  []string
}

func show(ms []discordtest.Message) []shown {
	var out []shown
	for _, m := range ms {
		s := shown{Content: m.Content}
		var top []string
		for _, c := range m.Components {
			switch c := c.(type) {
			case *discordgo.TextDisplay:
				top = append(top, c.Content)
			case *discordgo.Container:
				record := strings.Join(discordtest.TextDisplays(c.Components), "\n")
				title, lines, _ := strings.Cut(strings.TrimPrefix(record, "### "), "\n")
				s.Embeds = append(s.Embeds, title+": "+lines)
			}
		}
		if len(top) > 0 {
			s.Content = strings.Join(top, "\n")
		}
		out = append(out, s)
	}
	return out
}

// TestAHandsLinesGoWithThePostThatEndsIt: the lines of a hand in progress
// are not posted; the post that ends the hand carries them, in one
// message, the hand's record as one embed.
func TestAHandsLinesGoWithThePostThatEndsIt(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, line(1, "Bob cuts: the starter is 2♣."))
	r.queue(tb.ID, line(1, "Bob A♣ 1 · Alice 5♣ 6"))
	r.drain()
	if n := len(r.fake.ChannelMessages(channel)); n != 0 {
		t.Fatalf("%d messages posted while the hand is on, want none", n)
	}
	r.queue(tb.ID, ends(1, "Alice 21 · Bob 4. Bob deals next."))
	r.drain()
	want := []shown{{Embeds: []string{"Hand 1: Bob cuts: the starter is 2♣.\nBob A♣ 1 · Alice 5♣ 6\nAlice 21 · Bob 4. Bob deals next."}}}
	if got := show(r.fake.ChannelMessages(channel)); !reflect.DeepEqual(got, want) {
		t.Errorf("posted %q, want %q", got, want)
	}
	if n := r.pending(tb.ID); n != 0 {
		t.Errorf("%d announcements pending, want none", n)
	}
}

// TestASealedMessageIsResentUnderItsNonce: Discord posts a hand's record
// but its answer is lost. Meanwhile the next hand ends. The retry sends
// exactly the message first sent, under the same nonce, so Discord does
// not post it again; the next hand goes in a message of its own, not
// swallowed by the first one's nonce.
func TestASealedMessageIsResentUnderItsNonce(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, line(1, "Bob cuts: the starter is 2♣."), ends(1, "Alice 21 · Bob 4."))
	r.fake.LoseNextAnswers(http.MethodPost, "/channels/"+channel+"/messages", http.StatusInternalServerError, 1)
	r.drain()
	if n := len(r.fake.ChannelMessages(channel)); n != 1 {
		t.Fatalf("%d messages after the lost answer, want the one Discord made", n)
	}
	items, err := r.store.TableOutbox(context.Background(), tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if items[0].SealedThrough != items[1].ID {
		t.Fatalf("sealed through %d, want the hand's post %d", items[0].SealedThrough, items[1].ID)
	}

	r.queue(tb.ID, line(2, "Alice cuts: the starter is K♥."), ends(2, "Alice 30 · Bob 19."))
	r.after(sender.FirstBackoff)
	want := []shown{
		{Embeds: []string{"Hand 1: Bob cuts: the starter is 2♣.\nAlice 21 · Bob 4."}},
		{Embeds: []string{"Hand 2: Alice cuts: the starter is K♥.\nAlice 30 · Bob 19."}},
	}
	if got := show(r.fake.ChannelMessages(channel)); !reflect.DeepEqual(got, want) {
		t.Errorf("posted %q, want %q", got, want)
	}
	if n := r.requests(http.MethodPost, "/messages"); n != 3 {
		t.Errorf("%d posts made, want 3 (the first twice)", n)
	}
	if got, want := r.fake.ChannelMessages(channel)[0].Nonce, fmt.Sprint("cb", items[0].ID); got != want {
		t.Errorf("the hand's record has nonce %q, want %q, its first item's", got, want)
	}
	if n := r.pending(tb.ID); n != 0 {
		t.Errorf("%d announcements pending, want none", n)
	}
}

// TestAReminderGoesAlone: a plain post (a reminder, a ping) comes between
// moves: it goes at once, by itself, pinging only whom it names, and the
// lines of the hand in progress wait for the hand's record.
func TestAReminderGoesAlone(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, line(1, "Bob cuts: the starter is 2♣."))
	r.queue(tb.ID, render.Post(tb, "<@3> the table is waiting on you (<@2> has played).", []string{"3"}))
	r.drain()
	ms := r.fake.ChannelMessages(channel)
	want := []shown{{Content: "<@3> the table is waiting on you (<@2> has played)."}}
	if got := show(ms); !reflect.DeepEqual(got, want) {
		t.Fatalf("posted %q, want %q", got, want)
	}
	if !slices.Equal(ms[0].Notified, []string{"3"}) {
		t.Errorf("the reminder pinged %v, want only 3", ms[0].Notified)
	}
	if n := r.pending(tb.ID); n != 1 {
		t.Fatalf("%d announcements pending, want the hand's line", n)
	}

	r.queue(tb.ID, ends(1, "Alice 21 · Bob 4."))
	r.drain()
	want = append(want, shown{Embeds: []string{"Hand 1: Bob cuts: the starter is 2♣.\nAlice 21 · Bob 4."}})
	if got := show(r.fake.ChannelMessages(channel)); !reflect.DeepEqual(got, want) {
		t.Errorf("posted %q, want %q", got, want)
	}
}

// TestAPostIntoAChannelThatIsGoneIsGivenUp: Discord answers a post into a
// deleted channel or thread 404; the post is given up, not retried for
// ever, and the table's story goes on. So is an announcement of a table
// the store no longer has, or of a kind nobody delivers.
func TestAPostIntoAChannelThatIsGoneIsGivenUp(t *testing.T) {
	for _, gone := range []string{"channel", "thread"} {
		t.Run(gone, func(t *testing.T) {
			r := newRig(t)
			tb := r.table(channel, "Alice", "Bob")
			dest := "500000000000000099" // never known to Discord
			if gone == "thread" {
				if err := r.store.SetMessages(context.Background(), tb.ID, "", dest); err != nil {
					t.Fatal(err)
				}
			} else {
				tb = r.table(dest, "Alice", "Bob")
			}
			r.queue(tb.ID, render.Post(tb, "Game on.", nil))
			items, err := r.store.TablePending(context.Background(), tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.story.Deliver(context.Background(), items[0])
			if !rest.Permanent(err) {
				t.Fatalf("a post into a %s that is gone: %v, want a permanent refusal", gone, err)
			}
			r.drain()
			r.after(sender.MaxBackoff)
			if n := r.pending(tb.ID); n != 0 {
				t.Errorf("%d announcements pending, want the post given up", n)
			}
			if n := r.requests(http.MethodPost, "/channels/"+dest+"/messages"); n != 2 {
				t.Errorf("%d posts tried, want 2 (the test's, then the sender's once)", n)
			}
		})
	}
	r := newRig(t)
	for _, it := range []cribbage.OutboxItem{{ID: 1, TableID: 999, Kind: render.KindPost}, {ID: 2, TableID: r.table(channel).ID, Kind: "unknown"}} {
		if _, err := r.story.Deliver(context.Background(), it); !errors.Is(err, sender.ErrGiveUp) {
			t.Errorf("delivering %+v: %v, want it given up", it, err)
		}
	}
	if n := len(r.fake.Requests()); n != 0 {
		t.Errorf("%d requests made, want none", n)
	}
}

// TestTheStoryGoesIntoTheThreadOnTheTableMessage: a rematch's table is
// opened by the outbox as render.Introduce queues it: its table message,
// its thread on that message, then its first line, in the thread. The
// thread's answer is lost; the retry finds the thread Discord made on the
// message instead of making another, and later posts go into it without
// opening one again.
func TestTheStoryGoesIntoTheThreadOnTheTableMessage(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, cribbage.Outbound{ChannelID: channel, Kind: render.KindOpen}, cribbage.Outbound{ChannelID: channel, Kind: render.KindThread},
		render.Post(tb, "**Rematch** of table 1.", nil))
	r.fake.LoseNextAnswers(http.MethodPost, "/threads", http.StatusInternalServerError, 1)
	r.drain()
	msg := r.message(tb.ID).MessageID
	m, ok := r.fake.Message(msg)
	if !ok || m.Thread == nil {
		t.Fatalf("table message %q: %v, want it posted with a thread on it", msg, ok)
	}
	if n := len(r.fake.ChannelMessages(m.Thread.ID)); n != 0 {
		t.Fatal("the story went on before the thread was recorded")
	}

	r.after(sender.FirstBackoff)
	if got := r.message(tb.ID).ThreadID; got != m.Thread.ID {
		t.Fatalf("thread %q recorded, want %q, the one on the table message", got, m.Thread.ID)
	}
	r.queue(tb.ID, cribbage.Outbound{ChannelID: channel, Kind: render.KindThread}, ends(1, "Alice 21 · Bob 4."))
	r.drain()
	want := []shown{{Content: "**Rematch** of table 1."}, {Embeds: []string{"Hand 1: Alice 21 · Bob 4."}}}
	if got := show(r.fake.ChannelMessages(m.Thread.ID)); !reflect.DeepEqual(got, want) {
		t.Errorf("the thread shows %q, want %q", got, want)
	}
	if n := len(r.fake.ChannelMessages(channel)); n != 1 {
		t.Errorf("%d messages in the channel, want only the table message", n)
	}
	if n := r.requests(http.MethodPost, "/threads"); n != 2 {
		t.Errorf("%d requests to open a thread, want 2 (the lost answer, and the one Discord refused)", n)
	}
	if n := r.pending(tb.ID); n != 0 {
		t.Errorf("%d announcements pending, want none", n)
	}
}

// TestWithoutATableMessageTheStoryGoesToTheChannel: a thread waits for its
// table message, the story behind it, threadAttempts times on the backoff;
// then the thread is given up and the story goes to the channel.
func TestWithoutATableMessageTheStoryGoesToTheChannel(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, cribbage.Outbound{ChannelID: channel, Kind: render.KindThread}, render.Post(tb, "Game on.", nil))
	r.drain()
	for i := range threadAttempts {
		if n := len(r.fake.ChannelMessages(channel)); n != 0 {
			t.Fatalf("attempt %d: the story went on before the thread", i+1)
		}
		r.after(sender.Backoff(i))
	}
	want := []shown{{Content: "Game on."}}
	if got := show(r.fake.ChannelMessages(channel)); !reflect.DeepEqual(got, want) {
		t.Errorf("the channel shows %q, want %q", got, want)
	}
	if n := r.requests(http.MethodPost, "/threads"); n != 0 {
		t.Errorf("%d requests to open a thread with no table message", n)
	}
}

// TestATableMessageTheOutboxPostsIsPostedOnce: the table message of a table
// no interaction answered with is posted by the outbox under the table's
// nonce. Its answer is lost; the retry is answered with the message
// already made, which is recorded. Another such announcement, once the
// table has its message, posts nothing.
func TestATableMessageTheOutboxPostsIsPostedOnce(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, cribbage.Outbound{ChannelID: channel, Kind: render.KindOpen})
	r.fake.LoseNextAnswers(http.MethodPost, "/channels/"+channel+"/messages", http.StatusInternalServerError, 1)
	r.drain()
	if got := r.message(tb.ID).MessageID; got != "" {
		t.Fatalf("table message %q recorded from a lost answer", got)
	}
	r.after(sender.FirstBackoff)
	ms := r.fake.ChannelMessages(channel)
	if len(ms) != 1 || ms[0].Nonce != render.OpenNonce(tb) {
		t.Fatalf("%d messages, want the one table message under its nonce", len(ms))
	}
	if got := r.message(tb.ID).MessageID; got != ms[0].ID {
		t.Errorf("table message %q recorded, want %q", got, ms[0].ID)
	}

	r.queue(tb.ID, cribbage.Outbound{ChannelID: channel, Kind: render.KindOpen})
	r.drain()
	if n := r.requests(http.MethodPost, "/messages"); n != 2 {
		t.Errorf("%d posts made, want 2 (the lost answer and its retry)", n)
	}
	if n := r.pending(tb.ID); n != 0 {
		t.Errorf("%d announcements pending, want none", n)
	}
}

// TestATableRefreshGoesToTheLiveSurface: a table refresh is handed to the
// live surface at once, not sent in the story's order, and asks nothing
// of Discord here.
func TestATableRefreshGoesToTheLiveSurface(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.queue(tb.ID, cribbage.Outbound{ChannelID: channel, Kind: render.KindThread}, cribbage.Outbound{ChannelID: channel, Kind: render.KindTable})
	r.drain()
	if got := r.live.tables(); !slices.Equal(got, []int64{tb.ID}) {
		t.Errorf("touched %v, want table %d once", got, tb.ID)
	}
	if n := r.pending(tb.ID); n != 1 {
		t.Errorf("%d pending, want the thread, still waiting for its table message", n)
	}
	if n := len(r.fake.Requests()); n != 0 {
		t.Errorf("%d requests made, want none", n)
	}
}

// showing29 queues, as the store does for a change whose show holds
// seat's 29, the change's own announcement and, the first time the
// seat's person holds one, the news after it.
func (r *rig) showing29(id int64, seat int, out cribbage.Outbound) {
	r.t.Helper()
	_, err := servicetest.Update(context.Background(), r.store, id, "", func(t *cribbage.Table) (*cribbage.Change, error) {
		cs, st := engine.MustParseCards("5H 5D 5C JS"), engine.MustParseCard("5S")
		b := engine.ScoreShow(cs, st, false)
		t.State = &engine.State{HandNo: 1, Phase: engine.PhaseDeal}
		return &cribbage.Change{Table: t, Outbox: []cribbage.Outbound{out},
			Events: []engine.Event{{Kind: engine.EvShow, Seat: seat, Cards: cs, Card: st, Items: b.Items, Points: b.Total}}}, nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

// TestAMilestoneGoesWithTheHandThatEarnedIt: a milestone's news, queued
// by the store after the post of the change that earned it, goes out in
// that post's message, in its hand's record; news queued by a change
// whose hand is still on waits for the post that ends the hand; and news
// earned already is not queued again.
func TestAMilestoneGoesWithTheHandThatEarnedIt(t *testing.T) {
	r := newRig(t)
	tb := r.table(channel, "Alice", "Bob")
	r.showing29(tb.ID, 0, ends(1, "Alice: 5♥ 5♦ 5♣ J♠ + 5♠ — 29."))
	r.drain()
	got := show(r.fake.ChannelMessages(channel))
	if len(got) != 1 || len(got[0].Embeds) != 1 || !strings.HasPrefix(got[0].Embeds[0], "Hand 1: Alice: 5♥ 5♦ 5♣ J♠ + 5♠ — 29.\n🏅 **Alice** earns a milestone: **A 29 hand**") ||
		!strings.Contains(got[0].Embeds[0], "**Four of a kind**") {
		t.Fatalf("posted %q, want the show with its milestones in one record", got)
	}
	other := r.table(channel, "Alice", "Carol")
	r.showing29(other.ID, 0, line(1, "Alice: 5♥ 5♦ 5♣ J♠ + 5♠ — 29."))
	r.drain()
	if n := r.pending(other.ID); n != 1 || len(r.fake.ChannelMessages(channel)) != 1 {
		t.Errorf("%d pending, %d messages: Alice's 29 was announced again", n, len(r.fake.ChannelMessages(channel)))
	}
	carol := r.table(channel, "Alice", "Carol")
	r.showing29(carol.ID, 1, line(1, "Carol: 5♥ 5♦ 5♣ J♠ + 5♠ — 29."))
	r.drain()
	if n := len(r.fake.ChannelMessages(channel)); n != 1 {
		t.Fatalf("%d messages while Carol's hand is on, want still 1", n)
	}
	r.queue(carol.ID, ends(1, "Carol 29 · Alice 0."))
	r.drain()
	got = show(r.fake.ChannelMessages(channel))
	if len(got) != 2 || !strings.Contains(got[1].Embeds[0], "🏅 **Carol** earns a milestone: **A 29 hand**") || !strings.HasSuffix(got[1].Embeds[0], "Carol 29 · Alice 0.") {
		t.Errorf("posted %q, want Carol's record with her milestones before its last line", got)
	}
}

// tableReads is the store, counting its reads of whole tables.
type tableReads struct {
	*store.Store
	n atomic.Int64
}

func (s *tableReads) Table(ctx context.Context, id int64) (*cribbage.Table, error) {
	s.n.Add(1)
	return s.Store.Table(ctx, id)
}

// TestAPostThatWaitsReadsNoTable: once a channel's posts are spent, a
// hand's post that would wait its turn is put back without reading its
// table: when hundreds of hands end at once, posts are tried again and
// again until their turn.
func TestAPostThatWaitsReadsNoTable(t *testing.T) {
	r := newRig(t)
	reads := &tableReads{Store: r.store}
	d := New(Options{Store: reads, REST: r.story.rest, Live: r.live, AppID: func() string { return r.fake.AppID }, Now: r.clock.Now})
	s := sender.New(sender.Options{Store: r.store, Owner: "b", Now: r.clock.Now, Deliver: d.Deliver, Aside: Aside, Handle: d.Handle})
	const tables = 8
	for i := range tables {
		tb := r.table(channel, "Alice", "Bob")
		r.queue(tb.ID, ends(1, fmt.Sprintf("Table %d: Alice 21 · Bob 4.", i)))
	}
	posted := func() int { return len(r.fake.ChannelMessages(channel)) }
	// The channel takes five posts in five seconds.
	for round := 0; round < 20 && posted() < 5; round++ {
		s.Drain(context.Background())
		r.clock.Advance(100 * time.Millisecond)
	}
	if posted() != 5 {
		t.Fatalf("%d posts in the channel's first second, want its five", posted())
	}
	before := reads.n.Load()
	for range 10 {
		s.Drain(context.Background())
		r.clock.Advance(100 * time.Millisecond)
	}
	if posted() != 5 {
		t.Fatalf("%d posts within the window, want 5", posted())
	}
	if n := reads.n.Load() - before; n != 0 {
		t.Errorf("%d tables read by posts waiting on a spent channel, want none", n)
	}
	for round := 0; round < 100 && posted() < tables; round++ {
		r.clock.Advance(500 * time.Millisecond)
		s.Drain(context.Background())
	}
	if posted() != tables {
		t.Errorf("%d posts, want %d", posted(), tables)
	}
}

// TestHandRecordsHeldBackGoInOrder: when more hands end at once than the
// bot token's budget sends in a second, the records held back go in the
// order their hands ended: the records of hands that end just as places
// free wait behind them instead of taking those places.
func TestHandRecordsHeldBackGoInOrder(t *testing.T) {
	r := newRig(t)
	// Each table has a channel of its own: only the global budget holds
	// its record back.
	end := func(i int) string {
		ch := fmt.Sprint(600000000000000000 + i)
		r.fake.AddChannel(ch)
		tb := r.table(ch, "Alice", "Bob")
		o := ends(1, fmt.Sprintf("Table %d: Alice 21 · Bob 4.", i))
		o.ChannelID = ch
		r.queue(tb.ID, o)
		return ch
	}
	var first, later []string
	for i := range rest.GlobalBudget + 20 {
		first = append(first, end(i))
	}
	r.drain()
	// The second's places free; the hands that end now find places free
	// while most of those held back have still to come back.
	r.clock.Advance(time.Second + time.Millisecond)
	for i := range 10 {
		later = append(later, end(1000+i))
	}
	postedAt := func(ch string) (time.Time, bool) {
		ms := r.fake.ChannelMessages(ch)
		if len(ms) == 0 {
			return time.Time{}, false
		}
		return ms[0].Timestamp, true
	}
	for range 200 {
		r.after(rest.BusyRetry)
	}
	var lastFirst time.Time
	for _, ch := range first {
		at, ok := postedAt(ch)
		if !ok {
			t.Fatalf("the record in channel %s never posted", ch)
		}
		if at.After(lastFirst) {
			lastFirst = at
		}
	}
	for _, ch := range later {
		at, ok := postedAt(ch)
		if !ok {
			t.Fatalf("the record in channel %s never posted", ch)
		}
		if at.Before(lastFirst) {
			t.Errorf("a record of a hand that ended later went at %v, before the last of the earlier ones at %v", at.Format(time.StampMilli), lastFirst.Format(time.StampMilli))
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/sender"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/store"
)

// liveTable plays a table as people with their hand views open do: each
// opens their view once (Show my hand) and from then on clicks only what
// that view shows as the bot keeps it current, never Refresh.
type liveTable struct {
	h      *harness
	id     int64
	msg    string
	people map[string]discordtest.User
	// views is each user's open hand view.
	views map[string]string
	// moves records, for each move, when it was answered and the table's
	// last action time after it (what the table message must come to show).
	moves []liveMove
	// channel is where the table is (testChannel if empty).
	channel string
	// holding players (a benchmark's) play from the view they hold when
	// it offers the move, and press Show my hand only when it does not,
	// at once, as a person does who sees no card to play: each press is
	// counted in opens. Other players wait for their view to come to
	// offer the move, and fail the test if it never does (a benchmark
	// measures; a test asserts).
	holding bool
	opens   int
	// failed counts a holding player's clicks that went wrong (no answer
	// in time, an apology, a refusal): the benchmark measures them and
	// plays on from a fresh view.
	failed int
}

// press sends a click as u on a message of the table's channel.
func (l *liveTable) press(u discordtest.User, messageID, customID string) discordtest.Answer {
	l.h.t.Helper()
	ch := l.channel
	if ch == "" {
		ch = testChannel
	}
	i := discordtest.Click(testGuild, ch, u, messageID, customID)
	if !l.holding {
		return l.h.send(i)
	}
	// Discord answers an interaction within 3 seconds or fails it: an
	// answer that never comes (the bot's came too late) is a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := l.h.fake.Interact(ctx, i)
	if err != nil {
		l.failed++
		return discordtest.Answer{}
	}
	l.h.latMu.Lock()
	l.h.latencies = append(l.h.latencies, a.Latency)
	l.h.latMu.Unlock()
	return a
}

// fail counts a holding player's click that went wrong and drops their
// view: their next move opens a fresh one.
func (l *liveTable) fail(u discordtest.User) {
	l.failed++
	delete(l.views, u.ID)
}

type liveMove struct {
	answered time.Time
	version  int64 // the table's after the move
	handOver bool
	over     bool
}

// view returns u's open hand view as the fake holds it now, once it shows
// the table at least as it stands (the bot edits it in after a move).
func (l *liveTable) view(u discordtest.User, want func(m discordtest.Message) bool) discordtest.Message {
	l.h.t.Helper()
	id, ok := l.views[u.ID]
	if ok && l.holding {
		if m, _ := l.h.fake.Message(id); want(m) {
			return m
		}
		ok = false // the held view does not offer the move: open one that does
	}
	if !ok {
		a := l.press(u, l.msg, "/hand/"+itoa64(l.id))
		l.opens++
		id = a.MessageID
		l.views[u.ID] = id
	}
	var m discordtest.Message
	if l.holding {
		// A view just opened shows the table as it stands.
		if m, _ = l.h.fake.Message(id); !want(m) {
			l.fail(u)
		}
		return m
	}
	// The view edits itself; how soon is BenchmarkQuickGame's to measure
	// (a timed assertion would fail on a busy machine). A test, which
	// asserts only that it does, runs the clock fast meanwhile (hurry):
	// the bot spaces a view's edits on that clock, as the fake keeps
	// Discord's limits on them, so the spacing is kept, not sat out.
	_, measured := l.h.t.(*testing.B)
	for deadline := time.Now().Add(eventuallyBound); ; time.Sleep(5 * time.Millisecond) {
		if m, _ = l.h.fake.Message(id); want(m) {
			return m
		}
		if time.Now().After(deadline) {
			l.h.t.Fatalf("%s's view did not come to show the table as it is in %s:\n%s", u.Name, eventuallyBound, l.stuckView(u, id))
		}
		if !measured {
			l.h.hurry()
		}
	}
}

// click presses a button of u's view and records the move, made in hand
// handNo: the hand the table was in when the caller read it to choose the
// move, which saves the benchmark's players a read of the table a move.
func (l *liveTable) click(u discordtest.User, customID string, handNo int) discordtest.Answer {
	l.h.t.Helper()
	a := l.press(u, l.views[u.ID], customID)
	if l.holding && (a.Response == nil || a.Response.Type != discordgo.InteractionResponseUpdateMessage || strings.Contains(a.Content(), "⚠️")) {
		l.fail(u)
		return a
	}
	if strings.Contains(a.Content(), "⚠️") {
		l.h.t.Fatalf("%s's click refused: %s", u.Name, a.Content())
	}
	after := l.h.table(l.id)
	l.moves = append(l.moves, liveMove{answered: l.h.fake.Now(), version: after.Version,
		handOver: after.State.HandNo != handNo, over: after.Status == cribbage.StatusFinished})
	return a
}

// step makes one move for whoever the game waits on, from their open view,
// and reports false once the game is over.
func (l *liveTable) step() bool {
	l.h.t.Helper()
	t := l.h.table(l.id)
	if t.Status != cribbage.StatusPlaying {
		return false
	}
	g := t.State
	switch g.Phase {
	case engine.PhaseDiscard:
		u := l.people[t.Seats[g.Waiting()[0]].UserID]
		m := l.view(u, func(m discordtest.Message) bool { return hasButton(m, "/sel/", false) })
		if _, ok := l.views[u.ID]; !ok {
			return true // failed: the next step tries again
		}
		comps := m.Components
		for range g.Options.DiscardSize() {
			b, _ := button(l.h.t, comps, func(b discordgo.Button) bool {
				return strings.HasPrefix(b.CustomID, "/sel/") && b.Style == discordgo.SecondaryButton
			})
			a := l.press(u, l.views[u.ID], b.CustomID)
			if a.Response == nil || a.Response.Data == nil || a.Response.Type != discordgo.InteractionResponseUpdateMessage {
				l.fail(u)
				return true
			}
			comps = a.Response.Data.Components
		}
		confirm, _ := button(l.h.t, comps, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/discard/") })
		l.click(u, confirm.CustomID, g.HandNo)
	case engine.PhasePlay:
		u := l.people[t.Seats[g.Turn].UserID]
		// The view shows the table as it stands when it offers a card to
		// play and a button for each card the player still holds: one
		// from before their last play has a button more. (Such a view can
		// show for a moment: a live edit under way when the player's last
		// click was answered may land after the answer.)
		held := len((g.Hands[g.Turn] &^ g.Played[g.Turn]).Cards())
		m := l.view(u, func(m discordtest.Message) bool {
			return hasButton(m, "/play/", true) && countButtons(m, "/play/") == held
		})
		if _, ok := l.views[u.ID]; !ok {
			return true // failed: the next step tries again
		}
		b, _ := button(l.h.t, m.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/play/") && !b.Disabled })
		l.click(u, b.CustomID, g.HandNo)
	default:
		l.h.t.Fatalf("phase %v at a table counted automatically", g.Phase)
	}
	return true
}

// hasButton reports whether a message has a button whose custom_id starts
// with prefix (enabled, when enabled is set).
func hasButton(m discordtest.Message, prefix string, enabled bool) bool {
	for _, b := range discordtest.Buttons(m.Components) {
		if strings.HasPrefix(b.CustomID, prefix) && (!enabled || !b.Disabled) {
			return true
		}
	}
	return false
}

// countButtons counts a message's buttons whose custom_id starts with
// prefix.
func countButtons(m discordtest.Message, prefix string) int {
	n := 0
	for _, b := range discordtest.Buttons(m.Components) {
		if strings.HasPrefix(b.CustomID, prefix) {
			n++
		}
	}
	return n
}

// tableMessageVersion is the version of the table a table message shows
// (its container's id, render.Table), or -1.
func tableMessageVersion(m discordtest.Message) int64 {
	for _, c := range m.Components {
		if c, ok := c.(*discordgo.Container); ok {
			return int64(c.ID)
		}
	}
	return -1
}

// quickKinds are the tables TestQuickGamesKeepTheTableMessageLive and
// BenchmarkQuickGame play.
var quickKinds = []tableKind{
	{"two players", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice, bob}},
	{"partnerships", []discordtest.Opt{{Name: "players", Value: 4}, {Name: "teams", Value: true}, {Name: "points", Value: 61}}, []discordtest.User{alice, bob, carol, dan}},
}

// TestQuickGamesKeepTheTableMessageLive plays whole games with no think
// time, at two players and in partnerships, everyone playing from their
// own open hand view: each card is one click on a view the bot brought up
// to date by itself, and the table message shows every move, each hand's
// end and the winner included. How far behind it ever is,
// BenchmarkQuickGame measures.
func TestQuickGamesKeepTheTableMessageLive(t *testing.T) {
	t.Parallel()
	for i, k := range quickKinds {
		if i > 0 && testing.Short() {
			break // -short plays two players only
		}
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			worst, moves := playQuickGame(newHarness(t), k)
			t.Logf("%d moves; the table message at most %v behind", moves, worst)
		})
	}
}

// BenchmarkQuickGame plays TestQuickGamesKeepTheTableMessageLive's games
// and reports how far behind the table message ever was (the move's
// answer to the first message showing it).
func BenchmarkQuickGame(b *testing.B) {
	for _, k := range quickKinds {
		b.Run(k.name, func(b *testing.B) {
			var worst time.Duration
			for range b.N {
				w, _ := playQuickGame(newHarness(b), k)
				worst = max(worst, w)
			}
			b.ReportMetric(float64(worst.Milliseconds()), "ms-behind-max")
		})
	}
}

// playQuickGame plays a game of kind k to its end as quick players do and
// checks the table message showed every move; it returns how far behind
// the table message ever was, and the number of moves.
func playQuickGame(h *harness, k tableKind) (time.Duration, int) {
	t := h.t
	t.Helper()
	id, msg := h.seat(k)
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(k.people...), views: map[string]string{}}
	for n := 0; l.step(); n++ {
		if n > 2000 {
			t.Fatal("the game did not end")
		}
	}
	last := l.moves[len(l.moves)-1]
	h.eventually("the table message to show the last move", func() bool {
		m, _ := h.fake.Message(msg)
		return tableMessageVersion(m) >= last.version
	})
	hands, worst := 0, time.Duration(0)
	for _, mv := range l.moves {
		at, ok := h.fake.FirstShowing(msg, mv.answered.Add(-time.Second), func(m discordtest.Message) bool {
			return tableMessageVersion(m) >= mv.version
		})
		if !ok {
			t.Fatalf("the table message never showed the move answered at %s", mv.answered.Format(time.StampMilli))
		}
		worst = max(worst, at.Sub(mv.answered))
		if mv.handOver {
			hands++
		}
	}
	final, _ := h.fake.Message(msg)
	if !strings.Contains(final.Text(), "🏆") {
		t.Errorf("the table message does not show the winner:\n%s", final.Text())
	}
	if hands == 0 || !l.moves[len(l.moves)-1].over {
		t.Errorf("%d hands over, last move over: %v", hands, l.moves[len(l.moves)-1].over)
	}
	h.noIdenticalEdits()
	return worst, len(l.moves)
}

// TestAPlayIsOneClick: after the opponent lays a card, the player's own
// open view offers the card to play, without Refresh, and says what the
// opponent did.
func TestAPlayIsOneClick(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(alice, bob), views: map[string]string{}}
	for h.table(id).State.Phase == engine.PhaseDiscard {
		l.step()
	}
	// Both views are open now. The leader plays from theirs; the other
	// player's view then offers their cards, and the click plays one.
	g := h.table(id).State
	leader := l.people[h.table(id).Seats[g.Turn].UserID]
	other := l.people[h.table(id).Seats[1-g.Turn].UserID]
	l.view(other, func(m discordtest.Message) bool { return true }) // open before the lead
	l.step()
	clicks := len(h.fake.Interactions())
	m := l.view(other, func(m discordtest.Message) bool { return hasButton(m, "/play/", true) })
	if !strings.Contains(m.Text(), "Last move") || !strings.Contains(m.Text(), leader.Name+" plays") {
		t.Errorf("%s's view does not say what %s did:\n%s", other.Name, leader.Name, m.Text())
	}
	b, _ := button(t, m.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/play/") && !b.Disabled })
	before := h.table(id).Version
	l.click(other, b.CustomID, g.HandNo)
	if got := len(h.fake.Interactions()) - clicks; got != 1 || h.table(id).Version == before {
		t.Errorf("the play took %d clicks; version %d → %d", got, before, h.table(id).Version)
	}
}

// TestTheStoryResumesAtOnceAfterAKill: a bot on a SQLite file killed with
// a post pending (Discord failing it) leaves the post's lease behind; the
// bot started again on the same file takes it back at once and sends it
// when its backoff ends, instead of waiting for the lease to lapse: well
// within the lease's 30 s, whatever the machine's load.
func TestTheStoryResumesAtOnceAfterAKill(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/cribbage.db"
	fake := discordtest.New()
	t.Cleanup(func() {
		fake.Close()
		for _, v := range fake.Violations() {
			t.Errorf("Discord would refuse: %s", v)
		}
	})
	first, endpoint := startReplica(t, fake, path)
	fake.DeliverOverHTTP(endpoint)
	h := &harness{t: t, fake: fake}
	h.eventually("commands registered", func() bool { return len(fake.Commands(testGuild)) >= 1 })
	// The test reads the same file beside the bot (WAL lets it).
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.store = st
	id, msg := h.seat(tableKind{"two players", nil, []discordtest.User{alice, bob}})
	h.drain()
	// Posts fail from now on; play until one is pending and tried.
	fake.FailNext("POST", "/messages", 500, 1000)
	failed := postsFailed(h, 500)
	people := usersOf(alice, bob)
	h.within(60*time.Second, "a post tried and failed", func() bool {
		if postsFailed(h, 500) > failed {
			return true
		}
		h.step(id, msg, people)
		return false
	})
	first.Process.Kill()
	first.Wait()
	fake.ClearFaults()
	// The post is tried again when its backoff ends: 0.5 s after one
	// failure, doubling, and a busy machine sees more failures before the
	// test notices one. Taken back at once, the lease does not hold it up
	// beyond that; left to lapse, it would for 30 s.
	due := time.Now()
	pending, err := st.PendingOutbox(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range pending {
		if it.NextAttemptAt.After(due) {
			due = it.NextAttemptAt
		}
	}
	t.Logf("%d posts pending at the kill, the last due in %v", len(pending), time.Until(due))
	start := time.Now()
	_, endpoint = startReplica(t, fake, path)
	fake.DeliverOverHTTP(endpoint)
	h.within(time.Until(due)+sender.Lease/3, "the story to resume", func() bool {
		items, err := st.PendingOutbox(context.Background(), 10)
		return err == nil && len(items) == 0
	})
	t.Logf("the story resumed %v after the restart", time.Since(start))
	checkThreadReadsAsQueued(t, h, id)
}

// TestAPlayerIsPingedOnceAfterAPause: the story mentions nobody; a player
// the table has waited on for NUDGE_AFTER is pinged once in the thread,
// notifying only them, and not again while the wait goes on; and a command
// used in the table's thread finds the table.
func TestAPlayerIsPingedOnceAfterAPause(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(h *harness) { h.nudgeAfter = 2 * time.Minute })
	id, msg := twoPlayerGame(t, h)
	people := usersOf(alice, bob)
	for h.table(id).State.Phase != engine.PhasePlay {
		h.step(id, msg, people)
	}
	h.step(id, msg, people)
	h.drain()
	waiter, _ := h.turnUser(id)
	pings := func() (n int, users []string) {
		for _, r := range h.fake.Requests() {
			if r.Route != "POST /channels/{channel_id}/messages" || r.Status != 200 {
				continue
			}
			var post struct {
				AllowedMentions struct {
					Users []string `json:"users"`
				} `json:"allowed_mentions"`
			}
			json.Unmarshal(r.JSON(), &post)
			if len(post.AllowedMentions.Users) > 0 {
				n++
				users = append(users, post.AllowedMentions.Users...)
			}
		}
		return n, users
	}
	if n, _ := pings(); n != 0 {
		t.Fatalf("%d posts pinged someone while the game moved along", n)
	}
	h.fake.Advance(time.Minute)
	h.settle()
	if n, _ := pings(); n != 0 {
		t.Fatalf("pinged after a minute")
	}
	h.fake.Advance(90 * time.Second)
	h.settle()
	if n, _ := pings(); n != 1 {
		t.Fatalf("%d pings once the wait passed NUDGE_AFTER, want 1", n)
	}
	if _, users := pings(); len(users) != 1 || users[0] != waiter.ID {
		t.Errorf("the ping notified %v, want only %s", users, waiter.Name)
	}
	h.fake.Advance(10 * time.Minute)
	h.settle()
	if n, _ := pings(); n != 1 {
		t.Errorf("%d pings in one wait, want 1", n)
	}
	if !h.threadSays(id, "<@"+waiter.ID+">") {
		t.Error("the ping is not in the table's thread")
	}

	// In the thread, /cribbage hand finds the table.
	a := h.send(discordtest.Command(testGuild, h.tableMessage(id).ThreadID, waiter, "hand"))
	if !a.Ephemeral() || !strings.Contains(a.Content(), "**Your hand**") {
		t.Errorf("/cribbage hand in the table's thread: %s", a.Content())
	}
}

// TestAnotherDiscardKeepsYourChoice: while a player is choosing cards for
// the crib, the other player's discard does not redraw their view (which
// would drop the card they chose); once the play starts, the view comes
// up to date by itself.
func TestAnotherDiscardKeepsYourChoice(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.seat(twoAndFour[0])
	view := h.showHand(alice, msg, id)
	b, _ := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/sel/") })
	chosen := h.click(alice, view.MessageID, b.CustomID)
	if !strings.Contains(chosen.Content(), "Chosen:") {
		t.Fatalf("the toggle did not choose: %s", chosen.Content())
	}
	h.discard(bob, msg, id, 2)
	// Once the table message shows Bob's discard, the live pass that
	// would have redrawn Alice's view has been made.
	h.eventually("the table message to show Bob's discard", func() bool {
		m, _ := h.fake.Message(msg)
		return strings.Contains(m.Text(), "Waiting for **Alice** to throw")
	})
	m, _ := h.fake.Message(view.MessageID)
	if !strings.Contains(m.Text(), "Chosen:") {
		t.Fatalf("Bob's discard dropped Alice's choice:\n%s", m.Text())
	}
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(alice, bob), views: map[string]string{alice.ID: view.MessageID}}
	comps := m.Components
	b, _ = button(t, comps, func(b discordgo.Button) bool {
		return strings.HasPrefix(b.CustomID, "/sel/") && b.Style == discordgo.SecondaryButton
	})
	comps = h.click(alice, view.MessageID, b.CustomID).Response.Data.Components
	confirm, _ := button(t, comps, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/discard/") })
	l.click(alice, confirm.CustomID, h.table(id).State.HandNo)
	if h.table(id).State.Phase != engine.PhasePlay {
		t.Fatalf("the discard did not go through: %v", h.table(id).State.Phase)
	}
}

// stuckView describes a hand view that did not catch up, for the failure:
// the table as saved, the view versions its edits showed, and every
// request that edited it (an answer to a click on it, an edit through a
// token) with Discord's status.
func (l *liveTable) stuckView(u discordtest.User, id string) string {
	var b strings.Builder
	tb := l.h.table(l.id)
	seat := tb.SeatOf(u.ID)
	fmt.Fprintf(&b, "table %d version %d, %s, phase %v, seat %d's view version %s\n", tb.ID, tb.Version, tb.Status, tb.State.Phase, seat,
		click.ViewVersion(tb.State.ViewFor(seat)))
	for i, v := range l.h.fake.History(id) {
		fmt.Fprintf(&b, "  version %d of the view: %d buttons, first %q\n", i, len(discordtest.Buttons(v.Components)), firstCustomID(v))
	}
	for _, r := range l.h.fake.Requests() {
		onView := strings.Contains(r.Path, "/webhooks/") && originalIs(l.h, r.Path, id)
		if !onView && strings.Contains(r.Path, "/interactions/") {
			_, ic, ok := l.h.fake.Original(tokenIn(r.Path))
			onView = ok && ic.Message != nil && ic.Message.ID == id
		}
		if onView {
			// The token names which click's answer or edit it was; the
			// first custom_id, which view version it showed.
			fmt.Fprintf(&b, "  %s %s (token %s) → %d, showing %q\n", r.At.Format("15:04:05.000"), r.Route, tokenIn(r.Path), r.Status, firstCustomIDIn(r.JSON()))
		}
	}
	return b.String()
}

// firstCustomID is the custom_id of a message's first button, or "".
func firstCustomID(m discordtest.Message) string {
	if bs := discordtest.Buttons(m.Components); len(bs) > 0 {
		return bs[0].CustomID
	}
	return ""
}

// tokenIn is the interaction token in a webhook or callback path
// (/api/v9/webhooks/{app}/{token}/…, /api/v9/interactions/{id}/{token}/…).
func tokenIn(path string) string {
	if parts := strings.Split(path, "/"); len(parts) > 5 {
		return parts[5]
	}
	return ""
}

// firstCustomIDIn is the first custom_id in a request's JSON, or "".
func firstCustomIDIn(doc []byte) string {
	const key = `"custom_id":"`
	s := string(doc)
	i := strings.Index(s, key)
	if i < 0 {
		return ""
	}
	s = s[i+len(key):]
	if j := strings.IndexByte(s, '"'); j >= 0 {
		return s[:j]
	}
	return ""
}

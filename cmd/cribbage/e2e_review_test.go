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
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/store"
)

// Review tests: play the bot as people would and hold what they see to
// the game: the table message, once things settle, is render.Table of the
// table as saved and always names whom it waits on; a card is one click
// from a held hand view; no hidden card shows where it should not; a
// killed process resumes without posting twice.

// shownTable is what a reader sees of a table message: its text (with
// the time of the last move) and its buttons, the picture aside.
type shownTable struct {
	Text    string
	Buttons []string
}

func shownOf(text string, comps []discordgo.MessageComponent) shownTable {
	s := shownTable{Text: text}
	for _, b := range discordtest.Buttons(comps) {
		s.Buttons = append(s.Buttons, fmt.Sprintf("%s|%s|%v", b.Label, b.CustomID, b.Disabled))
	}
	return s
}

func (s shownTable) String() string { b, _ := json.MarshalIndent(s, "", " "); return string(b) }

// reviewCurrent waits for the live surface and the story to settle and
// reports how the table message differs from render.Table of the table.
func reviewCurrent(h *harness, id int64) {
	h.t.Helper()
	h.settleLive()
	h.drain()
	h.settleLive()
	tb, msg := h.table(id), h.tableMessage(id)
	want := render.Table(lang.English, tb, msg.Board)
	w := shownOf(want.Text(), want.Components)
	var g shownTable
	deadline := time.Now().Add(3 * time.Second)
	for {
		m, ok := h.fake.Message(msg.MessageID)
		if !ok {
			h.t.Errorf("table %d: no table message %q", id, msg.MessageID)
			return
		}
		g = shownOf(m.Text(), m.Components)
		if g.String() == w.String() || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if g.String() != w.String() {
		h.t.Errorf("table %d (%s) settled behind the table:\nshows %s\nwant  %s", id, tb.Status, g, w)
	}
}

// reviewNoRepeats reports every edit of message id that left it showing
// exactly what it showed before (the fake's Edit.Identical: content,
// embeds, components and the attachments' bytes), and returns how many
// versions the message has had. An answer that repeats it is left out:
// the interaction had to be answered.
func reviewNoRepeats(h *harness, what, id string) int {
	h.t.Helper()
	return reviewNoRepeatsAfterKill(h, what, id, time.Time{})
}

// reviewNoRepeatsAfterKill is reviewNoRepeats for a message whose process
// was killed at killed (zero: none was). The new process may repeat once
// the last edit the killed one made of the message: Discord took that
// edit, but the process died before recording what the message showed
// (a few milliseconds a move), and the new one cannot tell it from an
// edit that never landed. Sending it again is the safe choice: leaving
// it out would leave the message behind the game when it did not land.
func reviewNoRepeatsAfterKill(h *harness, what, id string, killed time.Time) int {
	h.t.Helper()
	n := 0
	edits := h.fake.Edits(id)
	for i, e := range edits {
		if !e.Identical || e.Via == discordtest.ViaAnswer {
			continue
		}
		if !killed.IsZero() && i > 0 && edits[i-1].At.Before(killed) && !e.At.Before(killed) {
			continue // the killed process's last edit, sent again once
		}
		n++
		if n <= 2 {
			h.t.Errorf("%s %s: an edit repeats what it showed: %s", what, id, e)
		}
	}
	if n > 2 {
		h.t.Errorf("%s %s: %d edits in all repeat what it showed", what, id, n)
	}
	return len(h.fake.History(id))
}

func firstLines(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}

// reviewTurns checks every version of the table message while a game was
// played says whom it waits on.
func reviewTurns(h *harness, msg string) {
	h.t.Helper()
	for i, m := range h.fake.History(msg) {
		d := m.Text()
		if hasButton(m, "/hand/", false) && !strings.Contains(d, "Waiting for **") {
			h.t.Errorf("table message version %d, in play, names nobody to move:\n%s", i, d)
		}
	}
}

// playLive plays table id to the end from held hand views and checks each
// card took one click from the view.
func playLive(h *harness, id int64, msg string, people ...discordtest.User) *liveTable {
	h.t.Helper()
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(people...), views: map[string]string{}}
	for n := 0; l.step(); n++ {
		if n > 3000 {
			h.t.Fatal("the game did not end")
		}
	}
	// One Show my hand per person: every other click was a move.
	opens := 0
	for _, i := range h.fake.Interactions() {
		if strings.HasPrefix(discordtest.CustomID(i), "/hand/"+itoa64(id)) {
			opens++
		}
	}
	if opens > len(people) {
		h.t.Errorf("%d Show my hand presses for %d people: a view fell behind", opens, len(people))
	}
	return l
}

// reviewViews checks no held hand view is edited to what it showed.
func reviewViews(h *harness, l *liveTable) {
	h.t.Helper()
	for uid, v := range l.views {
		reviewNoRepeats(h, "hand view of "+l.people[uid].Name, v)
	}
}

// TestReviewQuickGamesShowWhoseTurn plays whole games with no think time
// from held hand views (two players; partnerships, but not under -short;
// a person against the easy and the strong computer): every card is one
// click, every version of the table message in play names whom it waits
// on, and once things settle it is render.Table of the table.
func TestReviewQuickGamesShowWhoseTurn(t *testing.T) {
	// The computers' search is many times the work under the race
	// detector: beside other games it would crowd out the views' edits.
	parallelUnlessRace(t)
	for _, c := range []struct {
		name     string
		opts     []discordtest.Opt
		people   []discordtest.User
		computer string
	}{
		{"two players", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice, bob}, ""},
		{"partnerships", quickKinds[1].opts, quickKinds[1].people, ""},
		{"against the easy computer", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice}, "easy"},
		{"against the strong computer", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice}, "strong"},
	} {
		if c.name == "partnerships" && testing.Short() {
			continue // -short plays two players, not also teams
		}
		t.Run(c.name, func(t *testing.T) {
			// Each game has a bot and a fake Discord of its own, and mostly
			// waits on the bot's pacing of the views' edits.
			parallelUnlessRace(t)
			if c.computer != "" && raceDetector {
				// Under the race detector the computer's moves and the
				// views' edits after them outlasted the quick player's
				// wait for a current view, 5 s then (CI failed it twice,
				// alone and beside other games); without the detector it
				// held, until another test run shared the two cores (see
				// eventuallyBound). Finding why a view lags that long
				// there is left to the live table's next work (issue 31).
				t.Skip("a quick game against the computer under the race detector")
			}
			h := newHarness(t)
			var id int64
			var msg string
			if c.computer != "" {
				id, msg = soloGame(t, h, c.computer, c.opts...)
			} else {
				id, msg = h.seat(tableKind{c.name, c.opts, c.people})
			}
			l := playLive(h, id, msg, c.people...)
			if h.table(id).Status != cribbage.StatusFinished {
				t.Fatalf("status %s", h.table(id).Status)
			}
			reviewCurrent(h, id)
			reviewTurns(h, msg)
			reviewNoRepeats(h, "table message", msg)
			reviewViews(h, l)
		})
	}
}

// reviewWaitsOnPerson checks a table opened after a commit has had its
// computers move: it waits on a person, and its message is current.
func reviewWaitsOnPerson(h *harness, id int64) {
	h.t.Helper()
	h.within(10*time.Second, "the computers to move at the new table", func() bool {
		tb := h.table(id)
		if tb.Status != cribbage.StatusPlaying {
			return true
		}
		for _, s := range tb.Waiting() {
			if tb.Seats[s].Computer != "" {
				return false
			}
		}
		return true
	})
	h.postedTableMessage(id)
	// A table opened by a change (a match's next game, a tournament's) has
	// its message posted from the outbox with the table read before its
	// computers moved; the post touches the table, so the message catches
	// up with them.
	reviewCurrent(h, id)
}

// TestReviewRematchAndMatchAgainstTheComputer: a rematch between two
// people opens a table waiting on them; a best of 3 against the computer
// opens each next game by itself with the computer's moves made after the
// commit, and a rematch of the computer starts at once.
func TestReviewRematchAndMatchAgainstTheComputer(t *testing.T) {
	// The computers' search is many times the work under the race
	// detector: beside other games it would crowd out the views' edits.
	parallelUnlessRace(t)
	h := newHarness(t)
	// A rematch between two people.
	g := h.resignedGame(alice, bob, bob)
	h.click(alice, h.tableMessage(g).MessageID, "/rematch/"+itoa64(g))
	reviewCurrent(h, g)
	h.click(bob, h.tableMessage(g).MessageID, "/rematch/"+itoa64(g))
	next := h.table(g).RematchID
	if next == 0 {
		t.Fatalf("no rematch after both said yes")
	}
	reviewCurrent(h, g)
	reviewWaitsOnPerson(h, next)
	reviewNoRepeats(h, "rematch's table message", h.tableMessage(next).MessageID)
	reviewNoRepeats(h, "first game's table message", h.tableMessage(g).MessageID)

	// A best of 3 against the computer: each next game opens and the
	// computer moves after the commit.
	id, msg := h.open(carol, discordtest.Opt{Name: "computer", Value: "easy"}, discordtest.Opt{Name: "match", Value: 3})
	if a := h.click(carol, msg, "/begin/"+itoa64(id)); a.Ephemeral() {
		t.Fatalf("Start refused: %s", a.Content())
	}
	for game := 1; ; game++ {
		reviewWaitsOnPerson(h, id)
		tb := h.table(id)
		if tb.Status != cribbage.StatusPlaying {
			t.Fatalf("game %d: %s", game, tb.Status)
		}
		h.resignAt(carol, id, false)
		reviewCurrent(h, id)
		if h.table(id).RematchID == 0 {
			break
		}
		if game > 3 {
			t.Fatal("the match goes on past three games")
		}
		id, _ = h.matchGameOf(id)
	}
	final := h.table(id)
	if final.Match == nil || !final.Match.Over() {
		t.Fatalf("match not over: %+v", final.Match)
	}
	// Rematch the computer.
	a := h.click(carol, h.tableMessage(id).MessageID, "/rematch/"+itoa64(id))
	if strings.Contains(a.Content(), "⚠️") {
		t.Fatalf("rematch of the computer: %q", a.Content())
	}
	r := h.table(id).RematchID
	if r == 0 {
		t.Fatal("a rematch of the computer did not start at once")
	}
	reviewCurrent(h, id)
	reviewWaitsOnPerson(h, r)
	h.noIdenticalEdits()
}

// TestReviewTournamentWithComputers: Alice and three computer entrants,
// two rounds and a playoff; Alice resigns what she is given, the
// computers play theirs after the commits, and the tournament message
// comes to name the champion, every table closed.
func TestReviewTournamentWithComputers(t *testing.T) {
	// The computers' search is many times the work under the race
	// detector: beside other games it would crowd out the views' edits.
	parallelUnlessRace(t)
	h := newHarness(t)
	tr := h.openTournament(discordtest.Opt{Name: "games-per-round", Value: 1}, discordtest.Opt{Name: "rounds", Value: 2})
	h.signUp(tr, alice)
	h.admin(ada, "tournament computers", discordtest.Opt{Name: "count", Value: 3})
	if a := h.admin(ada, "tournament start"); !strings.Contains(a.Content(), "has begun") {
		t.Fatalf("the start: %q", a.Content())
	}
	n := h.playTournament(tr.ID, usersOf(alice), func(tb *cribbage.Table, u discordtest.User) bool {
		reviewWaitsOnPerson(h, tb.ID)
		return false
	})
	done := h.tournament(tr.ID)
	if n == 0 {
		t.Error("Alice was given no game")
	}
	h.whileMoving(tr.ID, "the champion", func() bool { return h.tournament(tr.ID).Champion != "" })
	done = h.tournament(tr.ID)
	h.within(10*time.Second, "the champion on the message", func() bool {
		return strings.Contains(h.tournamentMessage(tr.ID), "champion: "+done.Entrant(done.Champion).Name)
	})
	h.settleLive()
	h.drain()
	reviewNoRepeats(h, "tournament message", h.tournamentMessageID(done.ID))
	for _, tb := range h.tournamentTables(tr.ID) {
		if h.tableMessage(tb.ID).MessageID != "" {
			reviewCurrent(h, tb.ID)
		}
		if tb.Status.Open() {
			t.Errorf("tournament table %d still %s", tb.ID, tb.Status)
		}
	}
}

// TestReviewCancelAndLapse: an admin cancels a game in play, and the
// table message and both held views say so, with no buttons left; a lobby
// nobody joins closes after a day and its message says so.
func TestReviewCancelAndLapse(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.seat(tableKind{"two", nil, []discordtest.User{alice, bob}})
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(alice, bob), views: map[string]string{}}
	for range 4 {
		l.step()
	}
	a := h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: id}, discordtest.Opt{Name: "reason", Value: "review"})
	if !strings.Contains(a.Content(), "is cancelled") {
		t.Fatalf("cancel: %q", a.Content())
	}
	reviewCurrent(h, id)
	reviewNoRepeats(h, "cancelled table message", msg)
	for uid, v := range l.views {
		m, _ := h.fake.Message(v)
		if !strings.Contains(m.Text(), "cancelled") || len(discordtest.Buttons(m.Components)) != 0 {
			t.Errorf("%s's view after the cancel:\n%s", l.people[uid].Name, m.Text())
		}
		reviewNoRepeats(h, "cancelled view", v)
	}
	// A lobby that lapses.
	lid, lmsg := h.open(carol)
	h.fake.Advance(25 * time.Hour)
	h.wantStatus("a lobby a day old", lid, cribbage.StatusClosed)
	reviewCurrent(h, lid)
	reviewNoRepeats(h, "lapsed lobby", lmsg)
	if m, _ := h.fake.Message(lmsg); !strings.Contains(m.Text(), "closed without a game") || len(discordtest.Buttons(m.Components)) != 0 {
		t.Errorf("the lapsed lobby shows:\n%s", m.Text())
	}
}

// TestReviewNextGameMessageShowsTheComputersMoves: a best-of-3 against
// the computer; game 1 resigned, game 2 opens by itself, the computer
// throws after the commit, and the new table message must come to show
// it (waiting on the person alone) with nobody clicking.
func TestReviewNextGameMessageShowsTheComputersMoves(t *testing.T) {
	// The computers' search is many times the work under the race
	// detector: beside other games it would crowd out the views' edits.
	parallelUnlessRace(t)
	h := newHarness(t)
	id, msg := h.open(carol, discordtest.Opt{Name: "computer", Value: "easy"}, discordtest.Opt{Name: "match", Value: 3})
	if a := h.click(carol, msg, "/begin/"+itoa64(id)); a.Ephemeral() {
		t.Fatalf("Start refused: %s", a.Content())
	}
	h.resignAt(carol, id, false)
	next, _ := h.matchGameOf(id)
	reviewWaitsOnPerson(h, next)
}

// reviewCatchesUp waits for the table message to show render.Table of
// the table as saved, polling (a replica's harness has no metrics).
func reviewCatchesUp(h *harness, id int64, d time.Duration) {
	h.t.Helper()
	var g, w shownTable
	deadline := time.Now().Add(d)
	for {
		tb, msg := h.table(id), h.tableMessage(id)
		want := render.Table(lang.English, tb, msg.Board)
		w = shownOf(want.Text(), want.Components)
		m, _ := h.fake.Message(msg.MessageID)
		g = shownOf(m.Text(), m.Components)
		if g.String() == w.String() {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	h.t.Errorf("table %d's message did not catch up:\nshows %s\nwant  %s", id, g, w)
}

// reviewPostedOnce checks no story post, and no hand's record, is in the
// thread twice.
func reviewPostedOnce(h *harness, id int64) {
	h.t.Helper()
	seen := map[string]int{}
	titles := map[string]int{}
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		seen[m.Text()]++
		for _, text := range discordtest.TextDisplays(m.Components) {
			if title, _, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(title, "### ") {
				titles[title]++
			}
		}
	}
	for text, n := range seen {
		if n > 1 {
			h.t.Errorf("posted %d times:\n%s", n, firstLines(text, 3))
		}
	}
	for title, n := range titles {
		if n > 1 {
			h.t.Errorf("%q's record is in %d posts", title, n)
		}
	}
}

// TestReviewAKillMidGameResumes: a bot process killed (SIGKILL) the moment
// a card is answered, its live edits and story under way, is started
// again on the same file: the table message catches up by itself, the
// views held open keep working to the end, and nothing is posted twice.
func TestReviewAKillMidGameResumes(t *testing.T) {
	t.Parallel()
	for _, at := range []int{2, 15} {
		t.Run(fmt.Sprint("after ", at, " moves"), func(t *testing.T) {
			t.Parallel() // each has its own fake Discord, file and processes
			killAfter(t, at)
		})
	}
}

func killAfter(t *testing.T, moves int) {
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
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.store = st
	id, msg := h.seat(tableKind{"two", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice, bob}})
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(alice, bob), views: map[string]string{}}
	for range moves {
		l.step()
	}
	first.Process.Kill()
	first.Wait()
	// The kill's moment on the clock the fake dates edits by, once every
	// request the killed process sent is in: read before the kill, an
	// edit its live pass sent meanwhile came after it, and the new
	// process's one repeat of that edit (see reviewNoRepeatsAfterKill)
	// was taken for a second.
	fake.Requests()
	killed := fake.Now()
	_, endpoint = startReplica(t, fake, path)
	fake.DeliverOverHTTP(endpoint)
	reviewCatchesUp(h, id, 15*time.Second)
	for n := 0; l.step(); n++ {
		if n > 2000 {
			t.Fatal("the game did not end")
		}
	}
	h.drain()
	reviewCatchesUp(h, id, 15*time.Second)
	reviewPostedOnce(h, id)
	reviewNoRepeatsAfterKill(h, "table message", msg, killed)
	for uid, v := range l.views {
		reviewNoRepeatsAfterKill(h, "hand view of "+l.people[uid].Name, v, killed)
	}
}

// reviewHidden checks, at the table as it stands, that no card still
// hidden (in a hand, or thrown to the crib) shows on the table message,
// or on another seat's hand view, of the same hand.
func reviewHidden(h *harness, l *liveTable) {
	h.t.Helper()
	tb := h.table(l.id)
	g := tb.State
	if tb.Status != cribbage.StatusPlaying || g.Phase != engine.PhaseDiscard && g.Phase != engine.PhasePlay {
		return
	}
	hidden := func(seat int) []string {
		var out []string
		for _, c := range (g.Remaining(seat) | g.Discards[seat]).Cards() {
			out = append(out, c.Display())
		}
		return out
	}
	m, _ := h.fake.Message(h.tableMessage(l.id).MessageID)
	if text := m.Text(); strings.Contains(text, fmt.Sprintf("Hand %d ·", g.HandNo)) {
		for seat := range tb.Seats {
			for _, c := range hidden(seat) {
				if strings.Contains(text, c) {
					h.t.Errorf("the table message shows %s's hidden %s:\n%s", tb.Seats[seat].Name, c, text)
				}
			}
		}
	}
	for uid, v := range l.views {
		mine := tb.SeatOf(uid)
		vm, _ := h.fake.Message(v)
		text := vm.Text()
		if i := strings.Index(text, "**Your hand**"); i >= 0 {
			text = text[i:]
		}
		if !strings.Contains(text, fmt.Sprintf("hand %d ·", g.HandNo)) {
			continue
		}
		for seat := range tb.Seats {
			if seat == mine {
				continue
			}
			for _, c := range hidden(seat) {
				if strings.Contains(text, c) {
					h.t.Errorf("%s's view shows %s's hidden %s:\n%s", l.people[uid].Name, tb.Seats[seat].Name, c, text)
				}
			}
		}
	}
}

// TestReviewNothingHiddenShown plays a two-player game and a partnership
// game (under -short the two-player one) from held views, checking after
// every move that no card still in a hand or thrown to the crib shows on
// the table message, or on another seat's view, of the same hand.
func TestReviewNothingHiddenShown(t *testing.T) {
	t.Parallel()
	for _, k := range shortKinds([]tableKind{{"two", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice, bob}}, quickKinds[1]}) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			id, msg := h.seat(k)
			l := &liveTable{h: h, id: id, msg: msg, people: usersOf(k.people...), views: map[string]string{}}
			for n := 0; l.step(); n++ {
				reviewHidden(h, l)
				time.Sleep(5 * time.Millisecond)
				reviewHidden(h, l)
				if n > 2000 {
					t.Fatal("the game did not end")
				}
			}
		})
	}
}

// showsNow reports whether a hand view shows seat's view of the table as
// it stands: its buttons carry the seat's current view version.
func showsNow(m discordtest.Message, tb *cribbage.Table, seat int) bool {
	ver := "/" + click.ViewVersion(tb.State.ViewFor(seat)) + "/"
	for _, b := range discordtest.Buttons(m.Components) {
		if strings.Contains(b.CustomID, ver) {
			return true
		}
	}
	return false
}

// TestReviewBothThrowAtOnce: both players confirm their discards at the
// same instant from their held views, hand after hand. Both throws count,
// and each held view comes to show the table as it stands by itself: an
// answer that lands after a live edit of a newer version must not leave
// the view behind (it said "Waiting for Bob to throw" on Alice's turn).
func TestReviewBothThrowAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.seat(tableKind{"two", []discordtest.Opt{{Name: "points", Value: 61}}, []discordtest.User{alice, bob}})
	l := &liveTable{h: h, id: id, msg: msg, people: usersOf(alice, bob), views: map[string]string{}}
	current := func(u discordtest.User) discordtest.Message {
		t.Helper()
		var m discordtest.Message
		h.eventuallyHurried(u.Name+"'s held view to show the table as it stands", func() bool {
			tb := h.table(id)
			m, _ = h.fake.Message(l.views[u.ID])
			return tb.Status != cribbage.StatusPlaying || showsNow(m, tb, tb.SeatOf(u.ID))
		})
		return m
	}
	for hands := 0; h.table(id).Status == cribbage.StatusPlaying; {
		tb := h.table(id)
		if g := tb.State; g.Phase == engine.PhasePlay {
			u := l.people[tb.Seats[g.Turn].UserID]
			m := current(u)
			b, ok := button(t, m.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/play/") && !b.Disabled })
			if !ok {
				t.Fatalf("%s's current view offers no card:\n%s", u.Name, m.Text())
			}
			l.click(u, b.CustomID, g.HandNo)
			continue
		} else if g.Phase != engine.PhaseDiscard {
			t.Fatalf("phase %v", g.Phase)
		}
		hands++
		// Each chooses two cards on their own view, then both confirm at once.
		confirms := map[string]string{}
		for _, u := range []discordtest.User{alice, bob} {
			m := l.view(u, func(m discordtest.Message) bool { return hasButton(m, "/sel/", false) })
			comps := m.Components
			for range 2 {
				b, _ := button(t, comps, func(b discordgo.Button) bool {
					return strings.HasPrefix(b.CustomID, "/sel/") && b.Style == discordgo.SecondaryButton
				})
				comps = l.press(u, l.views[u.ID], b.CustomID).Response.Data.Components
			}
			c, _ := button(t, comps, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/discard/") })
			confirms[u.ID] = c.CustomID
		}
		done := make(chan string, 2)
		for _, u := range []discordtest.User{alice, bob} {
			go func() {
				a, err := h.fake.Interact(context.Background(), discordtest.Click(testGuild, testChannel, u, l.views[u.ID], confirms[u.ID]))
				if err != nil {
					done <- err.Error()
					return
				}
				done <- a.Content()
			}()
		}
		for range 2 {
			if c := <-done; strings.Contains(c, "⚠️") {
				t.Errorf("hand %d: a simultaneous throw answered %q", hands, c)
			}
		}
		if tb := h.table(id); tb.Status == cribbage.StatusPlaying && tb.State.Phase == engine.PhaseDiscard {
			t.Fatalf("hand %d: still in the discard after both threw: waiting %v", hands, tb.State.Waiting())
		}
		current(alice)
		current(bob)
	}
	reviewCurrent(h, id)
	reviewTurns(h, msg)
}

// TestReviewResultComesBeforeTheRematchOffer: Bob resigns and Alice
// offers a rematch at once. The thread must read in order: the game's end,
// then the offer. Known problem: both go out in one message, the offer as
// its content and the hand's record (with the result) as its embed, which
// Discord shows below the content: the offer reads before the result.
func TestReviewResultComesBeforeTheRematchOffer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	g := h.resignedGame(alice, bob, bob)
	h.click(alice, h.tableMessage(g).MessageID, "/rematch/"+itoa64(g))
	h.drain()
	var order []string
	for _, m := range h.fake.ChannelMessages(h.tableMessage(g).ThreadID) {
		// Discord shows a message's content above its embeds.
		for _, part := range append([]string{m.Content}, discordtest.TextDisplays(m.Components)...) {
			switch {
			case strings.Contains(part, "offers a rematch"):
				order = append(order, "offer")
			case strings.Contains(part, "wins"):
				order = append(order, "result")
			}
		}
	}
	if fmt.Sprint(order) != "[result offer]" {
		t.Errorf("the thread reads %v, want the result, then the offer", order)
	}
}

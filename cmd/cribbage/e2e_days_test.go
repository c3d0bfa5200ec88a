package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/rating"
)

// countIn counts the table's story messages containing s.
func (h *harness) countIn(id int64, s string) int {
	h.drain()
	n := 0
	t, msg := h.table(id), h.tableMessage(id)
	for _, ch := range []string{msg.ThreadID, t.ChannelID} {
		for _, m := range h.fake.ChannelMessages(ch) {
			// Announcements, not the table message, which shows the table.
			if m.ID != msg.MessageID && strings.Contains(m.Text(), s) {
				n++
			}
		}
	}
	return n
}

// settle waits until the bot has checked its timers at the fake's current
// time (or later), so whatever was due has fired, and its announcements
// are delivered: an explicit sync point, not a sleep.
func (h *harness) settle() {
	h.t.Helper()
	now := h.fake.Now().UnixNano()
	h.eventually("a check of the timers", func() bool { return h.timersAt.Load() >= now })
	h.drain()
}

// settleShown is settle, and then waits until the live surface has shown
// what the timers changed: the table messages a fired timer touched are
// edited by then (cribbage_live_pending is 0), so a test checks them once
// instead of polling for what the fake clock decided.
func (h *harness) settleShown() {
	h.t.Helper()
	h.settle()
	h.settleLive()
}

// wantClaimButton checks, once what the timers changed is shown, that the
// table message msg offers Claim the win.
func (h *harness) wantClaimButton(msg string) {
	h.t.Helper()
	h.settleShown()
	m, _ := h.fake.Message(msg)
	if _, ok := button(h.t, m.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/claimwin/") }); !ok {
		h.t.Fatalf("no Claim button on the table message once the forfeit was due:\n%s", m.Text())
	}
}

// wantStatus checks, once the bot has checked its timers at the fake's
// current time, that table id is status.
func (h *harness) wantStatus(what string, id int64, status cribbage.Status) {
	h.t.Helper()
	h.settle()
	if got := h.table(id).Status; got != status {
		h.t.Fatalf("%s: table %d is %s once the timers were checked, want %s", what, id, got, status)
	}
}

// wantAnnounced checks, once the bot has checked its timers at the fake's
// current time and delivered what they announced (settle), that n of a
// table's story messages contain text. Polling for the message instead
// would wait on the wall clock for what the fake clock decides, and a
// drain of a busy channel's story could take the whole wait.
func (h *harness) wantAnnounced(what string, id int64, text string, n int) {
	h.t.Helper()
	h.settle()
	if got := h.countIn(id, text); got != n {
		h.t.Fatalf("%s: %d messages with %q, want %d", what, got, text, n)
	}
}

func TestRemindersComeAfterThePeriodAndNotBefore(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, _ := twoPlayerGame(t, h)
	mover, _ := h.turnUser(id)
	h.fake.Advance(11 * time.Hour)
	h.settle()
	if n := h.countIn(id, "⏰"); n != 0 {
		t.Fatalf("%d reminders after 11 hours", n)
	}
	h.fake.Advance(2 * time.Hour)
	h.wantAnnounced("a reminder", id, "⏰", 1)
	h.fake.Advance(time.Hour)
	h.settle()
	if n := h.countIn(id, "⏰"); n != 1 {
		t.Fatalf("%d reminders an hour after the first", n)
	}
	h.fake.Advance(12 * time.Hour)
	h.wantAnnounced("a second reminder", id, "⏰", 2)

	// The reminder mentions the player, and notifies only them.
	var reminder struct {
		Content         string `json:"content"`
		AllowedMentions struct {
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	for _, r := range h.fake.Requests() {
		if strings.Contains(string(r.Body), "⏰") {
			json.Unmarshal(r.Body, &reminder)
		}
	}
	if !strings.Contains(reminder.Content, "<@"+mover.ID+">") || len(reminder.AllowedMentions.Users) != 1 || reminder.AllowedMentions.Users[0] != mover.ID {
		t.Errorf("reminder %+v", reminder)
	}
}

func TestAReminderDueDuringARestartFiresOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, _ := twoPlayerGame(t, h)
	h.stopBot()
	h.fake.Advance(13 * time.Hour)
	h.startBot()
	h.wantAnnounced("the reminder after the restart", id, "⏰", 1)
	h.stopBot()
	h.startBot()
	h.settle()
	if n := h.countIn(id, "⏰"); n != 1 {
		t.Errorf("%d reminders after a second restart", n)
	}
}

func TestForfeitIsClaimedByTheWaitingOpponentOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	mover, waiter := h.turnUser(id)
	if a := h.click(waiter, msg, "/claimwin/"+itoa64(id)); !strings.Contains(a.Content(), "too soon") {
		t.Errorf("claim before the time: %q", a.Content())
	}
	h.fake.Advance(7*24*time.Hour + time.Minute)
	h.wantAnnounced("the forfeit offer", id, "Claim the win", 1)
	h.wantClaimButton(msg)
	if a := h.click(mover, msg, "/claimwin/"+itoa64(id)); !a.Ephemeral() || h.table(id).Status != cribbage.StatusPlaying {
		t.Errorf("the player who kept the table waiting claimed it: %q", a.Content())
	}
	if a := h.click(eve, msg, "/claimwin/"+itoa64(id)); !strings.Contains(a.Content(), "not seated") {
		t.Errorf("a stranger claimed: %q", a.Content())
	}
	h.click(waiter, msg, "/claimwin/"+itoa64(id))
	final := h.table(id)
	r := final.State.Result
	if final.Status != cribbage.StatusFinished || r.Reason != engine.ReasonForfeit || final.Seats[r.Winner].UserID != waiter.ID || r.Games != 1 {
		t.Fatalf("after the claim: %s %+v", final.Status, r)
	}
	board, _ := h.store.Leaderboard(context.Background(), testGuild, 0, fromZero())
	if len(board) != 2 || board[0].UserID != waiter.ID || board[0].GamesWon != 1 || board[1].SkunksTaken != 0 {
		t.Errorf("leaderboard %+v", board)
	}
}

// TestALatePlayerCannotClaimTheWin: the win by forfeit goes only to a
// side the table is not waiting on. At three players Alice and Carol have
// not thrown for eight days, Bob has: Alice's claim is refused and changes
// nothing, Bob's wins. At two players with both late, neither can claim.
func TestALatePlayerCannotClaimTheWin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		people  []discordtest.User
		opts    []discordtest.Opt
		thrown  []discordtest.User
		refused []discordtest.User
		winner  *discordtest.User
	}{
		{"three players", []discordtest.User{alice, bob, carol}, []discordtest.Opt{{Name: "players", Value: 3}},
			[]discordtest.User{bob}, []discordtest.User{alice, carol}, &bob},
		{"two players, both late", []discordtest.User{alice, bob}, nil, nil, []discordtest.User{alice, bob}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Over HTTP, as the other tests of forfeits run on the gateway.
			h := newHarnessWith(t, func(h *harness) { h.overHTTP = true })
			id, msg := h.seat(tableKind{tc.name, tc.opts, tc.people})
			for _, u := range tc.thrown {
				h.discard(u, msg, id, h.table(id).Options.DiscardSize())
			}
			// The table message is brought up to date before the week
			// passes: this test is about claims, and an edit still in
			// flight when the clock jumps a week can be retried with its
			// board already read, a fault of the edit path of its own.
			h.drain()
			h.fake.Advance(8 * 24 * time.Hour)
			h.settle()
			version := h.table(id).Version
			for _, u := range tc.refused {
				a := h.click(u, msg, "/claimwin/"+itoa64(id))
				if !a.Ephemeral() || !strings.Contains(a.Content(), "waiting for your side") {
					t.Errorf("%s, who kept the table waiting, claimed: %q", u.Name, a.Content())
				}
			}
			if tb := h.table(id); tb.Status != cribbage.StatusPlaying || tb.Version != version {
				t.Fatalf("after the refused claims: %s, version %d (was %d)", tb.Status, tb.Version, version)
			}
			if tc.winner == nil {
				return
			}
			h.click(*tc.winner, msg, "/claimwin/"+itoa64(id))
			final := h.table(id)
			if r := final.State.Result; final.Status != cribbage.StatusFinished || r.Reason != engine.ReasonForfeit || final.Seats[r.Winner].UserID != tc.winner.ID {
				t.Fatalf("after %s's claim: %s %+v", tc.winner.Name, final.Status, r)
			}
		})
	}
}

func TestAbandonedLobbyIsClosedAndSaysSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, _ := h.open(alice)
	h.fake.Advance(23 * time.Hour)
	h.settle()
	if h.table(id).Status != cribbage.StatusLobby {
		t.Fatal("closed before a day")
	}
	h.fake.Advance(2 * time.Hour)
	h.wantStatus("a lobby a day old", id, cribbage.StatusClosed)
	if n := h.countIn(id, "closed"); n != 1 {
		t.Errorf("%d announcements of the closing", n)
	}
}

func TestGamesListAndRematch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	mover, _ := h.turnUser(id)
	a := h.command(mover, "games")
	if !a.Ephemeral() || !strings.Contains(a.Content(), "your turn") || !strings.Contains(a.Content(), "discord.com/channels/"+testGuild+"/"+testChannel+"/"+msg) {
		t.Errorf("games: %q", a.Content())
	}
	h.playToEnd(id, msg, usersOf(alice, bob))
	prev := h.table(id)
	// Bob offers a rematch: Alice is asked in the thread, and pinged.
	offer := h.click(bob, msg, "/rematch/"+itoa64(id))
	if offer.Ephemeral() || offer.Response.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("the offer answered %+v", offer.Response)
	}
	if _, ok := button(t, offer.Response.Data.Components, func(b discordgo.Button) bool { return b.CustomID == "/norematch/"+itoa64(id) }); !ok {
		t.Errorf("no Decline on the table message after the offer: %+v", offer.Response.Data.Components)
	}
	asked := h.postsPinging(id, alice.ID, "offers a rematch")
	if asked != 1 || h.table(id).RematchID != 0 {
		t.Fatalf("%d posts ask Alice; rematch %d made before she accepted", asked, h.table(id).RematchID)
	}
	if a := h.click(eve, msg, "/rematch/"+itoa64(id)); !strings.Contains(a.Content(), "Only the players of this game") {
		t.Errorf("stranger's rematch: %q", a.Content())
	}
	h.click(alice, msg, "/rematch/"+itoa64(id))
	next := h.table(id).RematchID
	if next == 0 {
		t.Fatal("Alice accepted and no rematch was made")
	}
	nmsg := h.postedTableMessage(next)
	nt := h.table(next)
	if nt.Status != cribbage.StatusPlaying || nt.Seats[0].UserID != prev.Seats[0].UserID || nt.Seats[1].UserID != prev.Seats[1].UserID || nt.HostID != bob.ID {
		t.Fatalf("rematch table %s, seats %+v, host %s", nt.Status, nt.Seats, nt.HostID)
	}
	if nt.State.Dealer != (prev.State.Dealer+1)%2 {
		t.Errorf("rematch dealer %d after %d", nt.State.Dealer, prev.State.Dealer)
	}
	h.eventually("the rematch's thread", func() bool { return h.tableMessage(next).ThreadID != "" })
	if !h.threadSays(next, "**Rematch** of table "+itoa64(id)) {
		t.Error("the rematch's thread does not say what it is")
	}
	if n := h.tableMessages(next); n != 1 {
		t.Errorf("%d table messages for the rematch (%s)", n, nmsg)
	}
}

// postedTableMessage waits for the bot to post the message of a table no
// interaction answers with (a rematch, a match's next game) and returns
// its id.
func (h *harness) postedTableMessage(id int64) string {
	h.t.Helper()
	h.eventually("the table message posted", func() bool { return h.tableMessage(id).MessageID != "" })
	return h.tableMessage(id).MessageID
}

// postsPinging counts the table's story posts containing text that
// notified the user userID.
func (h *harness) postsPinging(id int64, userID, text string) int {
	h.drain()
	n := 0
	t, msg := h.table(id), h.tableMessage(id)
	for _, ch := range []string{msg.ThreadID, t.ChannelID} {
		for _, m := range h.fake.ChannelMessages(ch) {
			if m.ID != msg.MessageID && strings.Contains(m.Text(), text) && slices.Contains(m.Notified, userID) {
				n++
			}
		}
	}
	return n
}

// resignedGame plays a quick game between host and guest that loser
// concedes once they have thrown to the crib (a resignation before any
// card rates nobody), and returns the table.
func (h *harness) resignedGame(host, guest, loser discordtest.User) int64 {
	h.t.Helper()
	id, msg := h.open(host)
	h.click(guest, msg, "/join/"+itoa64(id))
	h.discard(loser, msg, id, 2)
	h.fake.Advance(time.Minute) // keep finishing times in order
	a := h.command(loser, "resign", discordtest.Opt{Name: "table", Value: id})
	b, ok := button(h.t, a.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/resign/") })
	if !ok {
		h.t.Fatalf("no Resign button: %q", a.Content())
	}
	h.click(loser, a.MessageID, b.CustomID)
	return id
}

// TestLeaderboardAndStatsThroughDiscord checks the leaderboard and stats
// as players see them after four games with known results:
// Alice beats Bob twice (Bob resigns), Carol beats Alice, and — last —
// Alice beats Carol. By hand: Alice 4 games, 3–1; Carol 2 games, 1–1;
// Bob 2 games, 0–2. Their ratings are those games rated in order from
// newcomers' (rating.Game), all still provisional. Alice's latest result
// is a win (streak: won 1), and she is 2–0 against Bob.
func TestLeaderboardAndStatsThroughDiscord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.resignedGame(alice, bob, bob)
	h.resignedGame(bob, alice, bob)
	h.resignedGame(carol, alice, alice)
	h.resignedGame(alice, carol, carol)
	cfg := rating.Config{}
	a, b, c := cfg.Newcomer(), cfg.Newcomer(), cfg.Newcomer()
	a, b = rating.Game(a, b, rating.Win, cfg)
	a, b = rating.Game(a, b, rating.Win, cfg)
	c, a = rating.Game(c, a, rating.Win, cfg)
	a, c = rating.Game(a, c, rating.Win, cfg)
	whole := func(f float64) int { return int(math.Round(f)) }

	lb := h.club(dan, "leaderboard", discordtest.Opt{Name: "period", Value: "all"})
	_, desc := panelOf(lb)
	for _, want := range []string{
		fmt.Sprintf("**1.** Alice · **%d?** · 3–1 · 4 games", whole(a.R)),
		fmt.Sprintf("**2.** Carol · **%d?** · 1–1 · 2 games", whole(c.R)),
		fmt.Sprintf("**3.** Bob · **%d?** · 0–2 · 2 games", whole(b.R)),
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("leaderboard lacks %q:\n%s", want, desc)
		}
	}
	st := h.club(dan, "stats", discordtest.Opt{Name: "user", Value: alice}, discordtest.Opt{Name: "vs", Value: bob})
	var fields []string
	for _, f := range st.Response.Data.Embeds[0].Fields {
		fields = append(fields, f.Name+": "+f.Value)
	}
	got := strings.Join(fields, "\n")
	for _, want := range []string{
		fmt.Sprintf("Rating · season 1: **%d** ± %d (provisional) · 4 games", whole(a.R), whole(a.RD)),
		"Against people: 4 games · 3 wins · 1 losses · 3 games won",
		"Streak: won 1 in a row",
		"Against Bob: 2 games: 2–0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stats lack %q:\n%s", want, got)
		}
	}
	// The week's board holds the same games; a year later it is empty.
	h.fake.Advance(365 * 24 * time.Hour)
	if _, body := panelOf(h.club(dan, "leaderboard", discordtest.Opt{Name: "period", Value: "week"})); !strings.Contains(body, "No games between people") {
		t.Errorf("last week's board a year on: %s", body)
	}
}

// TestTheWaitCountsFromTheTurnNotTheLastMove: both players throw to the
// crib from the deal on; Alice throwing six hours later does not restart
// Bob's wait, so he is reminded 12 hours after the deal.
func TestTheWaitCountsFromTheTurnNotTheLastMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.open(alice)
	h.click(bob, msg, "/join/"+itoa64(id))
	h.fake.Advance(6 * time.Hour)
	h.discard(alice, msg, id, 2)
	if w := h.table(id).State.Waiting(); len(w) != 1 || h.table(id).Seats[w[0]].UserID != bob.ID {
		t.Fatalf("waiting on %v", w)
	}
	h.fake.Advance(6*time.Hour + time.Minute)
	h.wantAnnounced("Bob's reminder 12 hours after the deal", id, "⏰", 1)
}

// TestSimultaneousRematchClicksMakeOneGame: both players press Rematch at
// once; one offers and the other's click accepts it, so one new table is
// made, with one table message.
func TestSimultaneousRematchClicksMakeOneGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id := h.resignedGame(alice, bob, bob)
	msg := h.tableMessage(id).MessageID
	clicks := []*discordgo.Interaction{
		h.fake.Prepare(discordtest.Click(testGuild, testChannel, alice, msg, "/rematch/"+itoa64(id))),
		h.fake.Prepare(discordtest.Click(testGuild, testChannel, bob, msg, "/rematch/"+itoa64(id))),
	}
	answers := make([]discordtest.Answer, len(clicks))
	var wg sync.WaitGroup
	for k, i := range clicks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			a, err := h.fake.Send(ctx, i)
			if err != nil {
				t.Error(err)
			}
			answers[k] = a
		}()
	}
	wg.Wait()
	for _, a := range answers {
		if a.Ephemeral() {
			t.Errorf("a click was refused: %q", a.Content())
		}
	}
	next := h.table(id).RematchID
	if next == 0 {
		t.Fatal("no rematch after both clicked")
	}
	h.postedTableMessage(next)
	h.drain()
	tables, _ := h.store.ChannelTables(context.Background(), testChannel)
	if len(tables) != 1 || tables[0].ID != next || h.tableMessages(next) != 1 {
		t.Errorf("open tables %d, rematch %d with %d table messages", len(tables), next, h.tableMessages(next))
	}
}

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// Challenges and matches through the fake Discord: a challenge is a new
// public message that pings the person challenged alone, whose buttons
// answer them alone; a match plays its games one table after another
// until a side has won a majority, and the records count each game as
// README says.

// challengeOf returns the table a challenge's answer posted.
func (h *harness) challengeOf(a discordtest.Answer) (int64, string) {
	h.t.Helper()
	if a.Ephemeral() || a.MessageID == "" {
		h.t.Fatalf("the challenge answered %q privately", a.Content())
	}
	id := tableIDFrom(h.t, a.Response.Data.Components, "/accept/")
	h.eventually("the challenge's message recorded", func() bool { return h.tableMessage(id).MessageID == a.MessageID })
	return id, a.MessageID
}

// TestAChallengeIsAcceptedByTheOneChallenged: Alice challenges Bob to a
// 61-point game. The challenge is a new message in the channel that pings
// Bob and nobody else; Eve cannot take his seat or answer for him; Bob
// accepts and the game starts, with its thread.
func TestAChallengeIsAcceptedByTheOneChallenged(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a := h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}, discordtest.Opt{Name: "points", Value: 61})
	id, msg := h.challengeOf(a)
	m, _ := h.fake.Message(msg)
	if !slices.Equal(m.Notified, []string{bob.ID}) || !strings.Contains(m.Text(), "<@"+bob.ID+">") {
		t.Errorf("the challenge pinged %v: %q", m.Notified, m.Text())
	}
	tb := h.table(id)
	if tb.Status != cribbage.StatusLobby || tb.Challenge == nil || tb.Challenge.UserID != bob.ID || tb.Options.Target != 61 || tb.Match != nil {
		t.Fatalf("the challenge's table: %s, %+v, %d points", tb.Status, tb.Challenge, tb.Options.Target)
	}
	for _, try := range []struct {
		who          discordtest.User
		action, want string
	}{
		{eve, "/accept/", "for someone else"},
		{eve, "/decline/", "for someone else"},
		{alice, "/accept/", "for someone else"},
		{bob, "/withdraw/", "Only the challenger"},
		{eve, "/join/", "held for the person challenged"},
	} {
		r := h.click(try.who, msg, try.action+itoa64(id))
		if !r.Ephemeral() || !strings.Contains(r.Content(), try.want) {
			t.Errorf("%s pressing %s: %q", try.who.Name, try.action, r.Content())
		}
	}
	if tb := h.table(id); tb.Status != cribbage.StatusLobby || len(tb.Seats) != 1 {
		t.Fatalf("refused clicks changed the challenge: %s, %d seats", tb.Status, len(tb.Seats))
	}
	r := h.click(bob, msg, "/accept/"+itoa64(id))
	if r.Ephemeral() {
		t.Fatalf("Bob's accept refused: %q", r.Content())
	}
	tb = h.table(id)
	if tb.Status != cribbage.StatusPlaying || tb.Seats[1].UserID != bob.ID || tb.Challenge.Outcome != cribbage.ChallengeAccepted {
		t.Fatalf("after the accept: %s, seats %+v", tb.Status, tb.Seats)
	}
	if _, ok := button(t, r.Response.Data.Components, func(b discordgo.Button) bool { return b.CustomID == "/hand/"+itoa64(id) }); !ok {
		t.Errorf("the table message after the accept has no Show my hand")
	}
	h.eventually("the game's thread", func() bool { return h.tableMessage(id).ThreadID != "" })
	h.playToEnd(id, msg, usersOf(alice, bob))
}

// TestAChallengeEnds: Bob declines one challenge, Alice withdraws another,
// and a third lapses after a day unanswered; each closes its table, says
// so once, and pings the challenger where Bob's answer (or silence) is
// news to her.
func TestAChallengeEnds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	declined, dmsg := h.challengeOf(h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}))
	h.click(bob, dmsg, "/decline/"+itoa64(declined))
	if tb := h.table(declined); tb.Status != cribbage.StatusClosed || tb.Challenge.Outcome != cribbage.ChallengeDeclined {
		t.Errorf("declined: %s, %+v", tb.Status, tb.Challenge)
	}
	if n := h.postsPinging(declined, alice.ID, "declined your challenge"); n != 1 {
		t.Errorf("%d posts tell Alice of the decline", n)
	}

	withdrawn, wmsg := h.challengeOf(h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}))
	h.click(alice, wmsg, "/withdraw/"+itoa64(withdrawn))
	if tb := h.table(withdrawn); tb.Status != cribbage.StatusClosed || tb.Challenge.Outcome != cribbage.ChallengeWithdrawn {
		t.Errorf("withdrawn: %s, %+v", tb.Status, tb.Challenge)
	}
	h.drain()
	if m, _ := h.fake.Message(wmsg); len(discordtest.Buttons(m.Components)) != 0 || !strings.Contains(m.Text(), "withdrew") {
		t.Errorf("the withdrawn challenge's message: %q, %d buttons", m.Text(), len(discordtest.Buttons(m.Components)))
	}

	lapsing, _ := h.challengeOf(h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}))
	h.fake.Advance(23 * time.Hour)
	h.settle()
	if h.table(lapsing).Status != cribbage.StatusLobby {
		t.Fatal("the challenge lapsed before a day")
	}
	h.fake.Advance(2 * time.Hour)
	h.wantStatus("a challenge a day old", lapsing, cribbage.StatusClosed)
	if n := h.postsPinging(lapsing, alice.ID, "didn't answer your challenge"); n != 1 || h.table(lapsing).Challenge.Outcome != cribbage.ChallengeLapsed {
		t.Errorf("%d posts tell Alice of the lapse; outcome %q", n, h.table(lapsing).Challenge.Outcome)
	}
}

// TestChallengeRefusals: nobody challenges themselves or a bot, or
// challenges someone their open challenge already waits on, or a match at
// a length the command does not offer; each refusal is private, makes no
// table, and gives its own reason even when the server's limit of open
// tables would refuse too.
func TestChallengeRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.admin(ada, "settings", discordtest.Opt{Name: "max-open-tables", Value: 1})
	robot := discordtest.User{ID: "300000000000000042", Name: "Robot", Bot: true}
	h.challengeOf(h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}, discordtest.Opt{Name: "match", Value: 3}))
	for _, tt := range []struct {
		name string
		i    *discordgo.Interaction
		want string
	}{
		{"herself", discordtest.Command(testGuild, testChannel, alice, "challenge", discordtest.Opt{Name: "user", Value: alice}), "can't challenge yourself"},
		{"a bot", discordtest.Command(testGuild, testChannel, alice, "challenge", discordtest.Opt{Name: "user", Value: robot}), "Bots don't play"},
		{"a bot from the menu", discordtest.UserCommand(testGuild, testChannel, alice, "Challenge to cribbage", robot), "Bots don't play"},
		{"Bob again", discordtest.Command(testGuild, testChannel, alice, "challenge", discordtest.Opt{Name: "user", Value: bob}), "already challenged them"},
		{"Bob again from the menu", discordtest.UserCommand(testGuild, testChannel, alice, "Challenge to cribbage", bob), "already challenged them"},
		{"best of 4", discordtest.Command(testGuild, testChannel, alice, "challenge", discordtest.Opt{Name: "user", Value: carol}, discordtest.Opt{Name: "match", Value: 4}), "aren't ones the command offers"},
	} {
		a := h.send(tt.i)
		if !a.Ephemeral() || !strings.Contains(a.Content(), tt.want) {
			t.Errorf("challenging %s: %q", tt.name, a.Content())
		}
	}
	// The user command in a DM: Discord offers it in servers only.
	if _, err := h.interact(discordtest.UserCommand("", testChannel, alice, "Challenge to cribbage", bob)); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("challenging from a DM reached the bot: %v", err)
	}
	if tables, _ := h.store.PlayerTables(t.Context(), testGuild, alice.ID); len(tables) != 1 {
		t.Errorf("Alice sits at %d tables, want the one challenge", len(tables))
	}
	// Bob may challenge Alice back: his is a challenge of his own. Once he
	// withdraws it, Alice's Accept is told the challenge is over, not that
	// she is at the server's limit.
	back, backMsg := h.challengeOf(h.command(bob, "challenge", discordtest.Opt{Name: "user", Value: alice}))
	h.click(bob, backMsg, "/withdraw/"+itoa64(back))
	if a := h.click(alice, backMsg, "/accept/"+itoa64(back)); strings.Contains(a.Content(), "the most it allows") || h.table(back).Status != cribbage.StatusClosed {
		t.Errorf("accepting a withdrawn challenge: %q", a.Content())
	}
	if m, _ := h.fake.Message(backMsg); strings.Contains(m.Text(), "held for") {
		t.Errorf("a withdrawn challenge still holds a seat:\n%s", m.Text())
	}
}

// TestChallengeFromTheUserMenu: "Challenge to cribbage" on Bob's name is a
// challenge to one game of 121 points, named as the server knows him.
func TestChallengeFromTheUserMenu(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	i := discordtest.UserCommand(testGuild, testChannel, alice, "Challenge to cribbage", bob)
	i.ApplicationCommandData().Resolved.Members[bob.ID].Nick = "Bobby"
	id, msg := h.challengeOf(h.send(i))
	tb := h.table(id)
	if tb.Challenge.UserID != bob.ID || tb.Challenge.Name != "Bobby" || tb.Options.Target != 121 || tb.Match != nil {
		t.Errorf("the menu's challenge: %+v, %d points, match %v", tb.Challenge, tb.Options.Target, tb.Match)
	}
	if m, _ := h.fake.Message(msg); !slices.Equal(m.Notified, []string{bob.ID}) {
		t.Errorf("the menu's challenge pinged %v", m.Notified)
	}
}

// matchGameOf finds the next game of a match after table id: made with
// the game that ended it, its message posted by the bot.
func (h *harness) matchGameOf(id int64) (int64, string) {
	h.t.Helper()
	next := h.table(id).RematchID
	if next == 0 {
		h.t.Fatalf("table %d's match made no next game", id)
	}
	return next, h.postedTableMessage(next)
}

// resignAt has u resign the game at table id (resignMatch: the match too).
func (h *harness) resignAt(u discordtest.User, id int64, match bool) {
	h.t.Helper()
	prefix := "/resign/"
	if match {
		prefix = "/resignmatch/"
	}
	h.clickNamed(u, h.command(u, "resign", discordtest.Opt{Name: "table", Value: id}), prefix)
	if h.table(id).Status != cribbage.StatusFinished {
		h.t.Fatalf("table %d not finished after %s resigned", id, u.Name)
	}
}

// tableSays reports whether a table's message, once shown, contains text.
func (h *harness) tableSays(id int64, text string) bool {
	h.t.Helper()
	var desc string
	h.within(10*time.Second, "the table message to say "+text, func() bool {
		m, ok := h.fake.Message(h.tableMessage(id).MessageID)
		if ok {
			desc = m.Text()
		}
		return strings.Contains(desc, text)
	})
	return true
}

// TestABestOfThree: Alice and Bob play a best-of-3 match. Bob resigns game
// 1 (Alice 1–0, 2 game points); game 2 starts by itself with the deal
// passed on, its table message posted by the bot and showing the score,
// and is played to the end; whoever wins it, the match is decided by game
// 2 or 3 (Alice resigns it), and the thread and the stats say who won.
func TestABestOfThree(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	g1, msg := h.open(alice, discordtest.Opt{Name: "match", Value: 3})
	h.click(bob, msg, "/join/"+itoa64(g1))
	first := h.table(g1)
	if first.Match == nil || first.Match.ID != g1 || first.Match.BestOf != 3 {
		t.Fatalf("game 1's match: %+v", first.Match)
	}
	h.resignAt(bob, g1, false)
	if a := h.click(alice, msg, "/rematch/"+itoa64(g1)); !strings.Contains(a.Content(), "match goes on") {
		t.Errorf("a rematch in the middle of a match: %q", a.Content())
	}
	g2, msg2 := h.matchGameOf(g1)
	second := h.table(g2)
	if second.Status != cribbage.StatusPlaying || second.Match.Game != 2 || second.State.Dealer != 1-first.State.Dealer {
		t.Fatalf("game 2: %s, %+v, dealer %d after %d", second.Status, second.Match, second.State.Dealer, first.State.Dealer)
	}
	h.tableSays(g2, "**Match:** Alice 1 – Bob 0 · game 2 of best of 3 · game points 2–0")
	h.tableSays(g1, "Game 2 of the match is table "+itoa64(g2))
	if !h.threadSays(g1, "Game 2 follows") {
		t.Error("game 1's thread does not say game 2 follows")
	}
	h.playToEnd(g2, msg2, usersOf(alice, bob))
	r := h.table(g2).State.Result
	points := 2 + r.Skunks[1-r.Winner]
	winner, loser, decider := alice, bob, g2
	if r.Winner == 1 {
		// One all: Alice resigns game 3, and Bob wins 2–1.
		g3, _ := h.matchGameOf(g2)
		if h.table(g3).State.Dealer != 1-h.table(g2).State.Dealer {
			t.Errorf("game 3's dealer is game 2's")
		}
		h.resignAt(alice, g3, false)
		winner, loser, decider = bob, alice, g3
	}
	final := h.table(decider)
	if final.RematchID != 0 || !final.Match.Over() || final.Match.Winner() != final.SeatOf(winner.ID) {
		t.Fatalf("the match after table %d: %+v, next %d", decider, final.Match, final.RematchID)
	}
	if got := final.Match.Games[1].Points; got != points {
		t.Errorf("game 2 counted %d game points; its result %v is worth %d", got, r.Scores, points)
	}
	if !h.threadSays(decider, winner.Name+" wins the match") {
		t.Errorf("the deciding game's thread does not say %s won the match", winner.Name)
	}
	h.tableSays(decider, winner.Name+" wins the match")
	for _, w := range []struct {
		u    discordtest.User
		want string
	}{{winner, "1 won · 0 lost"}, {loser, "0 won · 1 lost"}} {
		u, want := w.u, w.want
		st := h.club(u, "stats")
		var fields []string
		for _, f := range st.Response.Data.Embeds[0].Fields {
			fields = append(fields, f.Name+": "+f.Value)
		}
		if got := strings.Join(fields, "\n"); !strings.Contains(got, "Matches: "+want) {
			t.Errorf("%s's stats lack matches %q:\n%s", u.Name, want, got)
		}
	}
	// Over, the match may be played again: a rematch is a new match.
	h.click(winner, h.tableMessage(decider).MessageID, "/rematch/"+itoa64(decider))
	h.click(loser, h.tableMessage(decider).MessageID, "/rematch/"+itoa64(decider))
	again, _ := h.matchGameOf(decider)
	if m := h.table(again).Match; m == nil || m.ID != again || m.Game != 1 || len(m.Games) != 0 {
		t.Errorf("the rematch of a match: %+v", m)
	}
	h.noIdenticalEdits()
}

// TestAMatchEndsByForfeitOrResignation: in one match Bob keeps the table
// waiting a week and Alice claims the win, which wins her the match; in
// another Bob resigns the match whole. Each is 1–0 with 2 game points,
// never a skunk, and no next game.
func TestAMatchEndsByForfeitOrResignation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	fid, fmsg := h.open(alice, discordtest.Opt{Name: "match", Value: 5})
	h.click(bob, fmsg, "/join/"+itoa64(fid))
	h.discard(alice, fmsg, fid, 2)
	h.fake.Advance(7*24*time.Hour + time.Minute)
	h.wantClaimButton(fmsg)
	h.click(alice, fmsg, "/claimwin/"+itoa64(fid))
	rid, rmsg := h.open(alice, discordtest.Opt{Name: "match", Value: 3})
	h.click(bob, rmsg, "/join/"+itoa64(rid))
	h.resignAt(bob, rid, true)
	for id, how := range map[int64]string{fid: "forfeited", rid: "resigned the match"} {
		tb := h.table(id)
		m := tb.Match
		if tb.RematchID != 0 || m.Winner() != 0 || m.Wins() != [2]int{1, 0} || m.Points() != [2]int{2, 0} || !m.Conceded {
			t.Errorf("table %d: next %d, %+v", id, tb.RematchID, m)
		}
		if !h.threadSays(id, fmt.Sprintf("Alice wins the match** 1–0 · game points 2–0 — Bob %s", how)) {
			t.Errorf("table %d's thread does not say how the match ended", id)
		}
	}
	st := h.club(alice, "stats")
	found := false
	for _, f := range st.Response.Data.Embeds[0].Fields {
		found = found || f.Name == "Matches" && f.Value == "2 won · 0 lost"
	}
	if !found {
		t.Errorf("Alice's stats do not count both matches: %+v", st.Response.Data.Embeds[0].Fields)
	}
}

// TestAMatchIsBetweenTwoSides: three players, or four without teams, are
// refused a match; two teams of two may play one.
func TestAMatchIsBetweenTwoSides(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, opts := range [][]discordtest.Opt{
		{{Name: "players", Value: 3}, {Name: "match", Value: 3}},
		{{Name: "players", Value: 4}, {Name: "match", Value: 5}},
	} {
		if a := h.command(alice, "start", opts...); !a.Ephemeral() || !strings.Contains(a.Content(), "between two sides") {
			t.Errorf("a match at %v: %q", opts, a.Content())
		}
	}
	id, msg := h.open(alice, discordtest.Opt{Name: "players", Value: 4}, discordtest.Opt{Name: "teams", Value: true}, discordtest.Opt{Name: "match", Value: 3})
	for _, u := range []discordtest.User{bob, carol, dan} {
		h.click(u, msg, "/join/"+itoa64(id))
	}
	h.resignAt(dan, id, false)
	next, _ := h.matchGameOf(id)
	h.tableSays(next, "**Match:** Alice & Carol 1 – Bob & Dan 0 · game 2 of best of 3")
}

// TestARematchOfferLapses: an offer nobody accepts lapses after a day,
// once, telling whoever made it; the table can be offered again.
func TestARematchOfferLapses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id := h.resignedGame(alice, bob, bob)
	msg := h.tableMessage(id).MessageID
	h.click(alice, msg, "/rematch/"+itoa64(id))
	h.fake.Advance(23 * time.Hour)
	h.settle()
	if h.table(id).Offer == nil {
		t.Fatal("the offer lapsed before a day")
	}
	h.fake.Advance(2 * time.Hour)
	h.settle()
	if h.table(id).Offer != nil {
		t.Fatal("the offer is still open a day on, the timers checked")
	}
	h.fake.Advance(time.Hour)
	h.settleShown()
	if n := h.postsPinging(id, alice.ID, "lapsed"); n != 1 {
		t.Errorf("%d posts tell Alice her offer lapsed", n)
	}
	m, _ := h.fake.Message(msg)
	_, rematch := button(t, m.Components, func(b discordgo.Button) bool { return b.Label == "Rematch" })
	_, decline := button(t, m.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/norematch/") })
	if !rematch || decline {
		t.Fatalf("the table message after the lapse offers Rematch %v, Decline %v:\n%s", rematch, decline, m.Text())
	}
	if a := h.click(bob, msg, "/rematch/"+itoa64(id)); a.Ephemeral() || h.table(id).Offer == nil || h.table(id).Offer.By != bob.ID {
		t.Errorf("a new offer after the lapse: %q", a.Content())
	}
}

// TestACancelledGameEndsItsMatch: an admin cancels game 2 of a match; the
// match stops there, undecided: no next game, no match result, and the
// table message says so. A cancelled challenge closes with no game either.
func TestACancelledGameEndsItsMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	g1, msg := h.open(alice, discordtest.Opt{Name: "match", Value: 3})
	h.click(bob, msg, "/join/"+itoa64(g1))
	h.resignAt(bob, g1, false)
	g2, _ := h.matchGameOf(g1)
	if a := h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: g2}); !strings.Contains(a.Content(), "is cancelled") {
		t.Fatalf("cancel answered %q", a.Content())
	}
	tb := h.table(g2)
	if tb.Status != cribbage.StatusCancelled || tb.RematchID != 0 || tb.Match.Over() {
		t.Errorf("after the cancel: %s, next %d, %+v", tb.Status, tb.RematchID, tb.Match)
	}
	h.tableSays(g2, "Its match ends with it, undecided")
	if st := h.club(alice, "stats"); strings.Contains(fmt.Sprint(st.Response.Data.Embeds[0].Fields), "Matches") {
		t.Error("a cancelled match counts in the stats")
	}
	cid, _ := h.challengeOf(h.command(alice, "challenge", discordtest.Opt{Name: "user", Value: bob}))
	h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: cid})
	if tb := h.table(cid); tb.Status != cribbage.StatusCancelled {
		t.Errorf("the cancelled challenge: %s", tb.Status)
	}
	if a := h.click(bob, h.tableMessage(cid).MessageID, "/accept/"+itoa64(cid)); !a.Ephemeral() || !strings.Contains(a.Content(), "cancelled") || h.table(cid).Status != cribbage.StatusCancelled {
		t.Errorf("accepting a cancelled challenge: %q", a.Content())
	}
}

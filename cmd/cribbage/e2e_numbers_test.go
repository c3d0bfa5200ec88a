package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// finishedShortGame plays a 61-point game between Alice and Bob to its end
// through the fake, every move a click, and returns the finished table.
func finishedShortGame(t *testing.T, h *harness) *cribbage.Table {
	t.Helper()
	id, msg := h.open(alice, discordtest.Opt{Name: "points", Value: 61})
	h.click(bob, msg, "/join/"+itoa64(id))
	h.playToEnd(id, msg, usersOf(alice, bob))
	final := h.table(id)
	if final.Status != cribbage.StatusFinished {
		t.Fatalf("status %s", final.Status)
	}
	return final
}

// TestStatsAfterAGame: a game played through Discord is in the players'
// numbers as soon as it ends: /cribbage-club stats shows its averages a
// deal, its throws reviewed, and, with three games, the trend picture.
// The averages are the game's own: the table's log played again and its
// complete deals counted by hand here, seat by seat, from the account.
func TestStatsAfterAGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	final := finishedShortGame(t, h)
	actions, err := h.store.Actions(context.Background(), final.ID)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := final.Account(actions)
	if err != nil {
		t.Fatal(err)
	}
	seat := final.SeatOf(alice.ID)
	var dealer, pone cribbage.Role
	for _, d := range acc.Deals {
		if !d.Complete {
			continue
		}
		ds := d.Seats[seat]
		if d.Dealer == seat {
			dealer.Deals, dealer.Pegging, dealer.Hand, dealer.Crib = dealer.Deals+1, dealer.Pegging+ds.Pegging, dealer.Hand+ds.Hand, dealer.Crib+ds.Crib
		} else {
			pone.Deals, pone.Pegging, pone.Hand = pone.Deals+1, pone.Pegging+ds.Pegging, pone.Hand+ds.Hand
		}
	}
	if dealer.Deals+pone.Deals == 0 {
		t.Fatal("the game had no complete deal")
	}
	avg := func(points, deals int) string {
		if deals == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f", float64(points)/float64(deals))
	}

	a := h.club(alice, "stats")
	if !a.Ephemeral() || len(a.Response.Data.Embeds) != 2 {
		t.Fatalf("stats: %+v", a.Response.Data)
	}
	numbers := a.Response.Data.Embeds[1]
	for _, want := range []string{
		fmt.Sprintf("Dealer (%d deals)", dealer.Deals),
		fmt.Sprintf(" pegged    %7s %5s   3.5", avg(dealer.Pegging, dealer.Deals), avg(dealer.Pegging, dealer.Deals)),
		fmt.Sprintf(" crib      %7s %5s   4.7", avg(dealer.Crib, dealer.Deals), avg(dealer.Crib, dealer.Deals)),
		fmt.Sprintf("Pone (%d deals)", pone.Deals),
		fmt.Sprintf(" hand      %7s %5s   8.1", avg(pone.Hand, pone.Deals), avg(pone.Hand, pone.Deals)),
	} {
		if !strings.Contains(numbers.Description, want) {
			t.Errorf("no %q in Alice's numbers:\n%s", want, numbers.Description)
		}
	}
	if strings.Contains(numbers.Footer.Text, "still being reviewed") {
		t.Errorf("Alice's throws were not reviewed before her stats: %s", numbers.Footer.Text)
	}
	if numbers.Image != nil {
		t.Errorf("a trend of one game: %+v", numbers.Image)
	}
	if n, _ := h.store.PlayerNumbers(context.Background(), testGuild, alice.ID, fromZero()); n.All.Dealer != (cribbage.Role{Deals: dealer.Deals, Pegging: dealer.Pegging, Hand: dealer.Hand, Crib: dealer.Crib, Throws: n.All.Dealer.Throws, GivenUp: n.All.Dealer.GivenUp}) ||
		n.All.Dealer.Throws < dealer.Deals || n.Unreviewed != 0 {
		t.Errorf("Alice's dealer numbers %+v, want %+v with every throw reviewed (%d left)", n.All.Dealer, dealer, n.Unreviewed)
	}

	// Two more games (the domain's known ones, saved straight into the
	// store as the bot's moves save them): three games draw a trend.
	lobby := func() *cribbage.Table {
		return &cribbage.Table{GuildID: testGuild, ChannelID: testChannel, HostID: alice.ID, Options: engine.Options{Players: 2, Target: 121},
			Status: cribbage.StatusLobby, Seats: []cribbage.Seat{{UserID: alice.ID, Name: alice.Name}, {UserID: bob.ID, Name: bob.Name}}}
	}
	servicetest.KnownA(t, h.store, h.fake.Now, lobby())
	servicetest.KnownB(t, h.store, h.fake.Now, lobby())
	a = h.club(alice, "stats")
	numbers = a.Response.Data.Embeds[1]
	if numbers.Image == nil || numbers.Image.URL != "attachment://trend.png" {
		t.Fatalf("no trend picture after three games: %+v", numbers)
	}
	m, _ := h.fake.Message(a.MessageID)
	raw, ok := h.fake.File(m, "trend.png")
	if !ok {
		t.Fatalf("the trend picture was not uploaded: %+v", m.Attachments)
	}
	if img, err := png.Decode(bytes.NewReader(raw)); err != nil || img.Bounds().Dx() != 720 {
		t.Errorf("the trend picture: %v, %v", img.Bounds(), err)
	}
	if !strings.Contains(numbers.Description, "Dealer (") || !strings.Contains(a.Response.Data.Embeds[1].Fields[0].Value, "3 in all") {
		t.Errorf("after three games: %s %+v", numbers.Description, numbers.Fields)
	}
}

// TestAMilestoneIsAnnouncedOnceAcrossRestarts: the winner's first win is
// told once in the table's thread, whether the bot stops before or after
// sending it, and a bot started again, or another game won, tells it no
// more.
func TestAMilestoneIsAnnouncedOnceAcrossRestarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.open(alice, discordtest.Opt{Name: "points", Value: 61})
	h.click(bob, msg, "/join/"+itoa64(id))
	// The last move, and a stop at once: the news may or may not have
	// gone out before it.
	h.playToEnd(id, msg, usersOf(alice, bob))
	final := h.table(id)
	winner := final.Seats[final.State.Result.Winner].Name // two players: a side is a seat
	h.stopBot()
	h.startBot()
	news := "🏅 **" + winner + "** earns a milestone: **First win**"
	h.drain()
	if n := h.countIn(id, news); n != 1 {
		t.Fatalf("the first win told %d times after a restart, want once: %q", n, news)
	}
	h.stopBot()
	h.startBot()
	h.drain()
	if n := h.countIn(id, news); n != 1 {
		t.Errorf("the first win told %d times after a second restart", n)
	}
	if n := h.countIn(id, "earns a milestone"); n < 1 {
		t.Errorf("%d milestone messages", n)
	}
	for _, u := range []discordtest.User{alice, bob} {
		n, err := h.store.PlayerNumbers(context.Background(), testGuild, u.ID, fromZero())
		if err != nil {
			t.Fatal(err)
		}
		won := u.Name == winner
		has := false
		for _, m := range n.Milestones {
			has = has || m.Milestone == cribbage.FirstWin
		}
		if has != won {
			t.Errorf("%s's milestones %+v", u.Name, n.Milestones)
		}
	}
}

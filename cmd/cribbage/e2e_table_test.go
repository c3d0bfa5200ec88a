package main

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// toShow plays a manual-counting table to its first count.
func toShow(t *testing.T, h *harness, opts ...discordtest.Opt) (int64, string) {
	id, msg := h.open(alice, append([]discordtest.Opt{{Name: "counting", Value: "manual"}}, opts...)...)
	h.click(bob, msg, "/join/"+itoa64(id))
	for h.table(id).State.Phase != engine.PhaseShow {
		// No game ends in its first hand's play, whatever the deal.
		if !h.step(id, msg, usersOf(alice, bob)) {
			t.Fatal("the game ended before its first show")
		}
	}
	return id, msg
}

func TestManualCountingRefusesOverClaims(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := toShow(t, h)
	g := h.table(id).State
	seat, crib := g.ShowOrder(g.Shown)
	u := usersOf(alice, bob)[h.table(id).Seats[seat].UserID]
	version := h.table(id).Version
	a := h.claim(u, msg, id, truth(g, seat, crib)+1)
	if !strings.Contains(a.Content(), "count again") || h.table(id).Version != version {
		t.Errorf("over-claim: %q, version %d → %d", a.Content(), version, h.table(id).Version)
	}
	if a := h.claim(u, msg, id, 99); !strings.Contains(a.Content(), "0 to 29") {
		t.Errorf("claim of 99: %q", a.Content())
	}
}

func TestMugginsThroughTheHandView(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var id int64
	var msg string
	// Find a show whose first hand scores something to miss.
	for tries := 0; ; tries++ {
		id, msg = toShow(t, h, discordtest.Opt{Name: "muggins", Value: true})
		g := h.table(id).State
		if seat, crib := g.ShowOrder(g.Shown); truth(g, seat, crib) > 0 {
			break
		}
		if tries > 20 {
			t.Fatal("no hand with points to miss")
		}
	}
	g := h.table(id).State
	seat, crib := g.ShowOrder(g.Shown)
	people := usersOf(alice, bob)
	claimer := people[h.table(id).Seats[seat].UserID]
	opponent := people[h.table(id).Seats[1-seat].UserID]
	points := truth(g, seat, crib)
	h.claim(claimer, msg, id, 0)
	before := h.table(id).State.Scores[1-seat]

	view := h.showHand(opponent, msg, id)
	b, ok := button(t, view.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/muggins/") })
	if !ok {
		t.Fatalf("no Muggins button for the opponent: %s", view.Content())
	}
	if _, mine := button(t, h.showHand(claimer, msg, id).Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/muggins/") }); mine {
		t.Error("the claimer was offered muggins on their own miss")
	}
	h.click(opponent, view.MessageID, b.CustomID)
	if got := h.table(id).State.Scores[1-seat]; got != before+points && h.table(id).Status == cribbage.StatusPlaying {
		t.Errorf("opponent's score %d → %d, want +%d", before, got, points)
	}
	if !h.threadSays(id, "Muggins!") {
		t.Error("muggins was not announced")
	}
}

func TestResignAfterConfirmation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, _ := twoPlayerGame(t, h)
	a := h.command(bob, "resign")
	b, ok := button(t, a.Response.Data.Components, func(b discordgo.Button) bool { return strings.HasPrefix(b.CustomID, "/resign/") })
	if !a.Ephemeral() || !ok {
		t.Fatalf("resign asked %q", a.Content())
	}
	if h.table(id).Status != cribbage.StatusPlaying {
		t.Fatal("resigned before confirming")
	}
	h.click(bob, a.MessageID, b.CustomID)
	final := h.table(id)
	if final.Status != cribbage.StatusFinished || final.State.Result.Reason != engine.ReasonResigned || final.Seats[final.State.Result.Winner].UserID != alice.ID {
		t.Errorf("after resigning: %s %+v", final.Status, final.State.Result)
	}
}

func TestSeveralTablesInOneChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	one, msg1 := h.open(alice, shortGame()...)
	two, msg2 := h.open(alice, discordtest.Opt{Name: "points", Value: 61})
	if a := h.command(bob, "join"); !strings.Contains(a.Content(), "more than one table") {
		t.Errorf("join with two lobbies: %q", a.Content())
	}
	h.command(bob, "join", discordtest.Opt{Name: "table", Value: one})
	h.click(carol, msg2, "/join/"+itoa64(two))
	if h.table(one).Status != cribbage.StatusPlaying || h.table(two).Status != cribbage.StatusPlaying {
		t.Fatal("tables did not start")
	}
	if a := h.command(alice, "hand"); !strings.Contains(a.Content(), "more than one table") {
		t.Errorf("hand with two tables: %q", a.Content())
	}
	if a := h.command(alice, "hand", discordtest.Opt{Name: "table", Value: two}); !strings.Contains(a.Content(), "table 2") {
		t.Errorf("hand for table 2: %q", a.Content())
	}
	auto := h.send(autocompleteTable(alice))
	if len(auto.Response.Data.Choices) != 2 {
		t.Errorf("autocomplete offered %d tables", len(auto.Response.Data.Choices))
	}
	// Each table's buttons act on that table only.
	h.playToEnd(one, msg1, usersOf(alice, bob))
	if h.table(two).Status != cribbage.StatusPlaying || h.table(two).State.HandNo != 1 {
		t.Error("playing table 1 changed table 2")
	}
	board, _ := h.store.Leaderboard(context.Background(), testGuild, 0, fromZero())
	if len(board) != 2 {
		t.Errorf("leaderboard %+v", board)
	}
}

// autocompleteTable is u typing the table option of /cribbage hand.
func autocompleteTable(u discordtest.User) *discordgo.Interaction {
	i := discordtest.Command(testGuild, testChannel, u, "hand", discordtest.Opt{Name: "table", Value: ""})
	i.Type = discordgo.InteractionApplicationCommandAutocomplete
	return i
}

func TestLobbyJoinLeaveAndFullTable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := h.open(alice, discordtest.Opt{Name: "players", Value: 3})
	if a := h.click(alice, msg, "/join/"+itoa64(id)); !strings.Contains(a.Content(), "already seated") {
		t.Errorf("host joining again: %q", a.Content())
	}
	if a := h.click(alice, msg, "/begin/"+itoa64(id)); !strings.Contains(a.Content(), "Not every seat") {
		t.Errorf("start with empty seats: %q", a.Content())
	}
	h.click(bob, msg, "/join/"+itoa64(id))
	h.click(bob, msg, "/leave/"+itoa64(id))
	if len(h.table(id).Seats) != 1 {
		t.Errorf("seats after leaving: %+v", h.table(id).Seats)
	}
	h.click(alice, msg, "/leave/"+itoa64(id))
	if h.table(id).Status != cribbage.StatusClosed {
		t.Errorf("table with nobody seated: %s", h.table(id).Status)
	}
	id, msg = h.open(alice)
	h.click(bob, msg, "/join/"+itoa64(id))
	if a := h.command(carol, "join", discordtest.Opt{Name: "table", Value: id}); !strings.Contains(a.Content(), "already started") {
		t.Errorf("joining a started table: %q", a.Content())
	}
}

func TestCountCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Privately unless shared: what a player holds is nobody else's.
	before := len(h.fake.ChannelMessages(testChannel))
	a := h.command(eve, "count", discordtest.Opt{Name: "cards", Value: "5h 5d 5c js"}, discordtest.Opt{Name: "starter", Value: "5♠"})
	if !a.Ephemeral() || !strings.Contains(a.Content(), "**29**") || !strings.Contains(a.Content(), "his nobs") {
		t.Errorf("count: %q (private %v)", a.Content(), a.Ephemeral())
	}
	if n := len(h.fake.ChannelMessages(testChannel)); n != before {
		t.Errorf("a private count put %d messages in the channel", n-before)
	}
	shared := h.command(eve, "count", discordtest.Opt{Name: "cards", Value: "5h 5d 5c js"}, discordtest.Opt{Name: "starter", Value: "5♠"},
		discordtest.Opt{Name: "share", Value: true})
	if m, ok := h.fake.Message(shared.MessageID); shared.Ephemeral() || !ok || m.Ephemeral || !strings.Contains(m.Text(), "**29**") {
		t.Errorf("a shared count is not in the channel: %q (private %v)", shared.Content(), shared.Ephemeral())
	}
	if a := h.command(eve, "count", discordtest.Opt{Name: "cards", Value: "5h 5d 5c"}, discordtest.Opt{Name: "starter", Value: "5S"}); !a.Ephemeral() {
		t.Errorf("three cards: %q", a.Content())
	}
}

// threadSays reports whether, once the announcements are delivered, a
// post in the table's thread contains text.
func (h *harness) threadSays(id int64, text string) bool {
	h.drain()
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		if strings.Contains(m.Text(), text) {
			return true
		}
	}
	return false
}

package main

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/rating"
)

// ratedPair is two people's ratings after the games ratedGames plays.
type ratedPair struct {
	winner, loser discordtest.User
	a, b          rating.Rating // alice's and bob's
}

// ratedGames plays a whole game between Alice and Bob through the fake
// Discord, then one its winner resigns: one win each. It returns their
// ratings worked out from newcomers' with rating.Game, game by game.
func (h *harness) ratedGames() ratedPair {
	h.t.Helper()
	id, msg := h.open(alice)
	h.click(bob, msg, "/join/"+itoa64(id))
	h.playToEnd(id, msg, usersOf(alice, bob))
	p := ratedPair{winner: alice, loser: bob}
	if h.table(id).State.Result.Winner != 0 {
		p.winner, p.loser = bob, alice
	}
	h.resignedGame(bob, alice, p.winner)
	cfg := rating.Config{}
	w, l := rating.Game(cfg.Newcomer(), cfg.Newcomer(), rating.Win, cfg)
	l, w = rating.Game(l, w, rating.Win, cfg)
	p.a, p.b = w, l
	if p.winner.ID != alice.ID {
		p.a, p.b = l, w
	}
	return p
}

// whole is a rating as players read it.
func whole(f float64) int { return int(math.Round(f)) }

// boardLines are the leaderboard lines of Alice and Bob after
// ratedGames, both provisional after two games, the higher first.
func (p ratedPair) boardLines() []string {
	first, second := fmt.Sprintf("Alice · **%d?** · 1–1 · 2 games", whole(p.a.R)), fmt.Sprintf("Bob · **%d?** · 1–1 · 2 games", whole(p.b.R))
	if p.b.R > p.a.R {
		first, second = second, first
	}
	return []string{"*Provisional (?) — too few recent games to be sure yet:*", "**1.** " + first, "**2.** " + second}
}

// TestRatingsThroughDiscord: Alice and Bob play a whole game, and one
// that its winner resigns. The leaderboard ranks them by rating, marked
// provisional, with their games and wins–losses; stats show Alice's
// rating with its ±.
func TestRatingsThroughDiscord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	p := h.ratedGames()

	lb := h.club(carol, "leaderboard")
	if lb.Ephemeral() {
		t.Errorf("the leaderboard answered privately: %s", lb.Content())
	}
	if _, got := panelOf(lb); got != strings.Join(p.boardLines(), "\n") {
		want := strings.Join(p.boardLines(), "\n")
		t.Errorf("leaderboard:\n%s\nwant:\n%s", got, want)
	}
	st := h.club(alice, "stats")
	f := st.Response.Data.Embeds[0].Fields[0]
	if got, want := f.Name+": "+f.Value, fmt.Sprintf("Rating · season 1: **%d** ± %d (provisional) · 2 games", whole(p.a.R), whole(p.a.RD)); got != want {
		t.Errorf("stats lead with %q, want %q", got, want)
	}
}

// TestANewSeasonThroughDiscord: after Alice's and Bob's rated games, Ada
// (Manage Server) starts season 2, "Winter". The channel is told; this
// season's board is empty and Alice is unrated in it; season 1's board is
// as it was; /cribbage-club seasons lists both. Bob cannot start one:
// Discord does not deliver him the command. A second new season before
// any game in this one starts nothing.
func TestANewSeasonThroughDiscord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	p := h.ratedGames()
	_, before := panelOf(h.club(carol, "leaderboard"))

	if _, err := h.interact(discordtest.CommandOf("cribbage-admin", testGuild, testChannel, bob, "season new")); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("Bob's new season: %v", err)
	}
	a := h.admin(ada, "season new", discordtest.Opt{Name: "name", Value: "Winter"})
	if a.Ephemeral() || !strings.HasPrefix(a.Content(), "🏁 **Season 2 · Winter** has begun, started by <@"+ada.ID+">") {
		t.Errorf("the new season's announcement: %q", a.Content())
	}
	if again := h.admin(ada, "season new"); !again.Ephemeral() || !strings.Contains(again.Content(), "no games between people yet") {
		t.Errorf("a second new season at once: %q", again.Content())
	}

	nowTitle, nowBody := panelOf(h.club(carol, "leaderboard"))
	if nowTitle != "Cribbage leaderboard · Season 2 · Winter" || !strings.HasPrefix(nowBody, "No games between people in Season 2 · Winter yet.") {
		t.Errorf("the new season's board: %s\n%s", nowTitle, nowBody)
	}
	st := h.club(alice, "stats").Response.Data.Embeds[0]
	if f := st.Fields[0]; f.Name != "Rating · season 2" || !strings.HasPrefix(f.Value, "Not rated yet") {
		t.Errorf("Alice's rating in season 2: %s: %s", f.Name, f.Value)
	}
	if !strings.Contains(st.Fields[1].Value, "2 games") {
		t.Errorf("Alice's record after the new season: %s: %s", st.Fields[1].Name, st.Fields[1].Value)
	}
	pastTitle, pastBody := panelOf(h.club(carol, "leaderboard", discordtest.Opt{Name: "season", Value: 1}))
	if pastTitle != "Cribbage leaderboard · Season 1" || pastBody != before || pastBody != strings.Join(p.boardLines(), "\n") {
		t.Errorf("season 1's board after the new season: %s\n%s\nwant:\n%s", pastTitle, pastBody, before)
	}
	if none := h.club(carol, "leaderboard", discordtest.Opt{Name: "season", Value: 3}); !none.Ephemeral() || !strings.Contains(none.Content(), "no season 3") {
		t.Errorf("season 3: %q", none.Content())
	}
	list := h.club(carol, "seasons").Response.Data.Embeds[0].Description
	lines := strings.Split(list, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "**Season 2 · Winter** (now) — since <t:") || !strings.Contains(lines[0], "started by <@"+ada.ID+"> · 0 games") ||
		!strings.HasPrefix(lines[1], "**Season 1** — <t:") || !strings.HasSuffix(lines[1], " · 2 games") {
		t.Errorf("seasons:\n%s", list)
	}
}

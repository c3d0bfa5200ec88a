package main

import (
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
	if got, want := lb.Response.Data.Embeds[0].Description, strings.Join(p.boardLines(), "\n"); got != want {
		t.Errorf("leaderboard:\n%s\nwant:\n%s", got, want)
	}
	st := h.club(alice, "stats")
	f := st.Response.Data.Embeds[0].Fields[0]
	if got, want := f.Name+": "+f.Value, fmt.Sprintf("Rating · season 1: **%d** ± %d (provisional) · 2 games", whole(p.a.R), whole(p.a.RD)); got != want {
		t.Errorf("stats lead with %q, want %q", got, want)
	}
}

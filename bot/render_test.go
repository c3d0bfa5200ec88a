package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// TestRenderTableInEveryStatus renders tables with and without a game.
func TestRenderTableInEveryStatus(t *testing.T) {
	g, _, _ := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(1))
	seats := []cribbage.Seat{{UserID: "1", Name: "Alice"}, {UserID: "2", Name: "Bob"}}
	for _, tc := range []struct {
		name  string
		table cribbage.Table
		want  string
	}{
		{"lobby", cribbage.Table{ID: 1, Status: cribbage.StatusLobby, Options: engine.Options{Players: 2, Target: 121}, Seats: seats[:1], HostID: "1"}, "Waiting for 1 more player"},
		{"closed lobby", cribbage.Table{ID: 2, Status: cribbage.StatusClosed, Options: engine.Options{Players: 2, Target: 121}}, "closed"},
		{"playing", cribbage.Table{ID: 3, Status: cribbage.StatusPlaying, Options: g.Options, Seats: seats, State: g}, "Waiting for **Alice**"},
	} {
		r := render.Table(lang.English, &tc.table, "")
		if len(r.Embeds) != 1 || !strings.Contains(r.Embeds[0].Description, tc.want) {
			t.Errorf("%s: %+v", tc.name, r.Embeds[0].Description)
		}
	}
}

// TestLeaderboardShowsTopTenAndYourPlace: twelve players, the caller 12th.
func TestLeaderboardShowsTopTenAndYourPlace(t *testing.T) {
	var board []cribbage.Standing
	for i := 1; i <= 12; i++ {
		board = append(board, cribbage.Standing{Rank: i, UserID: "u" + strconv.Itoa(i), Name: "P" + strconv.Itoa(i), Games: 10, Wins: 13 - i, Losses: i - 3, GamesWon: 13 - i})
	}
	desc := render.Leaderboard(board, cribbage.Season{Number: 1}, true, "", "u12").Embeds[0].Description
	lines := strings.Split(desc, "\n")
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "**1.** P1") || lines[10] != "…" || !strings.HasPrefix(lines[11], "**12.** P12") {
		t.Errorf("board:\n%s", desc)
	}
	if strings.Contains(desc, "P11") {
		t.Error("rank 11 shown though the caller is 12th")
	}
	if d := render.Leaderboard(board, cribbage.Season{Number: 1}, true, "", "u3").Embeds[0].Description; strings.Count(d, "\n") != 9 {
		t.Errorf("a top-ten caller gets extra lines:\n%s", d)
	}
}

// TestLeaderboardLines: a line a player, short enough for a phone; a
// provisional rating marked with a ?, under a line that says what the
// mark means; stats show the rating with its ± and games.
func TestLeaderboardLines(t *testing.T) {
	board := []cribbage.Standing{
		{Rank: 1, UserID: "a", Name: "Alice", Games: 12, Wins: 8, Losses: 4, Rating: cribbage.Rating{R: 1623.4, RD: 71.6, Games: 12}},
		{Rank: 2, UserID: "b", Name: "Bob", Games: 1, Wins: 1, Losses: 0, Rating: cribbage.Rating{R: 1662.3, RD: 290.3, Games: 1, Provisional: true}},
	}
	r := render.Leaderboard(board, cribbage.Season{Number: 2, Name: "Winter"}, true, "last 7 days", "")
	want := "**1.** Alice · **1623** · 8–4 · 12 games\n" +
		"*Provisional (?) — too few recent games to be sure yet:*\n" +
		"**2.** Bob · **1662?** · 1–0 · 1 game"
	if got := r.Embeds[0].Description; got != want {
		t.Errorf("board:\n%s\nwant:\n%s", got, want)
	}
	if got := r.Embeds[0].Title; got != "Cribbage leaderboard · Season 2 · Winter · last 7 days" {
		t.Errorf("title %q", got)
	}
	for _, l := range strings.Split(r.Embeds[0].Description, "\n") {
		if n := len([]rune(l)); n > 60 {
			t.Errorf("%d characters, long for a phone: %s", n, l)
		}
	}
	if got := render.RatingLine(board[1].Rating); got != "**1662** ± 290 (provisional) · 1 game" {
		t.Errorf("stats line %q", got)
	}
	past := render.Leaderboard(nil, cribbage.Season{Number: 1}, false, "", "").Embeds[0].Description
	if past != "No games between people in Season 1 yet." {
		t.Errorf("an empty past season: %q", past)
	}
}

// TestStoryShowsEveryRoundOfTheCutAndPartnersWin checks two announcements:
// a tied cut for deal shows each round of the re-cut, and a partnership
// wins in the plural.
func TestStoryShowsEveryRoundOfTheCutAndPartnersWin(t *testing.T) {
	two := &cribbage.Table{Options: engine.Options{Players: 2, Target: 121}, Seats: []cribbage.Seat{{Name: "Alice"}, {Name: "Bob"}}}
	cards, err := engine.ParseCards("KH KS 3C 9D")
	if err != nil {
		t.Fatal(err)
	}
	got := render.StoryLine(lang.English, two, engine.Event{Kind: engine.EvCutForDeal, Seat: 0, Cards: cards})
	want := "Cut for deal: Alice K♥, Bob K♠; a tie, so again: Alice 3♣, Bob 9♦. **Alice** cuts lowest and deals first."
	if got != want {
		t.Errorf("tied cut:\n got %s\nwant %s", got, want)
	}

	partners := &cribbage.Table{Options: engine.Options{Players: 4, Partners: true, Target: 121},
		Seats: []cribbage.Seat{{Name: "Alice"}, {Name: "Bob"}, {Name: "Carol"}, {Name: "Dan"}}}
	line := render.ResultLine(lang.English, partners, &engine.Result{Winner: 1, Scores: []int{100, 121}, Skunks: []int{0, 0}})
	if !strings.HasPrefix(line, "🏆 **Bob & Dan win** — ") {
		t.Errorf("partners: %s", line)
	}
	if line := render.ResultLine(lang.English, two, &engine.Result{Winner: 0, Scores: []int{121, 100}, Skunks: []int{0, 0}}); !strings.HasPrefix(line, "🏆 **Alice wins** — ") {
		t.Errorf("one player: %s", line)
	}
}

// TestUserMessagesNeverShowInternalText: errors players can cause are
// worded for them; anything else is the generic apology.
func TestUserMessagesNeverShowInternalText(t *testing.T) {
	_, badCard := engine.ParseCards("5H ZZ")
	_, twice := engine.ParseCards("5H 5h")
	tests := []struct {
		err   error
		want  string
		known bool
	}{
		{badCard, "`ZZ` isn't a card. Write cards like 5H, 10D, JC or Q♠.", true},
		{twice, "5h is there twice: a deck has one of each card.", true},
		{refusal.ErrUnknownCommand, "I don't know that command. `/cribbage help` lists what I can do.", true},
		{fmt.Errorf("store: save table: %w", errors.New("disk I/O error")), refusal.Apology(lang.English), false},
	}
	for _, tt := range tests {
		got, known := refusal.Words(lang.English, tt.err)
		if got != tt.want || known != tt.known {
			t.Errorf("refusal.Words(%v) = %q, %v; want %q, %v", tt.err, got, known, tt.want, tt.known)
		}
		if strings.Contains(got, "engine:") || strings.Contains(got, "store:") {
			t.Errorf("internal text reaches the player: %q", got)
		}
	}
}

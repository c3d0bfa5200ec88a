package club

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/golden"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// TestLeaderboardShowsTopTenAndYourPlace: twelve players, the caller 12th.
func TestLeaderboardShowsTopTenAndYourPlace(t *testing.T) {
	var board []cribbage.Standing
	for i := 1; i <= 12; i++ {
		board = append(board, cribbage.Standing{Rank: i, UserID: "u" + strconv.Itoa(i), Name: "P" + strconv.Itoa(i), Games: 10, Wins: 13 - i, Losses: i - 3, GamesWon: 13 - i})
	}
	_, desc := panel(t, Leaderboard(lang.English, board, cribbage.Season{Number: 1}, true, "", "u12"))
	lines := strings.Split(desc, "\n")
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "**1.** P1") || lines[10] != "…" || !strings.HasPrefix(lines[11], "**12.** P12") {
		t.Errorf("board:\n%s", desc)
	}
	if strings.Contains(desc, "P11") {
		t.Error("rank 11 shown though the caller is 12th")
	}
	if _, d := panel(t, Leaderboard(lang.English, board, cribbage.Season{Number: 1}, true, "", "u3")); strings.Count(d, "\n") != 9 {
		t.Errorf("a top-ten caller gets extra lines:\n%s", d)
	}
}

// panel reads a V2 panel (render.Panel): its title and its body.
func panel(t *testing.T, r render.Message) (title, body string) {
	t.Helper()
	box, ok := r.Components[0].(discordgo.Container)
	if !r.V2 || !ok || len(box.Components) < 2 {
		t.Fatalf("not a V2 panel: %+v", r)
	}
	head, _ := box.Components[0].(discordgo.TextDisplay)
	text, _ := box.Components[1].(discordgo.TextDisplay)
	return strings.TrimPrefix(head.Content, "### "), text.Content
}

// TestLeaderboardLines: a line a player, short enough for a phone; a
// provisional rating marked with a ?, under a line that says what the
// mark means; stats show the rating with its ± and games.
func TestLeaderboardLines(t *testing.T) {
	board := []cribbage.Standing{
		{Rank: 1, UserID: "a", Name: "Alice", Games: 12, Wins: 8, Losses: 4, Rating: cribbage.Rating{R: 1623.4, RD: 71.6, Games: 12}},
		{Rank: 2, UserID: "b", Name: "Bob", Games: 1, Wins: 1, Losses: 0, Rating: cribbage.Rating{R: 1662.3, RD: 290.3, Games: 1, Provisional: true}},
	}
	r := Leaderboard(lang.English, board, cribbage.Season{Number: 2, Name: "Winter"}, true, "last 7 days", "")
	want := "**1.** Alice · **1623** · 8–4 · 12 games\n" +
		"*Provisional (?) — too few recent games to be sure yet:*\n" +
		"**2.** Bob · **1662?** · 1–0 · 1 game"
	title, got := panel(t, r)
	if got != want {
		t.Errorf("board:\n%s\nwant:\n%s", got, want)
	}
	if title != "Cribbage leaderboard · Season 2 · Winter · last 7 days" {
		t.Errorf("title %q", title)
	}
	for _, l := range strings.Split(got, "\n") {
		if n := len([]rune(l)); n > 60 {
			t.Errorf("%d characters, long for a phone: %s", n, l)
		}
	}
	if got := RatingLine(lang.English, board[1].Rating); got != "**1662** ± 290 (provisional) · 1 game" {
		t.Errorf("stats line %q", got)
	}
	_, past := panel(t, Leaderboard(lang.English, nil, cribbage.Season{Number: 1}, false, "", ""))
	if past != "No games between people in Season 1 yet." {
		t.Errorf("an empty past season: %q", past)
	}
}

// twoGames are numbers of a player over two games, worked out so every
// average is a round figure.
var twoGames = cribbage.Numbers{
	All: cribbage.Period{Games: 2, Wins: 1, SkunksGiven: 1,
		Dealer: cribbage.Role{Deals: 8, Pegging: 28, Hand: 64, Crib: 36, Throws: 8, GivenUp: 6},
		Pone:   cribbage.Role{Deals: 8, Pegging: 16, Hand: 68, Throws: 4, GivenUp: 1}},
	Recent:     cribbage.Period{Games: 1, Dealer: cribbage.Role{Deals: 4, Pegging: 10, Hand: 30, Crib: 20}, Pone: cribbage.Role{Deals: 4, Pegging: 6, Hand: 34}},
	Best:       []cribbage.BestHand{{Points: 24, Cards: engine.SetOf(engine.MustParseCards("4H 4D 5C 6S")...), Starter: engine.MustParseCard("6H")}},
	Milestones: []cribbage.EarnedMilestone{{Milestone: cribbage.FirstWin}, {Milestone: cribbage.TwentyFour}},
	Unreviewed: 3,
}

// TestNumbersBesideThePublished: each average a deal, the last 30 days
// and all time, beside the ACC's.
func TestNumbersBesideThePublished(t *testing.T) {
	got := numbersTable(lang.English, twoGames.Recent, twoGames.All)
	want := "" +
		"               30d   all   ACC\n" +
		"Dealer (8 deals)\n" +
		" pegged        2.5   3.5   3.5\n" +
		" hand          7.5   8.0   8.0\n" +
		" crib          5.0   4.5   4.7\n" +
		" given up        —  0.75     —\n" +
		"Pone (8 deals)\n" +
		" pegged        1.5   2.0   2.0\n" +
		" hand          8.5   8.5   8.1\n" +
		" given up        —  0.25     —\n"
	if got != want {
		t.Errorf("the table:\n%s\nwant\n%s", got, want)
	}
	for _, line := range strings.Split(got, "\n") {
		if n := len([]rune(line)); n > 32 {
			t.Errorf("%q is %d characters, too wide for a phone", line, n)
		}
	}
}

// TestStatsGolden holds the stats message with numbers to a golden file.
func TestStatsGolden(t *testing.T) {
	st := cribbage.Stats{Name: "Ann", People: cribbage.Record{Games: 2, Wins: 1, Losses: 1, GamesWon: 2, Pegging: 44, HandPoints: 132, Hands: 16, CribPoints: 36, Cribs: 8, BestHand: 24},
		Season: 1, Rating: cribbage.Rating{R: 1520, RD: 200, Games: 2, Provisional: true}}
	n := twoGames
	m := Stats(lang.English, st, &n, "Ann", nil)
	if len(m.Files) != 0 {
		t.Errorf("a trend of no games has a picture")
	}
	golden.JSON(t, "stats-numbers.json", m)
	for i := range 3 {
		n.Trend = append(n.Trend, cribbage.TrendGame{Deals: 8, Points: 100 + i, Throws: 6, GivenUp: 3})
	}
	m = Stats(lang.English, st, &n, "Ann", nil)
	if len(m.Files) != 1 || m.Files[0].Name != "trend.png" || len(m.Attachments) != 1 || m.Embeds[1].Image == nil || m.Embeds[1].Image.URL != "attachment://trend.png" {
		t.Errorf("three games' trend: files %+v, attachments %+v", m.Files, m.Attachments)
	}
	if m := Stats(lang.English, cribbage.Stats{Season: 1}, &cribbage.Numbers{}, "Nobody", nil); len(m.Embeds) != 1 {
		t.Errorf("numbers shown for nobody: %+v", m.Embeds)
	}
}

// TestTrendAveragesTheLastTen: each game's point is its own points a deal
// and throws' average; the line averages the last ten games, weighed by
// their deals; a game with no throw reviewed has no point.
func TestTrendAveragesTheLastTen(t *testing.T) {
	var n cribbage.Numbers
	if _, ok := Trend(lang.English, n, "Ann"); ok {
		t.Error("a trend of no games")
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		g := cribbage.TrendGame{At: at.Add(time.Duration(i) * time.Hour), Deals: 4, Points: 40 + 4*i, Throws: 4, GivenUp: 2}
		if i == 11 {
			g.Deals, g.Points, g.Throws, g.GivenUp = 8, 8*20, 0, 0
		}
		n.Trend = append(n.Trend, g)
	}
	tr, ok := Trend(lang.English, n, "Ann")
	if !ok || len(tr.Panels) != 2 {
		t.Fatalf("trend %+v", tr)
	}
	points, given := tr.Panels[0], tr.Panels[1]
	if points.Values[0] != 10 || points.Values[10] != 20 || points.Values[11] != 20 {
		t.Errorf("points a deal %v", points.Values)
	}
	// The last ten are games 3 to 12: nine of 4 deals at 12 to 20 points
	// a deal, and one of 8 deals at 20.
	want := (4*(12.0+13+14+15+16+17+18+19+20) + 8*20) / (9*4 + 8)
	if got := points.Average[11]; math.Abs(got-want) > 1e-9 {
		t.Errorf("the last running average %v, want %v", got, want)
	}
	if !math.IsNaN(given.Values[11]) || given.Average[11] != 0.5 {
		t.Errorf("given up %v, average %v", given.Values[11], given.Average[11])
	}
	if math.Abs(points.Reference-13.15) > 1e-9 {
		t.Errorf("par %v, want (10.1 + 16.2) / 2", points.Reference)
	}
}

// TestGoldenRecordsInFrench holds the leaderboard (a past week's, with a
// provisional rating) and the stats with numbers in French.
func TestGoldenRecordsInFrench(t *testing.T) {
	fr, _ := lang.ByCode("fr")
	board := []cribbage.Standing{
		{Rank: 1, UserID: "a", Name: "Alice", Games: 12, Wins: 8, Losses: 4, Rating: cribbage.Rating{R: 1623.4, RD: 71.6, Games: 12}},
		{Rank: 2, UserID: "b", Name: "Bob", Games: 1, Wins: 1, Losses: 0, Rating: cribbage.Rating{R: 1662.3, RD: 290.3, Games: 1, Provisional: true}},
	}
	golden.JSON(t, "fr-leaderboard.json", Leaderboard(fr, board, cribbage.Season{Number: 2, Name: "Ligue d'hiver"}, true, fr.T("cmd.choice.period.week"), ""))
	st := cribbage.Stats{Name: "Ann", People: cribbage.Record{Games: 2, Wins: 1, Losses: 1, GamesWon: 2, Pegging: 44, HandPoints: 132, Hands: 16, CribPoints: 36, Cribs: 8, BestHand: 24},
		Season: 1, Rating: cribbage.Rating{R: 1520, RD: 200, Games: 2, Provisional: true}, Streak: 2}
	n := twoGames
	golden.JSON(t, "fr-stats-numbers.json", Stats(fr, st, &n, "Ann", &Versus{Name: "Bob", Record: cribbage.HeadToHead{Games: 2, AWins: 1, BWins: 1}}))
	for _, line := range strings.Split(numbersTable(fr, twoGames.Recent, twoGames.All), "\n") {
		if n := len([]rune(line)); n > 32 {
			t.Errorf("%q is %d characters, too wide for a phone", line, n)
		}
	}
}

package render

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// news is a milestone's announcement at table 1 as the store queues it.
func news(id int64, e cribbage.Earned, waits bool) cribbage.OutboxItem {
	o := cribbage.MilestoneNews(e, "c", []cribbage.Outbound{{Waits: waits}})
	return cribbage.OutboxItem{ID: id, TableID: 1, ChannelID: "c", Kind: o.Kind, Payload: o.Payload, Waits: o.Waits}
}

// TestMilestoneNewsIsALineOfItsHand: the news goes out with the post of
// the change that earned it, in that hand's record; news that waits goes
// with the post that ends its hand; news queued after a post already
// sent goes by itself.
func TestMilestoneNewsIsALineOfItsHand(t *testing.T) {
	e := cribbage.Earned{UserID: "u0", Name: "Ann", Milestone: cribbage.TwentyNine, TableID: 1, Hand: 1}
	afterPost := append(queued("l:a", "p:b", "t"), news(4, e, false))
	if got := Gather(afterPost, 1, 0); !slices.Equal(ids(got), []int64{1, 2, 4}) {
		t.Errorf("news after its post: gathered %v, want the hand with it", ids(got))
	}
	m, ok := Compose(Gather(afterPost, 1, 0))
	want := "a\nb\n🏅 **Ann** earns a milestone: **A 29 hand** — the perfect hand: three fives and the right jack, the fourth five turned up."
	if !ok || len(m.Embeds) != 1 || m.Embeds[0].Title != "Hand 1" || m.Embeds[0].Description != want {
		t.Errorf("the record: %+v, want one embed reading\n%s", m.Embeds, want)
	}
	waiting := append(queued("l:a"), news(2, e, true))
	if got := Gather(waiting, 1, 0); got != nil {
		t.Errorf("waiting news went out before its post: %v", ids(got))
	}
	if got := Gather(append(waiting, queued("l:x", "p:c")[1]), 1, 0); len(got) != 3 {
		t.Errorf("waiting news and its post: %v", ids(got))
	}
	alone := []cribbage.OutboxItem{news(7, e, false)}
	m, ok = Compose(Gather(alone, 1, 0))
	if !ok || len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Description, "A 29 hand") {
		t.Errorf("news alone: %+v", m)
	}
	champion := cribbage.Earned{UserID: "u0", Name: "Ann", Milestone: cribbage.TournamentWon, TableID: 1}
	if m, _ := Compose([]cribbage.OutboxItem{news(8, champion, false)}); !strings.Contains(m.Content, "Tournament champion") || len(m.Embeds) != 0 {
		t.Errorf("news of no hand is the message's text: %+v", m)
	}
}

// TestEveryMilestoneHasWords: players never read a milestone's id.
func TestEveryMilestoneHasWords(t *testing.T) {
	for _, m := range cribbage.AllMilestones {
		if _, ok := milestoneWords[m]; !ok {
			t.Errorf("%s has no words", m)
		}
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
	got := numbersTable(twoGames.Recent, twoGames.All)
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
	m := Stats(st, &n, "Ann", nil)
	if len(m.Files) != 0 {
		t.Errorf("a trend of no games has a picture")
	}
	golden(t, "stats-numbers.json", m)
	for i := range 3 {
		n.Trend = append(n.Trend, cribbage.TrendGame{Deals: 8, Points: 100 + i, Throws: 6, GivenUp: 3})
	}
	m = Stats(st, &n, "Ann", nil)
	if len(m.Files) != 1 || m.Files[0].Name != "trend.png" || len(m.Attachments) != 1 || m.Embeds[1].Image == nil || m.Embeds[1].Image.URL != "attachment://trend.png" {
		t.Errorf("three games' trend: files %+v, attachments %+v", m.Files, m.Attachments)
	}
	if m := Stats(cribbage.Stats{Season: 1}, &cribbage.Numbers{}, "Nobody", nil); len(m.Embeds) != 1 {
		t.Errorf("numbers shown for nobody: %+v", m.Embeds)
	}
}

// TestTrendAveragesTheLastTen: each game's point is its own points a deal
// and throws' average; the line averages the last ten games, weighed by
// their deals; a game with no throw reviewed has no point.
func TestTrendAveragesTheLastTen(t *testing.T) {
	var n cribbage.Numbers
	if _, ok := Trend(n, "Ann"); ok {
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
	tr, ok := Trend(n, "Ann")
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

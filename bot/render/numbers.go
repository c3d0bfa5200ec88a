package render

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// A player's numbers, as /cribbage-club stats shows them beside the
// published averages of good players, and their milestones, in their
// stats and in the table's story when earned.

// Published are the points a deal good players average, as the American
// Cribbage Congress's site publishes them: John Chambers's column "Average
// scoring" (tip 6, www.cribbage.org/NewSite/tips/chambers6.asp) gives the
// non-dealer 2.0 pegged and 8.1 held, the dealer 3.5 pegged, 8.0 held and
// 4.7 from the crib, 10.1 and 16.2 a deal in all. They are two-player
// figures; nothing there says how many games they were measured over.
var Published = struct {
	DealerPegging, DealerHand, DealerCrib float64
	PonePegging, PoneHand                 float64
}{3.5, 8.0, 4.7, 2.0, 8.1}

// publishedPerDeal is the published points a deal of one player, dealing
// every other hand: (16.2 + 10.1) / 2.
var publishedPerDeal = (Published.DealerPegging + Published.DealerHand + Published.DealerCrib + Published.PonePegging + Published.PoneHand) / 2

// milestoneWords are each milestone's name and what earns it, as players
// read them.
var milestoneWords = map[cribbage.Milestone][2]string{
	cribbage.TwentyNine:      {"A 29 hand", "the perfect hand: three fives and the right jack, the fourth five turned up"},
	cribbage.TwentyEight:     {"A 28 hand", "all four fives and a ten-card"},
	cribbage.TwentyFour:      {"A 24 hand", "the best count there is after 28 and 29"},
	cribbage.Twenty:          {"A 20 hand", "20 or more in one count"},
	cribbage.FiveCardFlush:   {"A five-card flush", "the hand and the starter all one suit"},
	cribbage.FourOfAKind:     {"Four of a kind", "four of a rank in one count"},
	cribbage.DoublePairRoyal: {"Double pair royal", "the fourth of a rank laid in the play, 12 at once"},
	cribbage.RunOfFive:       {"A run of five in the play", "five cards or more in sequence on the count"},
	cribbage.BigPegging:      {"Twelve pegged in a hand", fmt.Sprintf("%d or more in one hand's play", cribbage.BigPeggingPoints)},
	cribbage.Muggins:         {"Muggins!", "points an opponent missed, taken"},
	cribbage.FirstWin:        {"First win", "a game won against people"},
	cribbage.BeatTheComputer: {"Beat the computer", "a game won against a computer player"},
	cribbage.BeatStrong:      {"Beat the strong computer", "a game won against the strong computer"},
	cribbage.ThreeHandedWin:  {"A three-hander won", "the first of three to the game"},
	cribbage.FourHandedWin:   {"A four-hander won", "the first of four, each for themselves"},
	cribbage.PartnershipWin:  {"A partnership won", "two against two"},
	cribbage.Skunk:           {"A skunk", "a game won with the other 31 or more short"},
	cribbage.DoubleSkunk:     {"A double skunk", "a game won with the other 61 or more short"},
	cribbage.PeggedOutBehind: {"Pegged out from behind", "behind when the last hand was dealt, and out in the play before the other could count"},
	cribbage.Comeback:        {"A comeback", fmt.Sprintf("a game won after trailing by %d or more", cribbage.ComebackPoints)},
	cribbage.StinkHole:       {"Left in the stink hole", "a game won with the other one point short"},
	cribbage.MatchWon:        {"A match won", "the first match won"},
	cribbage.TournamentWon:   {"Tournament champion", "a tournament won"},
	cribbage.Games10:         {"10 games", "ten games played to the end"},
	cribbage.Games100:        {"100 games", "a hundred games played to the end"},
	cribbage.Games500:        {"500 games", "five hundred games played to the end"},
	cribbage.Wins10:          {"10 wins", "ten games won against people"},
	cribbage.Wins50:          {"50 wins", "fifty games won against people"},
	cribbage.Wins100:         {"100 wins", "a hundred games won against people"},
	cribbage.Streak5:         {"Five in a row", "five wins in a row against people"},
	cribbage.Streak10:        {"Ten in a row", "ten wins in a row against people"},
	cribbage.DailyWeek:       {"A week of daily hands", "the daily hand seven days in a row"},
	cribbage.DailyMonth:      {"A month of daily hands", "the daily hand thirty days in a row"},
}

// MilestoneName is what players call a milestone.
func MilestoneName(m cribbage.Milestone) string {
	if w, ok := milestoneWords[m]; ok {
		return w[0]
	}
	return string(m)
}

// MilestoneLine is a milestone's news in the table's story.
func MilestoneLine(e cribbage.Earned) string {
	w, ok := milestoneWords[e.Milestone]
	if !ok {
		return fmt.Sprintf("🏅 **%s** earns a milestone: %s.", e.Name, e.Milestone)
	}
	return fmt.Sprintf("🏅 **%s** earns a milestone: **%s** — %s.", e.Name, w[0], w[1])
}

// trendFile is the trend picture's name on the stats message.
const trendFile = "trend.png"

// trendMinGames is how many games a trend needs before it is drawn: a
// line through two dots says nothing.
const trendMinGames = 3

// trendWindow is how many games the trend's line averages: long enough
// to smooth the luck of the cards, short enough to turn when play does.
const trendWindow = 10

// numbersEmbed is a player's numbers: their two-player averages a deal,
// the last 30 days and all time beside the published ones, what their
// throws gave up, skunks, best hands and milestones. It is false when
// they have neither a counted game nor a milestone.
func numbersEmbed(n cribbage.Numbers) (*discordgo.MessageEmbed, bool) {
	if n.All.Games == 0 && len(n.Milestones) == 0 {
		return nil, false
	}
	e := &discordgo.MessageEmbed{Title: "Your numbers · a deal, two-player games", Color: 0x2e7d32}
	if n.All.Games > 0 {
		e.Description = "```\n" + numbersTable(n.Recent, n.All) + "```"
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Games",
			Value: fmt.Sprintf("%d in %d days · %d in all · won %d · skunks given %d (%d double) · taken %d (%d double)",
				n.Recent.Games, cribbage.RecentDays, n.All.Games, n.All.Wins, n.All.SkunksGiven, n.All.DoubleSkunksGiven, n.All.SkunksTaken, n.All.DoubleSkunksTaken)})
	}
	if len(n.Best) > 0 {
		var lines []string
		for _, b := range n.Best {
			what := "hand"
			if b.Crib {
				what = "crib"
			}
			lines = append(lines, fmt.Sprintf("**%d** %s · %s + %s", b.Points, what, engine.DisplayCards(b.Cards.Cards()), b.Starter.Display()))
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Best hands", Value: strings.Join(lines, "\n")})
	}
	if len(n.Milestones) > 0 {
		var names []string
		for _, m := range n.Milestones {
			names = append(names, MilestoneName(m.Milestone))
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: fmt.Sprintf("Milestones · %d of %d", len(n.Milestones), len(cribbage.AllMilestones)),
			Value: cutRunes("🏅 "+strings.Join(names, " · "), 1024)})
	}
	foot := "ACC: the averages of good players on the American Cribbage Congress's site. Given up: expected points a throw to the crib gave away against the best, as the coach reckons it. Complete deals only; games where the coach was asked are left out."
	if n.Unreviewed > 0 {
		foot += fmt.Sprintf(" %d of your throws are still being reviewed.", n.Unreviewed)
	}
	e.Footer = &discordgo.MessageEmbedFooter{Text: foot}
	return e, true
}

// numbersTable is the averages as a small monospaced table, narrow enough
// for a phone: a row a figure, the last 30 days, all time and the
// published average.
func numbersTable(recent, all cribbage.Period) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %7s %5s %5s\n", "", fmt.Sprintf("%dd", cribbage.RecentDays), "all", "ACC")
	row := func(label string, r, a cribbage.Role, points func(cribbage.Role) int, published float64) {
		avg := func(x cribbage.Role) string {
			if v, ok := x.PerDeal(points(x)); ok {
				return fmt.Sprintf("%.1f", v)
			}
			return "—"
		}
		pub := "—"
		if published > 0 {
			pub = fmt.Sprintf("%.1f", published)
		}
		fmt.Fprintf(&b, "%-10s %7s %5s %5s\n", label, avg(r), avg(a), pub)
	}
	given := func(label string, r, a cribbage.Role) {
		avg := func(x cribbage.Role) string {
			if v, ok := x.GivenUpPerThrow(); ok {
				return fmt.Sprintf("%.2f", v)
			}
			return "—"
		}
		fmt.Fprintf(&b, "%-10s %7s %5s %5s\n", label, avg(r), avg(a), "—")
	}
	pegging := func(r cribbage.Role) int { return r.Pegging }
	hand := func(r cribbage.Role) int { return r.Hand }
	crib := func(r cribbage.Role) int { return r.Crib }
	fmt.Fprintf(&b, "Dealer (%d deals)\n", all.Dealer.Deals)
	row(" pegged", recent.Dealer, all.Dealer, pegging, Published.DealerPegging)
	row(" hand", recent.Dealer, all.Dealer, hand, Published.DealerHand)
	row(" crib", recent.Dealer, all.Dealer, crib, Published.DealerCrib)
	given(" given up", recent.Dealer, all.Dealer)
	fmt.Fprintf(&b, "Pone (%d deals)\n", all.Pone.Deals)
	row(" pegged", recent.Pone, all.Pone, pegging, Published.PonePegging)
	row(" hand", recent.Pone, all.Pone, hand, Published.PoneHand)
	given(" given up", recent.Pone, all.Pone)
	return b.String()
}

// Trend is a player's last games as a picture (internal/picture's Trend):
// their points a deal and what a throw gave up, game by game, with a
// running average over the last ten games and the published par. It is
// false with fewer than three games.
func Trend(n cribbage.Numbers, name string) (picture.Trend, bool) {
	if len(n.Trend) < trendMinGames {
		return picture.Trend{}, false
	}
	var points, given []float64
	for _, g := range n.Trend {
		points = append(points, ratio(float64(g.Points), g.Deals))
		given = append(given, ratio(g.GivenUp, g.Throws))
	}
	// The running averages weigh each game by its deals and throws, as the
	// table's averages do.
	perDeal := func(g cribbage.TrendGame) (float64, int) { return float64(g.Points), g.Deals }
	perThrow := func(g cribbage.TrendGame) (float64, int) { return g.GivenUp, g.Throws }
	return picture.Trend{
		Title:    fmt.Sprintf("%s · the last %d games", name, len(n.Trend)),
		Subtitle: fmt.Sprintf("two-player games · the line averages the last %d", trendWindow),
		Panels: []picture.TrendPanel{
			{Label: "Points a deal: pegged, held and crib", Values: points, Average: running(n.Trend, perDeal),
				Reference: publishedPerDeal, RefLabel: fmt.Sprintf("ACC %.2f", publishedPerDeal)},
			{Label: "Given up a throw (less is better)", Values: given, Average: running(n.Trend, perThrow), Side: 1, Digits: 1},
		},
	}, true
}

// ratio is x over n, or NaN for none.
func ratio(x float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return x / float64(n)
}

// running is, at each game, the sum over the last trendWindow games of
// what of gives over the sum of its counts: NaN while none is counted.
func running(games []cribbage.TrendGame, of func(cribbage.TrendGame) (float64, int)) []float64 {
	var out []float64
	for i := range games {
		sum, n := 0.0, 0
		for _, g := range games[max(0, i-trendWindow+1) : i+1] {
			x, k := of(g)
			sum, n = sum+x, n+k
		}
		out = append(out, ratio(sum, n))
	}
	return out
}

// withNumbers adds a player's numbers to their stats message: the
// embed, and the trend picture as its image.
func withNumbers(m Message, n *cribbage.Numbers, name string) Message {
	if n == nil {
		return m
	}
	e, ok := numbersEmbed(*n)
	if !ok {
		return m
	}
	m.Embeds = append(m.Embeds, e)
	if tr, ok := Trend(*n, name); ok {
		e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + trendFile}
		m.Files = []*discordgo.File{{Name: trendFile, ContentType: "image/png", Reader: bytes.NewReader(picture.PNG(tr.Render()))}}
		m.Attachments = []*discordgo.MessageAttachment{{ID: "0", Filename: trendFile}}
	}
	return m
}

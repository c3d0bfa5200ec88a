package club

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// The records as players read them, in the language given: the
// leaderboard (the channel's, in the server's language), the seasons, a
// player's stats and their numbers beside the published averages of good
// players, with their trend as a picture. Pure: these are the words of
// the answers in club.go, apart from their reads.

// colour is the records' colour: the leaderboard's accent, the stats'
// embed.
const colour = 0x2e7d32

// Leaderboard lists the top ten of a season's board, and the caller's
// line if lower; period, if not empty, names the part of the season it
// counts, as l's readers name it. Each player is one short line so it
// reads on a phone: rank, name, rating, wins–losses and games. It is a
// Components V2 panel (render.Panel): the title, the lines, the footer.
// Provisional ratings are marked with a ? and come after the settled
// ones, under a line that says what the mark means.
func Leaderboard(l lang.Lang, board []cribbage.Standing, se cribbage.Season, current bool, period, uid string) render.Message {
	title := l.T("leaderboard.title", "Season", SeasonTitle(l, se))
	if period != "" {
		title += " · " + period
	}
	if len(board) == 0 {
		empty := l.T("leaderboard.empty", "Season", SeasonTitle(l, se))
		if period != "" {
			empty = l.T("leaderboard.empty-period", "Period", period)
		}
		if current {
			empty += " " + l.T("leaderboard.start-one", "Command", "/cribbage "+l.T("cmd.name.start"))
		}
		return render.Panel(colour, title, empty, "")
	}
	var lines []string
	marked := false
	add := func(s cribbage.Standing) {
		if s.Rating.Provisional && !marked {
			lines = append(lines, l.T("leaderboard.provisional"))
			marked = true
		}
		lines = append(lines, l.T("leaderboard.line", "Rank", s.Rank, "Name", s.Name, "Rating", RatingNumber(s.Rating),
			"Wins", s.Wins, "Losses", s.Losses, "Games", Games(l, s.Games)))
	}
	for i, s := range board {
		if i < 10 {
			add(s)
		} else if s.UserID == uid {
			lines = append(lines, "…")
			add(s)
		}
	}
	return render.Panel(colour, title, strings.Join(lines, "\n"), l.T("leaderboard.footer", "Seasons", "/cribbage-club "+l.T("cmd.name.seasons")))
}

// Games is "1 game" or "n games", in l.
func Games(l lang.Lang, n int) string { return l.N("records.games", n) }

// RatingNumber is a rating as a whole number, with a ? while
// provisional. It is written without a thousands separator in every
// language, as ratings are.
func RatingNumber(r cribbage.Rating) string {
	n := strconv.Itoa(int(math.Round(r.R)))
	if r.Provisional {
		n += "?"
	}
	return n
}

// RatingLine is a rating with its uncertainty, as stats show it:
// "1610 ± 180 (provisional) · 5 games".
func RatingLine(l lang.Lang, r cribbage.Rating) string {
	line := fmt.Sprintf("**%d** ± %d", int(math.Round(r.R)), int(math.Round(r.RD)))
	if r.Provisional {
		line += " " + l.T("records.provisional")
	}
	return line + " · " + Games(l, r.Games)
}

// RecordFields renders a record under title.
func RecordFields(l lang.Lang, title string, r cribbage.Record) []*discordgo.MessageEmbedField {
	if r.Games == 0 {
		return []*discordgo.MessageEmbedField{{Name: title, Value: l.T("records.no-games")}}
	}
	avg := func(points, n int) string {
		if n == 0 {
			return "—"
		}
		return l.Float(float64(points)/float64(n), 1)
	}
	return []*discordgo.MessageEmbedField{
		{Name: title, Value: l.T("records.summary", "Games", Games(l, r.Games), "Wins", r.Wins, "Losses", r.Losses, "GamesWon", r.GamesWon)},
		{Name: l.T("records.skunks"), Value: l.T("records.skunks-value", "Given", r.SkunksGiven, "DoubleGiven", r.DoubleSkunksGiven,
			"Taken", r.SkunksTaken, "DoubleTaken", r.DoubleSkunksTaken), Inline: true},
		{Name: l.T("records.best-hand"), Value: l.T("records.best-hand-value", "Best", r.BestHand, "TwentyNines", r.TwentyNines), Inline: true},
		{Name: l.T("records.averages"), Value: l.T("records.averages-value", "Hand", avg(r.HandPoints, r.Hands), "Crib", avg(r.CribPoints, r.Cribs),
			"Pegging", avg(r.Pegging, r.Hands)), Inline: true},
	}
}

// SeasonTitle names a season: "Season 2 · Winter league".
func SeasonTitle(l lang.Lang, se cribbage.Season) string {
	title := l.T("season.title", "N", se.Number)
	if se.Name == "" {
		return title
	}
	return title + " · " + se.Name
}

// Seasons lists seasons newest first, a line each: its name, when it
// ran and who started it, and its games. Times are Discord timestamps,
// shown in each reader's own time zone and language.
func Seasons(l lang.Lang, seasons []cribbage.Season) render.Message {
	var lines []string
	for i, se := range slices.Backward(seasons) {
		line := "**" + SeasonTitle(l, se) + "**"
		switch {
		case se.StartedAt.IsZero():
			lines = append(lines, line+" — "+l.T("seasons.first"))
			continue
		case i == len(seasons)-1:
			line += " " + l.T("seasons.now", "Since", se.StartedAt.Unix())
		default:
			line += " — " + l.T("seasons.ran", "From", se.StartedAt.Unix(), "To", seasons[i+1].StartedAt.Unix())
		}
		if se.StartedBy != "" {
			line += l.T("seasons.started-by", "By", se.StartedBy)
		}
		lines = append(lines, line+" · "+Games(l, se.Games))
	}
	board := "/cribbage-club " + l.T("cmd.name.leaderboard") + " " + l.T("cmd.name.season") + ": N"
	e := &discordgo.MessageEmbed{Title: l.T("seasons.title"), Color: colour, Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: l.T("seasons.footer", "Command", board)}}
	return render.Message{Embeds: []*discordgo.MessageEmbed{e}}
}

// SeasonBegun is the channel's news of a new season, se, started by uid.
func SeasonBegun(l lang.Lang, se cribbage.Season, uid string) string {
	board := "/cribbage-club " + l.T("cmd.name.leaderboard") + " " + l.T("cmd.name.season") + ": " + strconv.Itoa(se.Number-1)
	return l.T("season.begun", "Season", SeasonTitle(l, se), "By", uid, "Past", se.Number-1, "Command", board)
}

// Versus is the record against one other player that stats show when
// asked: the other's name, and their games together.
type Versus struct {
	Name   string
	Record cribbage.HeadToHead
}

// Stats is a player's record, as /cribbage-club stats shows it privately:
// their rating this season, their games against people and against the
// computer, against one other player when vs is set, and their numbers
// (n, if not nil) with their trend as a picture.
func Stats(l lang.Lang, st cribbage.Stats, n *cribbage.Numbers, name string, vs *Versus) render.Message {
	e := &discordgo.MessageEmbed{Title: l.T("stats.title", "Name", name), Color: colour}
	rated := l.T("stats.not-rated", "Season", st.Season)
	if st.Rating.Games > 0 {
		rated = RatingLine(l, st.Rating)
	}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("stats.rating", "Season", st.Season), Value: rated})
	e.Fields = append(e.Fields, RecordFields(l, l.T("stats.against-people"), st.People)...)
	if st.People.Games > 0 {
		streak := "—"
		switch {
		case st.Streak > 0:
			streak = l.N("stats.streak-won", st.Streak)
		case st.Streak < 0:
			streak = l.N("stats.streak-lost", -st.Streak)
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("stats.streak"), Value: streak, Inline: true})
	}
	if m := st.Matches; m.Matches > 0 {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("stats.matches"), Value: l.T("stats.matches-value", "Won", m.Won, "Lost", m.Lost), Inline: true})
	}
	if st.Computer.Games > 0 {
		e.Fields = append(e.Fields, RecordFields(l, l.T("stats.against-computer"), st.Computer)...)
	}
	if vs != nil {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("stats.against", "Name", vs.Name),
			Value: l.T("stats.against-value", "Games", Games(l, vs.Record.Games), "A", vs.Record.AWins, "B", vs.Record.BWins)})
	}
	if st.People.Games+st.Computer.Games == 0 {
		e.Description = l.T("stats.none")
	}
	return withNumbers(l, render.Message{Embeds: []*discordgo.MessageEmbed{e}}, n, name)
}

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
func numbersEmbed(l lang.Lang, n cribbage.Numbers) (*discordgo.MessageEmbed, bool) {
	if n.All.Games == 0 && len(n.Milestones) == 0 {
		return nil, false
	}
	e := &discordgo.MessageEmbed{Title: l.T("numbers.title"), Color: colour}
	if n.All.Games > 0 {
		e.Description = "```\n" + numbersTable(l, n.Recent, n.All) + "```"
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("numbers.games"),
			Value: l.T("numbers.games-value", "Recent", n.Recent.Games, "Days", cribbage.RecentDays, "All", n.All.Games, "Won", n.All.Wins,
				"Given", n.All.SkunksGiven, "DoubleGiven", n.All.DoubleSkunksGiven, "Taken", n.All.SkunksTaken, "DoubleTaken", n.All.DoubleSkunksTaken)})
	}
	if len(n.Best) > 0 {
		var lines []string
		for _, b := range n.Best {
			what := l.T("numbers.hand")
			if b.Crib {
				what = l.T("numbers.crib")
			}
			lines = append(lines, fmt.Sprintf("**%d** %s · %s + %s", b.Points, what, engine.DisplayCards(b.Cards.Cards()), b.Starter.Display()))
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("numbers.best-hands"), Value: strings.Join(lines, "\n")})
	}
	if len(n.Milestones) > 0 {
		var names []string
		for _, m := range n.Milestones {
			names = append(names, render.MilestoneName(l, m.Milestone))
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: l.T("numbers.milestones", "Earned", len(n.Milestones), "Of", len(cribbage.AllMilestones)),
			Value: render.Clip("🏅 "+strings.Join(names, " · "), 1024)})
	}
	foot := l.T("numbers.footer")
	if n.Unreviewed > 0 {
		foot += " " + l.N("numbers.unreviewed", n.Unreviewed)
	}
	e.Footer = &discordgo.MessageEmbedFooter{Text: foot}
	return e, true
}

// numbersTable is the averages as a small monospaced table, narrow enough
// for a phone: a row a figure, the last 30 days, all time and the
// published average.
func numbersTable(l lang.Lang, recent, all cribbage.Period) string {
	var b strings.Builder
	line := func(label, r, a, p string) {
		fmt.Fprintf(&b, "%s%s %s %s\n", pad(label, 10), padLeft(r, 8), padLeft(a, 5), padLeft(p, 5))
	}
	line("", l.T("numbers.recent", "Days", cribbage.RecentDays), l.T("numbers.all"), "ACC")
	row := func(label string, r, a cribbage.Role, points func(cribbage.Role) int, published float64) {
		avg := func(x cribbage.Role) string {
			if v, ok := x.PerDeal(points(x)); ok {
				return l.Float(v, 1)
			}
			return "—"
		}
		pub := "—"
		if published > 0 {
			pub = l.Float(published, 1)
		}
		line(" "+label, avg(r), avg(a), pub)
	}
	given := func(r, a cribbage.Role) {
		avg := func(x cribbage.Role) string {
			if v, ok := x.GivenUpPerThrow(); ok {
				return l.Float(v, 2)
			}
			return "—"
		}
		line(" "+l.T("numbers.row.given-up"), avg(r), avg(a), "—")
	}
	pegging := func(r cribbage.Role) int { return r.Pegging }
	hand := func(r cribbage.Role) int { return r.Hand }
	crib := func(r cribbage.Role) int { return r.Crib }
	b.WriteString(l.N("numbers.dealer", all.Dealer.Deals) + "\n")
	row(l.T("numbers.row.pegged"), recent.Dealer, all.Dealer, pegging, Published.DealerPegging)
	row(l.T("numbers.row.hand"), recent.Dealer, all.Dealer, hand, Published.DealerHand)
	row(l.T("numbers.row.crib"), recent.Dealer, all.Dealer, crib, Published.DealerCrib)
	given(recent.Dealer, all.Dealer)
	b.WriteString(l.N("numbers.pone", all.Pone.Deals) + "\n")
	row(l.T("numbers.row.pegged"), recent.Pone, all.Pone, pegging, Published.PonePegging)
	row(l.T("numbers.row.hand"), recent.Pone, all.Pone, hand, Published.PoneHand)
	given(recent.Pone, all.Pone)
	return b.String()
}

// pad and padLeft fill s with spaces to n characters (not bytes: "—" is
// one), on the right and on the left.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-len([]rune(s))))
}

func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(0, n-len([]rune(s)))) + s
}

// Trend is a player's last games as a picture (internal/picture's Trend),
// labelled in l: their points a deal and what a throw gave up, game by
// game, with a running average over the last ten games and the published
// par. It is false with fewer than three games.
func Trend(l lang.Lang, n cribbage.Numbers, name string) (picture.Trend, bool) {
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
		Title:    l.T("trend.title", "Name", name, "Games", len(n.Trend)),
		Subtitle: l.T("trend.subtitle", "Window", trendWindow),
		Oldest:   l.T("picture.oldest"),
		Latest:   l.T("picture.latest"),
		Panels: []picture.TrendPanel{
			{Label: l.T("trend.points"), Values: points, Average: running(n.Trend, perDeal),
				Reference: publishedPerDeal, RefLabel: "ACC " + l.Float(publishedPerDeal, 2)},
			{Label: l.T("trend.given-up"), Values: given, Average: running(n.Trend, perThrow), Side: 1, Digits: 1},
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
func withNumbers(l lang.Lang, m render.Message, n *cribbage.Numbers, name string) render.Message {
	if n == nil {
		return m
	}
	e, ok := numbersEmbed(l, *n)
	if !ok {
		return m
	}
	m.Embeds = append(m.Embeds, e)
	if tr, ok := Trend(l, *n, name); ok {
		e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + trendFile}
		m.Files = []*discordgo.File{{Name: trendFile, ContentType: "image/png", Reader: bytes.NewReader(picture.PNG(tr.Render()))}}
		m.Attachments = []*discordgo.MessageAttachment{{ID: "0", Filename: trendFile}}
	}
	return m
}

package daily

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// The daily hand as players see it, in their language: the private view
// they answer in, the answer, a server's post of the day's hand with the
// reveal of the day before (in the server's language), and a month's
// table. Every value shown is the coach's (ai.Splits, through ai.Daily),
// worded by render.DiscardHint as the coach words it. Nothing here reads
// or writes: these are the daily hand's words, apart from its answers.

// Kind is a server's post of the daily hand in the outbox. Its payload
// is the message to post (Body), whole.
const Kind = "daily"

// colour is the daily hand's embeds' colour.
const colour = 0x1565c0

// Date writes a day as l's readers read it: Saturday 14 March 2026,
// samedi 14 mars 2026. The names of days and months are the catalogue's,
// not Go's (which knows only English ones).
func Date(l lang.Lang, day cribbage.Day) string {
	t := day.Start()
	return l.T("daily.date", "Weekday", nth(l.T("daily.weekdays"), int(t.Weekday())),
		"Day", t.Day(), "Month", nth(l.T("daily.months"), int(t.Month())-1), "Year", t.Year())
}

// MonthName writes a month as l's readers do: March 2026, mars 2026.
func MonthName(l lang.Lang, month cribbage.Day) string {
	t := month.Start()
	return l.T("daily.month-year", "Month", nth(l.T("daily.months"), int(t.Month())-1), "Year", t.Year())
}

// nth is the i-th of a catalogue's comma-separated list.
func nth(list string, i int) string {
	words := strings.Split(list, ",")
	if i < 0 || i >= len(words) {
		return ""
	}
	return strings.TrimSpace(words[i])
}

// seat names a seat of the daily hand's table to the player at seat 0.
func seat(l lang.Lang, d ai.Daily, s int) string {
	switch {
	case s == 0:
		return l.T("daily.seat.you")
	case d.Options.Players == 2:
		return l.T("daily.seat.opponent")
	case s == 1:
		return l.T("daily.seat.left")
	}
	return l.T("daily.seat.right")
}

// tableLines say the daily hand's table: who deals, who plays when, and
// the board.
func tableLines(l lang.Lang, d ai.Daily) []string {
	n := d.Options.Players
	var deals string
	if d.Dealer == 0 {
		deals = l.T("daily.you-deal")
	} else {
		order := (0 - d.Dealer - 1 + 2*n) % n // from the dealer's left, who leads
		play := l.T("daily.play.lead")
		if order > 0 {
			play = l.T("daily.play.second")
		}
		deals = l.T("daily.deals", "Dealer", upperFirst(seat(l, d, d.Dealer)), "Play", play)
	}
	if n == 3 {
		deals += " " + l.T("daily.three")
	}
	var score []string
	for s, points := range d.Scores {
		part := l.T("daily.score-part", "Seat", seat(l, d, s), "Points", points)
		if s == 0 {
			part = "**" + part + "**"
		}
		score = append(score, part)
	}
	return []string{deals, l.T("daily.score", "Scores", strings.Join(score, ", "), "Target", d.Options.Target)}
}

// upperFirst capitalises the first letter.
func upperFirst(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// head is a daily message's first line.
func head(l lang.Lang, day cribbage.Day, what string) string {
	return l.T("daily.head", "Date", Date(l, day), "What", what)
}

// points writes points given up or expected, to two places, as l does.
func points(l lang.Lang, x float64) string { return l.Float(x, 2) }

// cards writes cards as players read them.
func cards(cs []engine.Card) string { return engine.DisplayCards(cs) }

// View is the private view a player answers the day's hand in: the
// table, a toggle button a card, and Confirm once the right number are
// chosen, as the hand view's throw to the crib looks. note, if any, leads
// it (why a click was refused, say).
func View(l lang.Lang, d ai.Daily, day cribbage.Day, selected engine.CardSet, note string) render.Message {
	var lines []string
	if note != "" {
		lines = append(lines, note)
	}
	want := d.Options.DiscardSize()
	lines = append(lines, head(l, day, l.T("daily.head.view")))
	lines = append(lines, tableLines(l, d)...)
	crib := l.T("daily.crib.opponent")
	if d.Dealer == 0 {
		crib = l.T("daily.crib.yours")
	} else if d.Options.Players > 2 {
		crib = l.T("daily.crib.dealer")
	}
	lines = append(lines, l.N("daily.choose", want, "Word", render.NumberWord(l, want), "Crib", crib))
	selected &= d.Dealt
	if selected != 0 {
		lines = append(lines, l.T("hand.chosen", "Cards", cards(selected.Cards())))
	}
	var buttons []discordgo.MessageComponent
	for _, c := range d.Dealt.Cards() {
		style, next := discordgo.SecondaryButton, selected.Add(c)
		if selected.Has(c) {
			style, next = discordgo.PrimaryButton, selected.Remove(c)
		}
		buttons = append(buttons, discordgo.Button{Label: c.Display(), Style: style, CustomID: click.ID{Action: click.DailySelect, Table: int64(day), Cards: next}.String()})
	}
	confirm := discordgo.Button{Label: l.T("button.confirm"), Style: discordgo.SuccessButton, Disabled: selected.Len() != want,
		CustomID: click.ID{Action: click.DailyThrow, Table: int64(day), Cards: selected}.String()}
	rows := append(render.CardRows(buttons), discordgo.ActionsRow{Components: []discordgo.MessageComponent{confirm}})
	return render.Message{Content: strings.Join(lines, "\n"), Components: rows}
}

// Verdict says what a throw gives up against the best, in the coach's
// expected points.
func Verdict(l lang.Lang, d ai.Daily, throw engine.CardSet) string {
	mine, gave, _ := d.Judge(throw)
	best := d.Splits[0]
	if gave < 1e-9 {
		return l.T("daily.verdict.best", "Cards", cards(throw.Cards()), "Total", points(l, mine.Total))
	}
	return l.T("daily.verdict", "Cards", cards(throw.Cards()), "Total", points(l, mine.Total), "Gave", points(l, gave),
		"Best", cards(best.Throw), "BestTotal", points(l, best.Total))
}

// Result is a player's answer to the day's hand: what the throw gives up
// against the best, the coach's best throws with their hand, crib and
// play, and after them more (the streak, the month). month, when set,
// adds the button to the server's month.
func Result(l lang.Lang, d ai.Daily, a cribbage.DailyAnswer, more []string, month bool) render.Message {
	lines := []string{head(l, a.Day, l.T("daily.head.answer"))}
	lines = append(lines, tableLines(l, d)...)
	lines = append(lines, l.T("daily.dealt", "Cards", cards(d.Dealt.Cards())), Verdict(l, d, a.Throw), render.DiscardHint(l, d.Options, d.Splits, 3))
	lines = append(lines, more...)
	m := render.Message{Content: strings.Join(lines, "\n")}
	if month {
		m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("daily.button.month"), Style: discordgo.SecondaryButton, Emoji: &discordgo.ComponentEmoji{Name: "📅"},
				CustomID: click.ID{Action: click.DailyMonth, Table: int64(a.Day)}.String()}}}}
	}
	return m
}

// StreakLine says a player's streak of days answered.
func StreakLine(l lang.Lang, n int) string {
	switch n {
	case 0:
		return l.T("daily.streak.none")
	case 1:
		return l.T("daily.streak.first")
	}
	return l.N("daily.streak", n)
}

// Reveal is a day's hand as a server answered it, for the next day's
// post: its answers there, and the month's table up to it.
type Reveal struct {
	Hand    ai.Daily
	Day     cribbage.Day
	Answers []cribbage.DailyAnswer
	// Month are the server's totals of the day's month, up to the day.
	Month []cribbage.DailyTotal
}

// throwShare is how many of a server threw one throw.
type throwShare struct {
	throw engine.CardSet
	n     int
	gave  float64
}

// shares counts a server's answers by throw: most first, then the ones
// that give up less.
func (r Reveal) shares() []throwShare {
	var out []throwShare
	for _, a := range r.Answers {
		i := slices.IndexFunc(out, func(s throwShare) bool { return s.throw == a.Throw })
		if i < 0 {
			_, gave, _ := r.Hand.Judge(a.Throw)
			out = append(out, throwShare{throw: a.Throw, gave: gave})
			i = len(out) - 1
		}
		out[i].n++
	}
	slices.SortStableFunc(out, func(a, b throwShare) int {
		if a.n != b.n {
			return b.n - a.n
		}
		switch {
		case a.gave < b.gave:
			return -1
		case a.gave > b.gave:
			return 1
		}
		return 0
	})
	return out
}

// revealEmbed is the reveal of a day's hand in a server: the best throws,
// how the server threw, and the month's table.
func revealEmbed(l lang.Lang, r Reveal) *discordgo.MessageEmbed {
	lines := tableLines(l, r.Hand)
	lines = append(lines, l.T("daily.reveal.dealt", "Cards", cards(r.Hand.Dealt.Cards())), "", render.DiscardHint(l, r.Hand.Options, r.Hand.Splits, 3), "")
	if len(r.Answers) == 0 {
		lines = append(lines, l.T("daily.reveal.nobody"))
	} else {
		lines = append(lines, l.N("daily.reveal.how", len(r.Answers)))
		for _, s := range r.shares() {
			verdict := l.T("daily.reveal.best")
			if s.gave >= 1e-9 {
				verdict = l.T("daily.reveal.gives-up", "Gave", points(l, s.gave))
			}
			percent := (200*s.n + len(r.Answers)) / (2 * len(r.Answers))
			lines = append(lines, l.T("daily.reveal.share", "Cards", cards(s.throw.Cards()), "Percent", percent, "Count", s.n, "Verdict", verdict))
		}
	}
	if len(r.Month) > 0 {
		lines = append(lines, "", l.T("daily.reveal.month", "Month", upperFirst(nth(l.T("daily.months"), int(r.Day.Start().Month())-1))))
		lines = append(lines, monthLines(l, r.Month, 5, "")...)
	}
	return &discordgo.MessageEmbed{Title: l.T("daily.reveal.title", "Date", Date(l, r.Day)), Color: colour, Description: strings.Join(lines, "\n")}
}

// monthLines are a month's table, the first n places, and the viewer's
// own place after them if it is lower.
func monthLines(l lang.Lang, ts []cribbage.DailyTotal, n int, uid string) []string {
	var lines []string
	for i, t := range ts {
		if i >= n && t.UserID != uid {
			continue
		}
		if i >= n && len(lines) == n {
			lines = append(lines, "…")
		}
		lines = append(lines, l.N("daily.month.line", t.Days, "Place", i+1, "Name", t.Name, "Gave", points(l, t.GaveUp)))
	}
	return lines
}

// Post is a server's post of the day, in the server's language: the
// reveal of the day before, if any, and the day's hand with the button
// to answer it privately.
func Post(l lang.Lang, d ai.Daily, day cribbage.Day, reveal *Reveal) render.Message {
	var embeds []*discordgo.MessageEmbed
	if reveal != nil {
		embeds = append(embeds, revealEmbed(l, *reveal))
	}
	lines := tableLines(l, d)
	lines = append(lines, l.T("daily.post.hold", "Cards", cards(d.Dealt.Cards())),
		"", l.T("daily.post.how", "Command", "/cribbage "+l.T("cmd.name.daily")))
	embeds = append(embeds, &discordgo.MessageEmbed{Title: l.T("daily.post.title", "Date", Date(l, day)), Color: colour, Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: l.T("daily.post.footer", "Date", d.Date, "Attempt", d.Attempt, "Seed", d.Seed)}})
	return render.Message{Embeds: embeds, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("daily.button.answer"), Style: discordgo.PrimaryButton, Emoji: &discordgo.ComponentEmoji{Name: "🃏"},
			CustomID: click.ID{Action: click.DailyOpen, Table: int64(day)}.String()}}}}}
}

// Month is a server's table of a month, up to (not including) the day
// still open: fewest points given up first.
func Month(l lang.Lang, ts []cribbage.DailyTotal, month cribbage.Day, uid string, over bool) render.Message {
	lines := []string{l.T("daily.month.head", "Month", MonthName(l, month))}
	if len(ts) == 0 {
		lines = append(lines, l.T("daily.month.nobody"))
	}
	lines = append(lines, monthLines(l, ts, 20, uid)...)
	if !over {
		lines = append(lines, l.T("daily.month.today"))
	}
	return render.Message{Content: strings.Join(lines, "\n")}
}

// OwnMonth is a player's own month, wherever they answered: in a DM the
// records are theirs alone.
func OwnMonth(l lang.Lang, history []cribbage.DailyAnswer, month cribbage.Day, streak int) string {
	total := 0.0
	for _, a := range history {
		total += a.GaveUp
	}
	line := l.N("daily.own-month", len(history), "Month", MonthName(l, month), "Gave", points(l, total))
	return line + "\n" + StreakLine(l, streak)
}

// settingsExample is the admin command that sets the daily hand, as l's
// admins see it.
func settingsExample(l lang.Lang) string {
	return "/cribbage-admin " + l.T("cmd.name.daily") + " " + l.T("cmd.name.channel") + ": #cribbage " + l.T("cmd.name.hour") + ": 9"
}

// SettingsText says where and when a server gets the daily hand.
func SettingsText(l lang.Lang, ds cribbage.DailySettings) string {
	if ds.ChannelID == "" {
		return l.T("daily.settings.none", "Example", settingsExample(l))
	}
	off := "/cribbage-admin " + l.T("cmd.name.daily") + " " + l.T("cmd.name.off") + ": True"
	return l.T("daily.settings.on", "Channel", ds.ChannelID, "Hour", fmt.Sprintf("%02d", ds.Hour), "Off", off)
}

// Body is a daily post as it is queued and sent: a channel message,
// notifying nobody, its nonce set when it is sent.
type Body struct {
	Content         string                            `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	Components      []discordgo.MessageComponent      `json:"components,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

// BodyOf is a render as a daily post's body.
func BodyOf(r render.Message) Body {
	return Body{Content: r.Content, Embeds: r.Embeds, Components: r.Components, AllowedMentions: r.AllowedMentions()}
}

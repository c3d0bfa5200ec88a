package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// The daily hand as players see it: the private view they answer in, the
// answer, a server's post of the day's hand with the reveal of the day
// before, and a month's table. Every value shown is the coach's
// (ai.Splits, through ai.Daily), worded by DiscardHint as the coach words
// it.

// KindDaily is a server's post of the daily hand in the outbox. Its
// payload is the message to post (DailyBody), whole.
const KindDaily = "daily"

// dailyColour is the daily hand's embeds' colour.
const dailyColour = 0x1565c0

// DailyDate writes a day as people read it: Saturday 14 March 2026.
func DailyDate(day cribbage.Day) string { return day.Start().Format("Monday 2 January 2006") }

// dailySeat names a seat of the daily hand's table to the player at seat 0.
func dailySeat(d ai.Daily, seat int) string {
	switch {
	case seat == 0:
		return "you"
	case d.Options.Players == 2:
		return "your opponent"
	case seat == 1:
		return "the player on your left"
	}
	return "the player on your right"
}

// dailyTableLines say the daily hand's table: who deals, who plays when,
// and the board.
func dailyTableLines(d ai.Daily) []string {
	n := d.Options.Players
	var deals string
	if d.Dealer == 0 {
		deals = "**You deal**: the crib is yours, and you play last."
	} else {
		order := (0 - d.Dealer - 1 + 2*n) % n // from the dealer's left, who leads
		play := "you lead the play"
		if order > 0 {
			play = "you play second"
		}
		deals = fmt.Sprintf("**%s deals**: the crib is theirs, and %s.", upperFirst(dailySeat(d, d.Dealer)), play)
	}
	if n == 3 {
		deals += " Three players: one card each to the crib, and one from the deck."
	}
	var score []string
	for seat, s := range d.Scores {
		part := fmt.Sprintf("%s %d", dailySeat(d, seat), s)
		if seat == 0 {
			part = "**" + part + "**"
		}
		score = append(score, part)
	}
	return []string{deals, fmt.Sprintf("Score: %s, %d to win.", strings.Join(score, ", "), d.Options.Target)}
}

// upperFirst capitalises the first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// dailyHead is a daily message's first line.
func dailyHead(day cribbage.Day, what string) string {
	return fmt.Sprintf("**Daily hand** · %s · %s", DailyDate(day), what)
}

// DailyView is the private view a player answers the day's hand in: the
// table, a toggle button a card, and Confirm once the right number are
// chosen, as the hand view's throw to the crib looks. note, if any, leads
// it (why a click was refused, say).
func DailyView(d ai.Daily, day cribbage.Day, selected engine.CardSet, note string) Message {
	var lines []string
	if note != "" {
		lines = append(lines, note)
	}
	want := d.Options.DiscardSize()
	lines = append(lines, dailyHead(day, "the same hand for everyone, answered once"))
	lines = append(lines, dailyTableLines(d)...)
	crib := "your opponent's"
	if d.Dealer == 0 {
		crib = "your"
	} else if d.Options.Players > 2 {
		crib = "the dealer's"
	}
	lines = append(lines, fmt.Sprintf("Choose %s card%s for %s crib, then **Confirm**. Your answer is final.", engine.NumberWord(want), Plural(want), crib))
	selected &= d.Dealt
	if selected != 0 {
		lines = append(lines, "Chosen: "+engine.DisplayCards(selected.Cards()))
	}
	var buttons []discordgo.MessageComponent
	for _, c := range d.Dealt.Cards() {
		style, next := discordgo.SecondaryButton, selected.Add(c)
		if selected.Has(c) {
			style, next = discordgo.PrimaryButton, selected.Remove(c)
		}
		buttons = append(buttons, discordgo.Button{Label: c.Display(), Style: style, CustomID: click.ID{Action: click.DailySelect, Table: int64(day), Cards: next}.String()})
	}
	confirm := discordgo.Button{Label: "Confirm", Style: discordgo.SuccessButton, Disabled: selected.Len() != want,
		CustomID: click.ID{Action: click.DailyThrow, Table: int64(day), Cards: selected}.String()}
	rows := append(cardRows(buttons), discordgo.ActionsRow{Components: []discordgo.MessageComponent{confirm}})
	return Message{Content: strings.Join(lines, "\n"), Components: rows}
}

// DailyVerdict says what a throw gives up against the best, in the
// coach's expected points.
func DailyVerdict(d ai.Daily, throw engine.CardSet) string {
	mine, gave, _ := d.Judge(throw)
	best := d.Splits[0]
	if gave < 1e-9 {
		return fmt.Sprintf("You threw **%s**: the best throw, expected **%.2f**. 👍", engine.DisplayCards(throw.Cards()), mine.Total)
	}
	return fmt.Sprintf("You threw **%s** (expected %.2f): it gives up **%.2f** points on average against the best, throwing **%s** (expected %.2f).",
		engine.DisplayCards(throw.Cards()), mine.Total, gave, engine.DisplayCards(best.Throw), best.Total)
}

// DailyResult is a player's answer to the day's hand: what the throw
// gives up against the best, the coach's best throws with their hand,
// crib and play, and after them more (the streak, the month). month, when
// set, adds the button to the server's month.
func DailyResult(d ai.Daily, a cribbage.DailyAnswer, more []string, month bool) Message {
	lines := []string{dailyHead(a.Day, "your answer")}
	lines = append(lines, dailyTableLines(d)...)
	lines = append(lines, "You were dealt "+engine.DisplayCards(d.Dealt.Cards())+".", DailyVerdict(d, a.Throw), DiscardHint(lang.English, d.Options, d.Splits, 3))
	lines = append(lines, more...)
	m := Message{Content: strings.Join(lines, "\n")}
	if month {
		m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "This month", Style: discordgo.SecondaryButton, Emoji: &discordgo.ComponentEmoji{Name: "📅"},
				CustomID: click.ID{Action: click.DailyMonth, Table: int64(a.Day)}.String()}}}}
	}
	return m
}

// StreakLine says a player's streak of days answered.
func StreakLine(n int) string {
	switch n {
	case 0:
		return "No streak going: today's hand starts one."
	case 1:
		return "🔥 Streak: 1 day. Come back tomorrow for two."
	}
	return fmt.Sprintf("🔥 Streak: **%d days** in a row.", n)
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
func revealEmbed(r Reveal) *discordgo.MessageEmbed {
	lines := dailyTableLines(r.Hand)
	lines = append(lines, "Dealt: "+engine.DisplayCards(r.Hand.Dealt.Cards())+".", "", DiscardHint(lang.English, r.Hand.Options, r.Hand.Splits, 3), "")
	if len(r.Answers) == 0 {
		lines = append(lines, "Nobody here answered it.")
	} else {
		lines = append(lines, fmt.Sprintf("**How this server threw** (%d answer%s):", len(r.Answers), Plural(len(r.Answers))))
		for _, s := range r.shares() {
			verdict := "the best"
			if s.gave >= 1e-9 {
				verdict = fmt.Sprintf("gives up %.2f", s.gave)
			}
			lines = append(lines, fmt.Sprintf("· %s — %d%% (%d) · %s", engine.DisplayCards(s.throw.Cards()), (200*s.n+len(r.Answers))/(2*len(r.Answers)), s.n, verdict))
		}
	}
	if len(r.Month) > 0 {
		lines = append(lines, "", fmt.Sprintf("**%s so far**, fewest points given up:", r.Day.Start().Format("January")))
		lines = append(lines, monthLines(r.Month, 5, "")...)
	}
	return &discordgo.MessageEmbed{Title: "Yesterday's daily hand · " + DailyDate(r.Day), Color: dailyColour, Description: strings.Join(lines, "\n")}
}

// monthLines are a month's table, the first n places, and the viewer's
// own place after them if it is lower.
func monthLines(ts []cribbage.DailyTotal, n int, uid string) []string {
	var lines []string
	for i, t := range ts {
		if i >= n && t.UserID != uid {
			continue
		}
		if i >= n && len(lines) == n {
			lines = append(lines, "…")
		}
		lines = append(lines, fmt.Sprintf("%d. %s — %.2f over %d day%s", i+1, t.Name, t.GaveUp, t.Days, Plural(t.Days)))
	}
	return lines
}

// DailyPost is a server's post of the day: the reveal of the day before,
// if any, and the day's hand with the button to answer it privately.
func DailyPost(d ai.Daily, day cribbage.Day, reveal *Reveal) Message {
	var embeds []*discordgo.MessageEmbed
	if reveal != nil {
		embeds = append(embeds, revealEmbed(*reveal))
	}
	lines := dailyTableLines(d)
	lines = append(lines, fmt.Sprintf("You hold **%s**. What do you throw?", engine.DisplayCards(d.Dealt.Cards())),
		"", "Answer privately with the button (or `/cribbage daily`), once; how this server threw is revealed here tomorrow.")
	embeds = append(embeds, &discordgo.MessageEmbed{Title: "Today's daily hand · " + DailyDate(day), Color: dailyColour, Description: strings.Join(lines, "\n"),
		Footer: &discordgo.MessageEmbedFooter{Text: fmt.Sprintf("The same hand for everyone, dealt from the published seed: %s candidate %d, seed %s", d.Date, d.Attempt, d.Seed)}})
	return Message{Embeds: embeds, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Answer privately", Style: discordgo.PrimaryButton, Emoji: &discordgo.ComponentEmoji{Name: "🃏"},
			CustomID: click.ID{Action: click.DailyOpen, Table: int64(day)}.String()}}}}}
}

// DailyMonth is a server's table of a month, up to (not including) the
// day still open: fewest points given up first.
func DailyMonth(ts []cribbage.DailyTotal, month cribbage.Day, uid string, over bool) Message {
	title := "Daily hands · " + month.Start().Format("January 2006")
	lines := []string{"**" + title + "**, fewest points given up first:"}
	if len(ts) == 0 {
		lines = append(lines, "Nobody here has answered a daily hand of the month yet.")
	}
	lines = append(lines, monthLines(ts, 20, uid)...)
	if !over {
		lines = append(lines, "*Today's answers count from tomorrow, when the hand is revealed.*")
	}
	return Message{Content: strings.Join(lines, "\n")}
}

// DailyOwnMonth is a player's own month, wherever they answered: in a DM
// the records are theirs alone.
func DailyOwnMonth(history []cribbage.DailyAnswer, month cribbage.Day, streak int) string {
	total := 0.0
	for _, a := range history {
		total += a.GaveUp
	}
	line := fmt.Sprintf("**Daily hands · %s**: you answered %d day%s and gave up **%.2f** points in all.",
		month.Start().Format("January 2006"), len(history), Plural(len(history)), total)
	return line + "\n" + StreakLine(streak)
}

// DailySettingsText says where and when a server gets the daily hand.
func DailySettingsText(ds cribbage.DailySettings) string {
	if ds.ChannelID == "" {
		return "This server does not get the daily hand. Choose the channel and hour (UTC) with `/cribbage-admin daily channel: #cribbage hour: 9`."
	}
	return fmt.Sprintf("The daily hand goes to <#%s> each day from %02d:00 UTC, with the reveal of the day before. `/cribbage-admin daily off: True` stops it.",
		ds.ChannelID, ds.Hour)
}

// DailyBody is a daily post as it is queued and sent: a channel message,
// notifying nobody, its nonce set when it is sent.
type DailyBody struct {
	Content         string                            `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	Components      []discordgo.MessageComponent      `json:"components,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

// Body is the render as a daily post's body.
func (r Message) Body() DailyBody {
	return DailyBody{Content: r.Content, Embeds: r.Embeds, Components: r.Components, AllowedMentions: r.AllowedMentions()}
}

package render

import (
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
)

// HandAnswer is a seat's hand view as an interaction's answer carries
// it: the view (Hand), its response data (private to the player), and the
// seat's view version it shows (click.ViewVersion), which the live
// surface keeps with the interaction's token.
type HandAnswer struct {
	Message Message
	Data    *discordgo.InteractionResponseData
	View    string
}

// Answer renders seat's hand view at t for an answer in l: led by lead,
// if any (why a click was refused, a hint), then by note, what the change
// the answer shows did (Note.Text).
func Answer(l lang.Lang, t *cribbage.Table, seat int, selected engine.CardSet, lead string, note Note) HandAnswer {
	text := lead
	if said := note.Text(l, t); said != "" {
		if text != "" {
			text += "\n"
		}
		text += said
	}
	m := Hand(l, t, seat, selected, text)
	a := HandAnswer{Message: m, Data: m.Response(true)}
	if t.State != nil {
		a.View = click.SeatView(t.State, seat)
	}
	return a
}

// Hand is a seat's private hand view: its cards, the starter and
// count, and the controls for what it may do now. selected is the cards
// chosen so far for the crib; note, if any, leads the message (for
// example why a click was refused). It speaks l, its player's language.
//
// It is one Container (Components V2): the words, then the card buttons
// right under the line that says what to do with them, then the view's
// own buttons. The accent is the seat's side's colour when the table
// waits on the seat, neutral otherwise.
func Hand(l lang.Lang, t *cribbage.Table, seat int, selected engine.CardSet, note string) Message {
	if t.Status == cribbage.StatusCancelled {
		// The cards are no use now: the view says why, with no buttons.
		return V2(Container(neutral, TextDisplay("🚫 "+CancelledLine(l, t), CountsForNobody(l))))
	}
	g := t.State
	v := g.ViewFor(seat)
	ver := click.ViewVersion(v)
	var lines []string
	if note != "" {
		lines = append(lines, note)
	}
	lines = append(lines, l.T("hand.head", "ID", t.ID, "N", v.HandNo, "Dealer", SeatName(t, v.Dealer), "Scores", scoreLine(t, v.Scores)))
	if v.Starter != engine.NoCard {
		lines = append(lines, l.T("table.starter", "Card", v.Starter.Display()))
	}
	var rows []discordgo.MessageComponent
	switch v.Phase {
	case engine.PhaseDiscard:
		lines, rows = discardControls(l, t, v, ver, selected, lines)
	case engine.PhasePlay:
		lines, rows = playControls(l, t, v, ver, lines)
	case engine.PhaseShow:
		lines, rows = showControls(l, t, v, ver, lines)
	case engine.PhaseDeal:
		lines = append(lines, l.T("hand.over-deal", "Dealer", SeatName(t, v.Dealer)))
	case engine.PhaseOver:
		lines = append(lines, ResultLine(l, t, v.Result))
		if line := MatchLine(l, t); line != "" {
			lines = append(lines, line)
		}
	}
	if row := mugginsRow(l, t, v, ver); row != nil {
		rows = append(rows, row)
	}
	refresh := []discordgo.MessageComponent{discordgo.Button{Label: l.T("button.refresh"), Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Refresh, Table: t.ID}.String()}}
	if (v.Phase == engine.PhaseDiscard && v.Discards == 0) || (v.Phase == engine.PhasePlay && v.Turn == seat) || CountingNow(t, seat) {
		refresh = append(refresh, discordgo.Button{Label: l.T("button.hint"), Style: discordgo.SecondaryButton, Emoji: &discordgo.ComponentEmoji{Name: "💡"},
			CustomID: click.ID{Action: click.Hint, Table: t.ID, View: ver}.String()})
	}
	if v.LastHandNo > 0 {
		refresh = append(refresh, discordgo.Button{Label: l.T("button.review"), Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Review, Table: t.ID}.String()})
	}
	if v.Phase == engine.PhaseDeal && v.Dealer == seat {
		refresh = append(refresh, discordgo.Button{Label: l.T("button.deal"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Deal, Table: t.ID}.String()})
	}
	if v.Phase == engine.PhaseOver && t.Match != nil && !t.Match.Over() && t.RematchID != 0 {
		// The match's next game, one click from the last.
		refresh = append(refresh, discordgo.Button{Label: l.T("button.next-game-hand", "Game", len(t.Match.Games)+1), Style: discordgo.PrimaryButton,
			Emoji: &discordgo.ComponentEmoji{Name: "🃏"}, CustomID: click.ID{Action: click.Hand, Table: t.RematchID}.String()})
	}
	rows = append(rows, discordgo.ActionsRow{Components: refresh})
	box := Container(seatAccent(t, seat), TextDisplay(lines...))
	box.Components = append(box.Components, rows...)
	return V2(box)
}

// seatAccent is the accent of seat's hand view: its side's colour while
// the table waits on it, neutral otherwise.
func seatAccent(t *cribbage.Table, seat int) int {
	if t.Status == cribbage.StatusPlaying && slices.Contains(t.Waiting(), seat) {
		return sideAccent(t.Options.SideOf(seat))
	}
	return neutral
}

// CardRows lays card buttons out five to a row.
func CardRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for len(buttons) > 0 {
		n := min(5, len(buttons))
		rows = append(rows, discordgo.ActionsRow{Components: buttons[:n]})
		buttons = buttons[n:]
	}
	return rows
}

// discardControls: a toggle button a card and Confirm, enabled only when
// exactly the right number is chosen.
func discardControls(l lang.Lang, t *cribbage.Table, v engine.View, ver string, selected engine.CardSet, lines []string) ([]string, []discordgo.MessageComponent) {
	want := t.Options.DiscardSize()
	crib := l.T("hand.crib-of", "Name", SeatName(t, v.Dealer))
	if v.Dealer == v.Seat {
		crib = l.T("hand.your-crib")
	}
	if v.Discards != 0 {
		lines = append(lines, l.T("hand.threw", "Thrown", engine.DisplayCards(v.Discards.Cards()), "Crib", crib, "Kept", engine.DisplayCards(v.Hand.Cards())))
		return append(lines, waitingLine(l, t)), nil
	}
	selected &= v.Hand
	lines = append(lines, l.N("hand.choose", want, "Word", NumberWord(l, want), "Crib", crib))
	if selected != 0 {
		lines = append(lines, l.T("hand.chosen", "Cards", engine.DisplayCards(selected.Cards())))
	}
	var buttons []discordgo.MessageComponent
	for _, c := range v.Hand.Cards() {
		style := discordgo.SecondaryButton
		next := selected.Add(c)
		if selected.Has(c) {
			style, next = discordgo.PrimaryButton, selected.Remove(c)
		}
		buttons = append(buttons, discordgo.Button{Label: c.Display(), Style: style, CustomID: click.ID{Action: click.Select, Table: t.ID, View: ver, Cards: next}.String()})
	}
	rows := CardRows(buttons)
	confirm := discordgo.Button{Label: l.T("button.confirm"), Style: discordgo.SuccessButton, Disabled: selected.Len() != want,
		CustomID: click.ID{Action: click.Discard, Table: t.ID, View: ver, Cards: selected}.String()}
	return lines, append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{confirm}})
}

// playControls: one button a card still held; the unplayable disabled.
func playControls(l lang.Lang, t *cribbage.Table, v engine.View, ver string, lines []string) ([]string, []discordgo.MessageComponent) {
	series := v.Series()
	count := l.T("hand.count", "Count", v.Count)
	if len(series) > 0 {
		count += " — " + engine.DisplayCards(series)
	}
	lines = append(lines, count)
	if played := v.Hand &^ v.Remaining; played != 0 {
		lines = append(lines, l.T("hand.played", "Cards", engine.DisplayCards(played.Cards())))
	}
	legal := engine.SetOf(v.Legal...)
	if v.Turn == v.Seat {
		lines = append(lines, l.T("hand.your-turn"))
	} else {
		lines = append(lines, waitingLine(l, t))
	}
	var buttons []discordgo.MessageComponent
	for _, c := range v.Remaining.Cards() {
		buttons = append(buttons, discordgo.Button{Label: c.Display(), Style: discordgo.PrimaryButton, Disabled: !legal.Has(c),
			CustomID: click.ID{Action: click.Play, Table: t.ID, View: ver, Card: c}.String()})
	}
	return lines, CardRows(buttons)
}

// showControls: with manual counting, the counter claims through a form.
func showControls(l lang.Lang, t *cribbage.Table, v engine.View, ver string, lines []string) ([]string, []discordgo.MessageComponent) {
	g := t.State
	seat, crib := g.ShowOrder(g.Shown)
	if seat != v.Seat {
		lines = append(lines, l.T("hand.your-hand", "Cards", engine.DisplayCards(v.Hand.Cards())))
		return append(lines, waitingLine(l, t)), nil
	}
	key, cards := "hand.count-hand", v.Hand.Cards()
	if crib {
		key, cards = "hand.count-crib", g.Crib.Cards()
	}
	lines = append(lines, l.T(key, "Cards", engine.DisplayCards(cards), "Starter", v.Starter.Display()))
	if t.Assisted {
		// A table that has used the coach gets its help here unasked.
		lines = append(lines, "🧑‍🏫 "+ShowHint(l, t))
	}
	claim := discordgo.Button{Label: l.T("button.claim"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Claim, Table: t.ID, View: ver}.String()}
	return lines, []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{claim}}}
}

// mugginsRow offers muggins on points an opponent missed, if any.
func mugginsRow(l lang.Lang, t *cribbage.Table, v engine.View, ver string) discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for i, m := range v.Missed {
		if m.Taken || t.Options.SideOf(m.Seat) == t.Options.SideOf(v.Seat) || len(buttons) == 5 {
			continue
		}
		label := l.T("button.muggins", "Name", SeatName(t, m.Seat), "Points", m.Points)
		buttons = append(buttons, discordgo.Button{Label: label, Style: discordgo.DangerButton, CustomID: click.ID{Action: click.Muggins, Table: t.ID, View: ver, Index: i}.String()})
	}
	if len(buttons) == 0 {
		return nil
	}
	return discordgo.ActionsRow{Components: buttons}
}

// waitingLine says whom the table waits on.
func waitingLine(l lang.Lang, t *cribbage.Table) string {
	seats, verb := WaitingFor(l, t)
	if len(seats) == 0 {
		return ""
	}
	var names []string
	for _, s := range seats {
		names = append(names, SeatName(t, s))
	}
	return l.T("hand.waiting", "Names", strings.Join(names, ", "), "Verb", verb)
}

// ClaimModal is the form a counter claims points in.
func ClaimModal(l lang.Lang, t *cribbage.Table, ver string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		CustomID: click.ID{Action: click.Claimed, Table: t.ID, View: ver}.String(),
		Title:    l.T("claim.title"),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "points", Label: l.T("claim.label", "Max", engine.MaxShow), Style: discordgo.TextInputShort, Placeholder: l.T("claim.placeholder"), Required: true, MinLength: 1, MaxLength: 2},
		}}},
	}
}

// CountingNow reports whether it is the seat's turn to count a hand or
// crib by hand.
func CountingNow(t *cribbage.Table, seat int) bool {
	g := t.State
	if !t.Options.ManualCounting || g.Phase != engine.PhaseShow {
		return false
	}
	s, _ := g.ShowOrder(g.Shown)
	return s == seat
}

// ShowHint counts the hand or crib being shown for its counter, the way
// players of l count aloud.
func ShowHint(l lang.Lang, t *cribbage.Table) string {
	g := t.State
	seat, crib := g.ShowOrder(g.Shown)
	cards, key := g.Hands[seat].Cards(), "coach.show-hand"
	if crib {
		cards, key = g.Crib.Cards(), "coach.show-crib"
	}
	b := engine.ScoreShow(cards, g.Starter, crib)
	return l.T(key, "Total", b.Total, "Cards", engine.DisplayCards(cards), "Starter", g.Starter.Display(), "Count", spoken(l, b))
}

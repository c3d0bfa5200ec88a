package render

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/engine"
)

// Hand is a seat's private hand view: its cards, the starter and
// count, and the controls for what it may do now. selected is the cards
// chosen so far for the crib; note, if any, leads the message (for
// example why a click was refused).
func Hand(t *cribbage.Table, seat int, selected engine.CardSet, note string) Message {
	if t.Status == cribbage.StatusCancelled {
		// The cards are no use now: the view says why, with no buttons.
		return Message{Content: "🚫 " + CancelledLine(t) + "\n" + CountsForNobody}
	}
	g := t.State
	v := g.ViewFor(seat)
	ver := click.ViewVersion(v)
	var lines []string
	if note != "" {
		lines = append(lines, note)
	}
	lines = append(lines, fmt.Sprintf("**Your hand** · table %d · hand %d · %s deals · %s", t.ID, v.HandNo, SeatName(t, v.Dealer), scoreLine(t, v.Scores)))
	if v.Starter != engine.NoCard {
		lines = append(lines, "Starter: **"+v.Starter.Display()+"**")
	}
	var rows []discordgo.MessageComponent
	switch v.Phase {
	case engine.PhaseDiscard:
		lines, rows = discardControls(t, v, ver, selected, lines)
	case engine.PhasePlay:
		lines, rows = playControls(t, v, ver, lines)
	case engine.PhaseShow:
		lines, rows = showControls(t, v, ver, lines)
	case engine.PhaseDeal:
		lines = append(lines, "The hand is over; waiting for "+SeatName(t, v.Dealer)+" to deal.")
	case engine.PhaseOver:
		lines = append(lines, ResultLine(t, v.Result))
		if line := MatchLine(t); line != "" {
			lines = append(lines, line)
		}
	}
	if row := mugginsRow(t, v, ver); row != nil {
		rows = append(rows, row)
	}
	refresh := []discordgo.MessageComponent{discordgo.Button{Label: "Refresh", Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Refresh, Table: t.ID}.String()}}
	if (v.Phase == engine.PhaseDiscard && v.Discards == 0) || (v.Phase == engine.PhasePlay && v.Turn == seat) || CountingNow(t, seat) {
		refresh = append(refresh, discordgo.Button{Label: "Hint", Style: discordgo.SecondaryButton, Emoji: &discordgo.ComponentEmoji{Name: "💡"},
			CustomID: click.ID{Action: click.Hint, Table: t.ID, View: ver}.String()})
	}
	if v.LastHandNo > 0 {
		refresh = append(refresh, discordgo.Button{Label: "Review my last discard", Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Review, Table: t.ID}.String()})
	}
	if v.Phase == engine.PhaseDeal && v.Dealer == seat {
		refresh = append(refresh, discordgo.Button{Label: "Deal", Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Deal, Table: t.ID}.String()})
	}
	if v.Phase == engine.PhaseOver && t.Match != nil && !t.Match.Over() && t.RematchID != 0 {
		// The match's next game, one click from the last.
		refresh = append(refresh, discordgo.Button{Label: fmt.Sprintf("Game %d: my hand", len(t.Match.Games)+1), Style: discordgo.PrimaryButton,
			Emoji: &discordgo.ComponentEmoji{Name: "🃏"}, CustomID: click.ID{Action: click.Hand, Table: t.RematchID}.String()})
	}
	rows = append(rows, discordgo.ActionsRow{Components: refresh})
	return Message{Content: strings.Join(lines, "\n"), Components: rows}
}

// cardRows lays card buttons out five to a row.
func cardRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
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
func discardControls(t *cribbage.Table, v engine.View, ver string, selected engine.CardSet, lines []string) ([]string, []discordgo.MessageComponent) {
	want := t.Options.DiscardSize()
	crib := SeatName(t, v.Dealer) + "'s"
	if v.Dealer == v.Seat {
		crib = "your"
	}
	if v.Discards != 0 {
		lines = append(lines, fmt.Sprintf("You threw %s to %s crib. You keep %s.", engine.DisplayCards(v.Discards.Cards()), crib, engine.DisplayCards(v.Hand.Cards())))
		return append(lines, waitingLine(t)), nil
	}
	selected &= v.Hand
	lines = append(lines, fmt.Sprintf("Choose %s card%s for %s crib, then **Confirm**.", engine.NumberWord(want), Plural(want), crib))
	if selected != 0 {
		lines = append(lines, "Chosen: "+engine.DisplayCards(selected.Cards()))
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
	rows := cardRows(buttons)
	confirm := discordgo.Button{Label: "Confirm", Style: discordgo.SuccessButton, Disabled: selected.Len() != want,
		CustomID: click.ID{Action: click.Discard, Table: t.ID, View: ver, Cards: selected}.String()}
	return lines, append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{confirm}})
}

// playControls: one button a card still held; the unplayable disabled.
func playControls(t *cribbage.Table, v engine.View, ver string, lines []string) ([]string, []discordgo.MessageComponent) {
	series := v.Series()
	count := fmt.Sprintf("Count: **%d**", v.Count)
	if len(series) > 0 {
		count += " — " + engine.DisplayCards(series)
	}
	lines = append(lines, count)
	if played := v.Hand &^ v.Remaining; played != 0 {
		lines = append(lines, "You have played "+engine.DisplayCards(played.Cards())+".")
	}
	legal := engine.SetOf(v.Legal...)
	if v.Turn == v.Seat {
		lines = append(lines, "**Your turn** — choose a card.")
	} else {
		lines = append(lines, waitingLine(t))
	}
	var buttons []discordgo.MessageComponent
	for _, c := range v.Remaining.Cards() {
		buttons = append(buttons, discordgo.Button{Label: c.Display(), Style: discordgo.PrimaryButton, Disabled: !legal.Has(c),
			CustomID: click.ID{Action: click.Play, Table: t.ID, View: ver, Card: c}.String()})
	}
	return lines, cardRows(buttons)
}

// showControls: with manual counting, the counter claims through a form.
func showControls(t *cribbage.Table, v engine.View, ver string, lines []string) ([]string, []discordgo.MessageComponent) {
	g := t.State
	seat, crib := g.ShowOrder(g.Shown)
	if seat != v.Seat {
		lines = append(lines, "Your hand: "+engine.DisplayCards(v.Hand.Cards())+".")
		return append(lines, waitingLine(t)), nil
	}
	what := "your hand " + engine.DisplayCards(v.Hand.Cards())
	if crib {
		what = "your crib " + engine.DisplayCards(g.Crib.Cards())
	}
	lines = append(lines, fmt.Sprintf("**Count %s** with the starter %s, then press **Claim**.", what, v.Starter.Display()))
	if t.Assisted {
		// A table that has used the coach gets its help here unasked.
		lines = append(lines, "🧑‍🏫 "+ShowHint(t))
	}
	claim := discordgo.Button{Label: "Claim", Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Claim, Table: t.ID, View: ver}.String()}
	return lines, []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{claim}}}
}

// mugginsRow offers muggins on points an opponent missed, if any.
func mugginsRow(t *cribbage.Table, v engine.View, ver string) discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for i, m := range v.Missed {
		if m.Taken || t.Options.SideOf(m.Seat) == t.Options.SideOf(v.Seat) || len(buttons) == 5 {
			continue
		}
		label := fmt.Sprintf("Muggins: %s missed %d", SeatName(t, m.Seat), m.Points)
		buttons = append(buttons, discordgo.Button{Label: label, Style: discordgo.DangerButton, CustomID: click.ID{Action: click.Muggins, Table: t.ID, View: ver, Index: i}.String()})
	}
	if len(buttons) == 0 {
		return nil
	}
	return discordgo.ActionsRow{Components: buttons}
}

// waitingLine says whom the table waits on.
func waitingLine(t *cribbage.Table) string {
	seats, verb := WaitingFor(t)
	if len(seats) == 0 {
		return ""
	}
	var names []string
	for _, s := range seats {
		names = append(names, SeatName(t, s))
	}
	return fmt.Sprintf("Waiting for %s to %s.", strings.Join(names, ", "), verb)
}

// ClaimModal is the form a counter claims points in.
func ClaimModal(t *cribbage.Table, ver string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		CustomID: click.ID{Action: click.Claimed, Table: t.ID, View: ver}.String(),
		Title:    "Claim your count",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "points", Label: fmt.Sprintf("Points (0 to %d)", engine.MaxShow), Style: discordgo.TextInputShort, Placeholder: "e.g. 8", Required: true, MinLength: 1, MaxLength: 2},
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
// players count aloud.
func ShowHint(t *cribbage.Table) string {
	g := t.State
	seat, crib := g.ShowOrder(g.Shown)
	cards, what := g.Hands[seat].Cards(), "your hand"
	if crib {
		cards, what = g.Crib.Cards(), "your crib"
	}
	b := engine.ScoreShow(cards, g.Starter, crib)
	return fmt.Sprintf("**Coach** — you have **%d** in %s %s + %s: %s.", b.Total, what, engine.DisplayCards(cards), g.Starter.Display(), b.Spoken())
}

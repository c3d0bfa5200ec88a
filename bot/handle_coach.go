package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// clickHint asks the coach: the best three discards with their expected
// points, or the card to play and why. Hints are private, and a game in
// which one was given is marked assisted.
func (b *Bot) clickHint(ctx context.Context, ic *discordgo.Interaction, c clickID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	v := t.State.ViewFor(seat)
	if viewVersion(v) != c.View {
		return handView(ic, t, seat, 0, mustText(errStaleView)), nil
	}
	var hint string
	switch {
	case v.Phase == engine.PhaseDiscard && !v.Discarded[seat]:
		hint = discardHint(ai.Splits(v.Options, seat, v.Dealer, v.Hand), 3)
	case v.Phase == engine.PhasePlay && v.Turn == seat:
		hint = playHint(t, v, ai.BestPlay(v))
	default:
		return handView(ic, t, seat, 0, "The coach has advice when you have a discard or a card to play."), nil
	}
	if err := b.store.MarkAssisted(ctx, t.ID); err != nil {
		return reply{}, err
	}
	return handView(ic, t, seat, 0, "🧑‍🏫 "+hint), nil
}

// discardHint lists the best splits with their expected points.
func discardHint(splits []ai.Split, n int) string {
	lines := []string{"**Coach** — the best throws, on average over every starter and crib:"}
	for i, s := range splits[:min(n, len(splits))] {
		sign, whose := "+", "your crib"
		if !s.OwnCrib {
			sign, whose = "−", "their crib"
		}
		lines = append(lines, fmt.Sprintf("%d. keep %s, throw %s — hand %.2f %s %s %.2f = **%.2f**",
			i+1, engine.DisplayCards(s.Keep), engine.DisplayCards(s.Throw), s.Hand, sign, whose, s.Crib, s.Total))
	}
	return strings.Join(lines, "\n")
}

// playHint says which card to lay and why.
func playHint(t *cribbage.Table, v engine.View, a ai.Advice) string {
	next := "the next player"
	if s := v.NextToPlay(); s >= 0 {
		next = seatName(t, s)
	}
	switch {
	case a.Wins:
		return fmt.Sprintf("**Coach** — play %s: it pegs %d and wins the game.", a.Card.Display(), a.Points)
	case a.Partner:
		return fmt.Sprintf("**Coach** — play %s: it pegs %d and leaves your partner %s about %.1f to score.", a.Card.Display(), a.Points, next, a.Reply)
	case a.Points > 0:
		return fmt.Sprintf("**Coach** — play %s: it pegs %d, and %s can expect about %.1f back.", a.Card.Display(), a.Points, next, a.Reply)
	}
	return fmt.Sprintf("**Coach** — play %s: it gives %s the least to score back (about %.1f).", a.Card.Display(), next, a.Reply)
}

// clickReview compares the seat's discard in the last hand with the best
// one, in points given away on average.
func (b *Bot) clickReview(ctx context.Context, ic *discordgo.Interaction, c clickID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	v := t.State.ViewFor(seat)
	if v.LastHandNo == 0 {
		return reply{resp: ephemeral("There is no finished hand to look back on yet.")}, nil
	}
	return reply{resp: ephemeral(reviewText(v))}, nil
}

// reviewText words the comparison of a discard with the best.
func reviewText(v engine.View) string {
	splits := ai.Splits(v.Options, v.Seat, v.LastDealer, v.LastDealt)
	var yours ai.Split
	for _, s := range splits {
		if engine.SetOf(s.Throw...) == v.LastDiscards {
			yours = s
		}
	}
	best := splits[0]
	head := fmt.Sprintf("**Hand %d**: you were dealt %s and threw %s (expected %.2f).", v.LastHandNo,
		engine.DisplayCards(v.LastDealt.Cards()), engine.DisplayCards(v.LastDiscards.Cards()), yours.Total)
	if yours.Total >= best.Total-1e-9 {
		return head + "\nThat was the best throw. 👍"
	}
	return head + fmt.Sprintf("\nThe best was to throw %s (expected %.2f): you gave away **%.2f** points on average.\n%s",
		engine.DisplayCards(best.Throw), best.Total, best.Total-yours.Total, discardHint(splits, 3))
}

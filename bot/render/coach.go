package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// DiscardHint lists the best splits with their expected points: the hand
// and crib over every starter, and what the kept cards are worth in the
// play.
func DiscardHint(o engine.Options, splits []ai.Split, n int) string {
	lines := []string{"**Coach** — the best throws, on average over every starter and crib:"}
	for i, s := range splits[:min(n, len(splits))] {
		sign, whose := "+", "your crib"
		if !s.OwnCrib {
			sign, whose = "−", "their crib"
		}
		play := ""
		if s.Play != 0 {
			play = fmt.Sprintf(" %s play %.2f", map[bool]string{true: "+", false: "−"}[s.Play >= 0], math.Abs(s.Play))
		}
		lines = append(lines, fmt.Sprintf("%d. keep %s, throw %s — hand %.2f %s %s %.2f%s = **%.2f**",
			i+1, engine.DisplayCards(s.Keep), engine.DisplayCards(s.Throw), s.Hand, sign, whose, s.Crib, play, s.Total))
	}
	switch {
	case o.Partners:
		lines = append(lines, "*Play* is what your side is expected to peg with those four cards, less what the other side pegs.")
	case o.Players > 2:
		lines = append(lines, "*Play* is what those four cards are expected to peg, less what the others peg on average.")
	default:
		lines = append(lines, "*Play* is what those four cards are expected to peg, less what your opponent pegs against them. The crib counts on your opponent throwing what suits them.")
	}
	return strings.Join(lines, "\n")
}

// PlayHint says which card to lay and why.
func PlayHint(t *cribbage.Table, v engine.View, a ai.PlayAdvice) string {
	card := a.Card.Display()
	switch {
	case a.Wins:
		return fmt.Sprintf("**Coach** — play %s: it pegs %d and wins the game.", card, a.Points)
	case a.Only:
		return fmt.Sprintf("**Coach** — play %s: it is the only card that fits under 31.", card)
	case a.Racing:
		you := "you"
		if t.Options.Partners {
			you = "your side"
		}
		return fmt.Sprintf("**Coach** — play %s: near the end every point counts for the win, and this card gives %s the best chance, about %.0f%%, with the show still to come.", card, you, 100*a.Chance)
	}
	pegs := "it pegs nothing now"
	if a.Points > 0 {
		pegs = fmt.Sprintf("it pegs %d now", a.Points)
	}
	us, others := "you", "your opponent"
	switch {
	case t.Options.Partners:
		// The search counts the partner's points with the seat's.
		us, others = "your side", "the other side"
	case t.Options.Sides() > 2:
		others = "the others"
	}
	net := fmt.Sprintf("%s can expect to peg about %.1f more than %s", us, a.Net, others)
	if a.Net < 0 {
		net = fmt.Sprintf("it holds %s to about %.1f more than %s, the least any card does", others, -a.Net, us)
	}
	return fmt.Sprintf("**Coach** — play %s: %s, and over the rest of the play %s.", card, pegs, net)
}

// ReviewText words the comparison of a discard with the best.
func ReviewText(v engine.View) string {
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
		engine.DisplayCards(best.Throw), best.Total, best.Total-yours.Total, DiscardHint(v.Options, splits, 3))
}

// VerifyText is a deal from seed as players read it: the commitment to
// compare, then every hand as dealt.
func VerifyText(seed engine.Seed, players int) string {
	d := engine.Deal(seed, players)
	lines := []string{
		fmt.Sprintf("**Seed** `%s`", seed),
		fmt.Sprintf("**Commitment** (SHA-256 of the seed) `%s` — the same as the thread showed at the deal, or the deal was changed.", seed.Commitment()),
		fmt.Sprintf("Dealt at %d players, one card at a time from the dealer's left:", players),
	}
	for i, name := range d.Seats() {
		lines = append(lines, fmt.Sprintf("· %s: %s", name, engine.DisplayCards(d.Hands[i].Cards())))
	}
	if d.Crib != 0 {
		lines = append(lines, "· To the crib, from the deck: "+engine.DisplayCards(d.Crib.Cards()))
	}
	lines = append(lines, "· Starter: "+d.Starter.Display())
	return strings.Join(lines, "\n")
}

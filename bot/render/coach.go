package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// DiscardHint lists the best splits with their expected points, in l:
// the hand and crib over every starter, and what the kept cards are worth
// in the play. The numbers are written as l writes them.
func DiscardHint(l lang.Lang, o engine.Options, splits []ai.Split, n int) string {
	lines := []string{l.T("coach.discard-head")}
	for i, s := range splits[:min(n, len(splits))] {
		sign, whose := "+", l.T("coach.your-crib")
		if !s.OwnCrib {
			sign, whose = "−", l.T("coach.their-crib")
		}
		play := ""
		if s.Play != 0 {
			play = fmt.Sprintf(" %s %s %s", map[bool]string{true: "+", false: "−"}[s.Play >= 0], l.T("coach.play"), l.Float(math.Abs(s.Play), 2))
		}
		lines = append(lines, l.T("coach.split", "I", i+1, "Keep", engine.DisplayCards(s.Keep), "Throw", engine.DisplayCards(s.Throw),
			"Hand", l.Float(s.Hand, 2), "Sign", sign, "Whose", whose, "Crib", l.Float(s.Crib, 2), "Play", play, "Total", l.Float(s.Total, 2)))
	}
	switch {
	case o.Partners:
		lines = append(lines, l.T("coach.play-partners"))
	case o.Players > 2:
		lines = append(lines, l.T("coach.play-many"))
	default:
		lines = append(lines, l.T("coach.play-two"))
	}
	return strings.Join(lines, "\n")
}

// PlayHint says which card to lay and why, in l.
func PlayHint(l lang.Lang, t *cribbage.Table, v engine.View, a ai.PlayAdvice) string {
	card := a.Card.Display()
	side := "you"
	if t.Options.Partners {
		side = "side"
	}
	switch {
	case a.Wins:
		return l.T("coach.play-wins", "Card", card, "Points", a.Points)
	case a.Only:
		return l.T("coach.play-only", "Card", card)
	case a.Racing:
		return l.T("coach.play-racing-"+side, "Card", card, "Chance", l.Float(100*a.Chance, 0))
	}
	pegs := l.T("coach.pegs-nothing")
	if a.Points > 0 {
		pegs = l.T("coach.pegs", "Points", a.Points)
	}
	// Who gains, against whom: the search counts a partner's points with
	// the seat's.
	who := "two"
	switch {
	case t.Options.Partners:
		who = "partners"
	case t.Options.Sides() > 2:
		who = "many"
	}
	net := l.T("coach.net-"+who, "Net", l.Float(a.Net, 1))
	if a.Net < 0 {
		net = l.T("coach.holds-"+who, "Net", l.Float(-a.Net, 1))
	}
	return l.T("coach.play-card", "Card", card, "Pegs", pegs, "Net", net)
}

// ReviewText words the comparison of a discard with the best, in l.
func ReviewText(l lang.Lang, v engine.View) string {
	splits := ai.Splits(v.Options, v.Seat, v.LastDealer, v.LastDealt)
	var yours ai.Split
	for _, s := range splits {
		if engine.SetOf(s.Throw...) == v.LastDiscards {
			yours = s
		}
	}
	best := splits[0]
	head := l.T("coach.review-head", "N", v.LastHandNo, "Dealt", engine.DisplayCards(v.LastDealt.Cards()),
		"Thrown", engine.DisplayCards(v.LastDiscards.Cards()), "Expected", l.Float(yours.Total, 2))
	if yours.Total >= best.Total-1e-9 {
		return head + "\n" + l.T("coach.review-best")
	}
	return head + "\n" + l.T("coach.review-worse", "Best", engine.DisplayCards(best.Throw), "Expected", l.Float(best.Total, 2),
		"Lost", l.Float(best.Total-yours.Total, 2)) + "\n" + DiscardHint(l, v.Options, splits, 3)
}

// VerifyText is a deal from seed as players read it, in l: the
// commitment to compare, then every hand as dealt.
func VerifyText(l lang.Lang, seed engine.Seed, players int) string {
	d := engine.Deal(seed, players)
	lines := []string{
		l.T("verify.seed", "Seed", seed.String()),
		l.T("verify.commitment", "Commitment", seed.Commitment()),
		l.T("verify.dealt", "Players", players),
	}
	for i, name := range d.Seats() {
		lines = append(lines, fmt.Sprintf("· %s: %s", name, engine.DisplayCards(d.Hands[i].Cards())))
	}
	if d.Crib != 0 {
		lines = append(lines, l.T("verify.crib", "Cards", engine.DisplayCards(d.Crib.Cards())))
	}
	lines = append(lines, l.T("verify.starter", "Card", d.Starter.Display()))
	return strings.Join(lines, "\n")
}

// CountText counts any hand in l, with its breakdown as players say it
// aloud and each item it scores.
func CountText(l lang.Lang, hand []engine.Card, starter engine.Card, crib bool) string {
	bd := engine.ScoreShow(hand, starter, crib)
	key := "count.hand"
	if crib {
		key = "count.crib"
	}
	lines := []string{
		l.T(key, "Cards", engine.DisplayCards(hand), "Starter", starter.Display(), "Total", bd.Total),
		"*" + spoken(l, bd) + "*",
	}
	for _, it := range bd.Items {
		lines = append(lines, fmt.Sprintf("· %s %s — %d", l.T("kind."+it.Kind.String()), engine.DisplayCards(it.Cards), it.Points))
	}
	return strings.Join(lines, "\n")
}

package engine

import (
	"fmt"
	"slices"
)

// MaxShow is the most a hand or crib can score in the show: the 29 hand
// (RULES.md "The show"), so no claim can be higher.
const MaxShow = 29

// endPlay finishes the play. With automatic counting the whole show is
// counted at once; with manual counting the first counter is asked to claim.
func (g *State) endPlay(events []Event) []Event {
	g.Count, g.SeriesStart, g.SaidGo = 0, len(g.Plays), 0
	if g.Options.ManualCounting {
		g.Phase = PhaseShow
		g.Turn, _ = g.ShowOrder(0)
		return events
	}
	for g.Shown <= g.Options.Players {
		seat, crib := g.ShowOrder(g.Shown)
		b := g.countShow(seat, crib)
		g.Shown++
		g.tallyShow(seat, crib, b.Total)
		events = g.award(events, Event{Kind: EvShow, Seat: seat, Crib: crib, Cards: g.showCards(seat, crib), Card: g.Starter, Items: b.Items, Points: b.Total})
		if g.Phase == PhaseOver {
			// RULES.md "Winning": later hands are not counted.
			return events
		}
	}
	return g.endHand(events)
}

// endHand passes the deal to the left and waits for the next deal.
func (g *State) endHand(events []Event) []Event {
	g.Dealer = g.left(g.Dealer)
	g.Turn = g.Dealer
	g.Phase = PhaseDeal
	// The hand is over: its seed is revealed, so anyone can deal it again
	// and check it against the commitment published at the deal.
	return append(events, Event{Kind: EvHandOver, Seat: g.Dealer, N: g.HandNo, Seed: g.DealSeed, Scores: slices.Clone(g.Scores)})
}

// showCards returns the four cards a seat counts: its hand, or the crib.
func (g *State) showCards(seat int, crib bool) []Card {
	if crib {
		return g.Crib.Cards()
	}
	return g.Hands[seat].Cards()
}

// countShow returns the true breakdown of a seat's hand or crib.
func (g *State) countShow(seat int, crib bool) Breakdown {
	return ScoreShow(g.showCards(seat, crib), g.Starter, crib)
}

// tallyShow records a counted hand or crib for the seat's records.
func (g *State) tallyShow(seat int, crib bool, points int) {
	t := &g.Tally[seat]
	if crib {
		t.CribPoints += points
		t.Cribs++
	} else {
		t.HandPoints += points
		t.Hands++
	}
	t.BestHand = max(t.BestHand, points)
	if points == 29 {
		t.TwentyNine++
	}
}

// claim takes a manual count (RULES.md "Counting by hand"). A claim below
// the true score is pegged as claimed and the rest is lost, or left for
// muggins. A claim above it is refused, or, with muggins, pegs the true
// score and hands the excess to the opponents.
func (g *State) claim(a Action) ([]Event, error) {
	switch {
	case g.Phase != PhaseShow:
		return nil, fmt.Errorf("%w: claiming in the %s", ErrWrongPhase, g.Phase)
	case a.Seat != g.Turn:
		return nil, fmt.Errorf("%w: seat %d counts next", ErrNotYourTurn, g.Turn)
	case a.Points < 0 || a.Points > MaxShow:
		return nil, fmt.Errorf("%w: claim %d", ErrBadClaim, a.Points)
	}
	seat, crib := g.ShowOrder(g.Shown)
	b := g.countShow(seat, crib)
	if a.Points > b.Total && !g.Options.Muggins {
		return nil, fmt.Errorf("%w: count again", ErrOverClaim)
	}
	pegged := min(a.Points, b.Total)
	missed := b.Total - pegged
	g.Shown++
	g.tallyShow(seat, crib, pegged)
	ev := Event{Kind: EvClaim, Seat: seat, Crib: crib, Cards: g.showCards(seat, crib), Card: g.Starter,
		Claimed: a.Points, Items: b.Items, Points: pegged, Missed: missed}
	var events []Event
	if missed > 0 && g.Options.Muggins {
		g.Missed = append(g.Missed, Miss{Seat: seat, Crib: crib, Points: missed})
	}
	events = g.award(events, ev)
	if excess := a.Points - b.Total; excess > 0 && g.Phase != PhaseOver {
		// The excess goes to the opponents: the next side to the left.
		to := g.nextOpponent(seat)
		items := []ScoreItem{{Kind: KindOverClaim, Points: excess}}
		events = g.award(events, Event{Kind: EvMuggins, Seat: to, Other: seat, Items: items, Points: excess})
	}
	if g.Phase == PhaseOver {
		return events, nil
	}
	if g.Shown > g.Options.Players {
		return g.endHand(events), nil
	}
	g.Turn, _ = g.ShowOrder(g.Shown)
	return events, nil
}

// muggins lets an opponent of a claimer take points the claimer missed,
// until the next deal (RULES.md "Counting by hand").
func (g *State) muggins(a Action) ([]Event, error) {
	switch {
	case !g.Options.Muggins:
		return nil, fmt.Errorf("%w: muggins is off at this table", ErrBadAction)
	case g.Phase != PhaseShow && g.Phase != PhaseDeal:
		return nil, fmt.Errorf("%w: muggins in the %s", ErrWrongPhase, g.Phase)
	case a.Index < 0 || a.Index >= len(g.Missed) || g.Missed[a.Index].Taken:
		return nil, ErrNothingMissed
	case g.sideOf(g.Missed[a.Index].Seat) == g.sideOf(a.Seat):
		return nil, ErrNotOpponent
	}
	m := &g.Missed[a.Index]
	m.Taken = true
	items := []ScoreItem{{Kind: KindMuggins, Points: m.Points}}
	return g.award(nil, Event{Kind: EvMuggins, Seat: a.Seat, Other: m.Seat, Crib: m.Crib, Items: items, Points: m.Points}), nil
}

// nextOpponent returns the first seat to the left of seat on another side.
func (g *State) nextOpponent(seat int) int {
	for s := g.left(seat); ; s = g.left(s) {
		if g.sideOf(s) != g.sideOf(seat) {
			return s
		}
	}
}

package engine

import "fmt"

// play lays a card: it scores what the card made, then passes the turn to
// the next seat that can play, declaring go for those who cannot (RULES.md
// "The play").
func (g *State) play(a Action) ([]Event, error) {
	switch {
	case g.Phase != PhasePlay:
		return nil, fmt.Errorf("%w: playing in the %s", ErrWrongPhase, g.Phase)
	case a.Seat != g.Turn:
		return nil, fmt.Errorf("%w: seat %d plays next", ErrNotYourTurn, g.Turn)
	case !a.Card.Valid() || !g.Remaining(a.Seat).Has(a.Card):
		return nil, fmt.Errorf("%w: %s", ErrCardNotInHand, a.Card)
	case g.Count+a.Card.Value() > 31:
		return nil, fmt.Errorf("%w: %d + %d", ErrOver31, g.Count, a.Card.Value())
	}
	g.Played[a.Seat] = g.Played[a.Seat].Add(a.Card)
	g.Plays = append(g.Plays, Play{Seat: a.Seat, Card: a.Card})
	g.Count += a.Card.Value()
	items := scorePlay(g.Series(), g.Count)
	ev := Event{Kind: EvPlay, Seat: a.Seat, Card: a.Card, Count: g.Count, Items: items, Points: total(items)}
	g.Tally[a.Seat].Pegging += ev.Points
	var events []Event
	if ev.Points > 0 {
		events = g.award(events, ev)
		if g.Phase == PhaseOver {
			return events, nil
		}
	} else {
		events = append(events, ev)
	}
	return g.passTurn(events, a.Seat), nil
}

// passTurn moves the play on after seat laid a card.
func (g *State) passTurn(events []Event, seat int) []Event {
	if g.Count < 31 {
		// The turn goes clockwise to the first seat that can play, seat
		// itself last: a player keeps playing while the others cannot.
		for i := 1; i <= g.Options.Players; i++ {
			next := (seat + i) % g.Options.Players
			if g.canPlay(next) {
				events = g.declareGos(events, seat, next)
				g.Turn = next
				return events
			}
		}
		events = g.declareGos(events, seat, seat)
		// Nobody can play: one for the go, or for the last card when no
		// cards are left. A 31 scored 2 already and pegs nothing more.
		kind, evKind := KindGo, EvGoPoint
		if !g.cardsLeft() {
			kind, evKind = KindLastCard, EvLastCard
		}
		items := []ScoreItem{{Kind: kind, Points: 1}}
		g.Tally[seat].Pegging++
		events = g.award(events, Event{Kind: evKind, Seat: seat, Items: items, Points: 1})
		if g.Phase == PhaseOver {
			return events
		}
	}
	if !g.cardsLeft() {
		return g.endPlay(events)
	}
	// After a go or 31 the count resets and the player to the left of the
	// one who laid the last card leads, skipping players with no cards.
	lead := g.left(seat)
	for g.Remaining(lead) == 0 {
		lead = g.left(lead)
	}
	g.Count, g.SeriesStart, g.SaidGo, g.Turn = 0, len(g.Plays), 0, lead
	return append(events, Event{Kind: EvReset, Seat: lead})
}

// declareGos announces go for each seat after from and before to (or all
// the others when to is from) that still holds cards but cannot play and has
// not yet said go in this series. Online the table declares go itself
// (RULES.md "The play").
func (g *State) declareGos(events []Event, from, to int) []Event {
	for seat := g.left(from); seat != to && seat != from; seat = g.left(seat) {
		if g.Remaining(seat) != 0 && g.SaidGo&(1<<seat) == 0 && !g.canPlay(seat) {
			g.SaidGo |= 1 << seat
			events = append(events, Event{Kind: EvGo, Seat: seat, Count: g.Count})
		}
	}
	return events
}

// canPlay reports whether seat holds a card that fits under 31.
func (g *State) canPlay(seat int) bool {
	for r := g.Remaining(seat); r != 0; r &= r - 1 {
		if cardAt(uint(trailingZeros(r))).Value()+g.Count <= 31 {
			return true
		}
	}
	return false
}

// cardsLeft reports whether anyone still holds a card to play.
func (g *State) cardsLeft() bool {
	for seat := range g.Hands {
		if g.Remaining(seat) != 0 {
			return true
		}
	}
	return false
}

// LegalPlays returns the cards seat may lay now; empty when it is not
// seat's turn to play.
func (g *State) LegalPlays(seat int) []Card {
	if g.Phase != PhasePlay || seat != g.Turn {
		return nil
	}
	var out []Card
	for _, c := range g.Remaining(seat).Cards() {
		if g.Count+c.Value() <= 31 {
			out = append(out, c)
		}
	}
	return out
}

// total adds up the points of items.
func total(items []ScoreItem) int {
	t := 0
	for _, it := range items {
		t += it.Points
	}
	return t
}

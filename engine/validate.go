package engine

import (
	"encoding/json"
	"fmt"
)

// Validate checks the state's invariants: options a table allows, every
// slice sized to the table, all 52 cards accounted for exactly once, played
// cards taken from hands in the order recorded, a running count that
// matches the series, and a result exactly when the game is over.
func (g *State) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadState}, args...)...)
	}
	if g.Format != FormatVersion {
		return bad("format %d, this engine reads %d", g.Format, FormatVersion)
	}
	if err := g.Options.Validate(); err != nil {
		return err
	}
	n := g.Options.Players
	if len(g.Hands) != n || len(g.Discards) != n || len(g.Played) != n || len(g.Tally) != n || len(g.Scores) != g.Options.Sides() {
		return bad("slices not sized for %d players", n)
	}
	if g.Phase < PhaseDeal || g.Phase > PhaseOver {
		return bad("phase %d", g.Phase)
	}
	if g.Dealer < 0 || g.Dealer >= n || g.Turn < 0 || g.Turn >= n {
		return bad("dealer %d, turn %d", g.Dealer, g.Turn)
	}
	for side, s := range g.Scores {
		if s < 0 {
			return bad("side %d has %d points", side, s)
		}
	}
	if err := g.validateCards(); err != nil {
		return err
	}
	if (g.Phase == PhaseOver) != (g.Result != nil) {
		return bad("phase %s with result %v", g.Phase, g.Result != nil)
	}
	return nil
}

// validateCards checks that the cards form one deck and the play agrees
// with the hands.
func (g *State) validateCards() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadState}, args...)...)
	}
	if g.HandNo == 0 {
		if g.Stock != FullDeck || g.Crib != 0 || g.Starter != NoCard {
			return bad("cards out before the first deal")
		}
		return nil
	}
	if !g.Starter.Valid() {
		return bad("no starter")
	}
	var all CardSet
	parts := append(append([]CardSet{}, g.Hands...), g.Crib, g.Stock, SetOf(g.Starter))
	for _, part := range parts {
		if all&part != 0 {
			return bad("a card is in two places: %s", all&part)
		}
		all |= part
	}
	if all != FullDeck {
		return bad("cards missing: %s", FullDeck&^all)
	}
	var played = make([]CardSet, len(g.Hands))
	for _, p := range g.Plays {
		if p.Seat < 0 || p.Seat >= len(g.Hands) || played[p.Seat].Has(p.Card) {
			return bad("play %v", p)
		}
		played[p.Seat] = played[p.Seat].Add(p.Card)
	}
	for seat := range g.Hands {
		if played[seat] != g.Played[seat] || g.Played[seat]&^g.Hands[seat] != 0 {
			return bad("seat %d played %s, not from its hand %s", seat, g.Played[seat], g.Hands[seat])
		}
		if g.Discards[seat]&^g.Crib != 0 {
			return bad("seat %d's discards are not in the crib", seat)
		}
	}
	if g.SeriesStart < 0 || g.SeriesStart > len(g.Plays) {
		return bad("series start %d", g.SeriesStart)
	}
	count := 0
	for _, c := range g.Series() {
		count += c.Value()
	}
	if count != g.Count || count > 31 {
		return bad("count %d, series adds to %d", g.Count, count)
	}
	return nil
}

// Unmarshal reads a state written by json.Marshal, refusing one from a
// newer format and one that breaks an invariant.
func Unmarshal(data []byte) (*State, error) {
	var g State
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadState, err)
	}
	if g.Format > FormatVersion {
		return nil, fmt.Errorf("%w: format %d is newer than this engine's %d", ErrBadState, g.Format, FormatVersion)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return &g, nil
}

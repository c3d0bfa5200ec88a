package engine

import (
	"fmt"
	"math/bits"
)

// CardSet is a set of cards, one bit a card. Sets are values: copying one
// copies the set. In JSON a set is its cards in notation, in order, separated
// by spaces.
type CardSet uint64

// FullDeck holds all 52 cards.
const FullDeck CardSet = 1<<52 - 1

// SetOf returns the set of the given cards.
func SetOf(cards ...Card) CardSet {
	var s CardSet
	for _, c := range cards {
		s = s.Add(c)
	}
	return s
}

// Has reports whether c is in the set.
func (s CardSet) Has(c Card) bool { return c.Valid() && s&(1<<c.index()) != 0 }

// Add returns the set with c added.
func (s CardSet) Add(c Card) CardSet { return s | 1<<c.index() }

// Remove returns the set without c.
func (s CardSet) Remove(c Card) CardSet { return s &^ (1 << c.index()) }

// Len returns how many cards the set holds.
func (s CardSet) Len() int { return bits.OnesCount64(uint64(s)) }

// Cards returns the set's cards sorted by rank, then suit.
func (s CardSet) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for r := Ace; r <= King; r++ {
		for suit := Spades; suit <= Clubs; suit++ {
			if c := NewCard(r, suit); s.Has(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// String returns the cards in notation, sorted.
func (s CardSet) String() string { return FormatCards(s.Cards()) }

// MarshalText writes the set in notation.
func (s CardSet) MarshalText() ([]byte, error) {
	if s&^FullDeck != 0 {
		return nil, fmt.Errorf("%w: card set %#x has bits beyond the deck", ErrBadCard, uint64(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a set written by MarshalText.
func (s *CardSet) UnmarshalText(b []byte) error {
	cards, err := ParseCards(string(b))
	if err != nil {
		return err
	}
	*s = SetOf(cards...)
	return nil
}

// trailingZeros returns the index of the lowest card in a non-empty set.
func trailingZeros(s CardSet) int { return bits.TrailingZeros64(uint64(s)) }

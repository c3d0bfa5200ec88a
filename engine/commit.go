package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Commitment is the SHA-256 of a hand's seed, in hex. It is published when
// the hand is dealt and the seed only once the hand is over: the seed fixes
// every card, and no other seed has the same commitment, so a deal cannot be
// changed after its commitment without the change showing.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// String returns the seed in hex, as it is revealed.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// ParseSeed reads a seed written by String.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != len(seed) {
		return seed, fmt.Errorf("%w: a seed is %d hex digits", ErrBadAction, 2*len(seed))
	}
	copy(seed[:], b)
	return seed, nil
}

// Dealt is one deal as the cards fall: Hands in order from the dealer's
// left, so the dealer's hand is last; Crib is the card dealt to the crib at
// three players; Starter is the card that will be cut; Stock the rest.
type Dealt struct {
	Hands   []CardSet
	Crib    CardSet
	Starter Card
	Stock   CardSet
}

// Deal deals from seed for a table of players, one card at a time from the
// dealer's left, as the game does: anyone holding a revealed seed can deal
// the same cards again.
func Deal(seed Seed, players int) Dealt {
	o := Options{Players: players}
	deck := Shuffle(seed)
	d := Dealt{Hands: make([]CardSet, players)}
	next := 0
	for range o.HandSize() {
		for i := range players {
			d.Hands[i] = d.Hands[i].Add(deck[next])
			next++
		}
	}
	if players == 3 {
		// RULES.md "Tables": with three players the crib's fourth card is
		// dealt face down from the deck.
		d.Crib = d.Crib.Add(deck[next])
		next++
	}
	// The starter is the top card of the rest; the cut is as random as the
	// shuffle, so taking the next card is the same as cutting anywhere.
	d.Starter = deck[next]
	d.Stock = SetOf(deck[next+1:]...)
	return d
}

// Seats names the hands of a deal as Dealt orders them: "Dealer's left"
// first and "Dealer" last, "2nd from the dealer" between at a bigger table.
func (d Dealt) Seats() []string {
	n := len(d.Hands)
	names := make([]string, n)
	for i := range n {
		switch {
		case i == n-1:
			names[i] = "Dealer"
		case i == 0:
			names[i] = "Dealer's left"
		default:
			names[i] = fmt.Sprintf("%s from the dealer", ordinal(i+1))
		}
	}
	return names
}

// ordinal writes 2 as "2nd".
func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

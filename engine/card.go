package engine

import (
	"fmt"
	"strings"
)

// Rank is a card's rank, Ace (1) to King (13). Aces are low.
type Rank uint8

// The ranks with names of their own.
const (
	Ace   Rank = 1
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

// Suit is a card's suit.
type Suit uint8

// The four suits, in the order cards are sorted.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

// Card is one playing card: the rank in the low four bits and the suit above
// them. The zero Card is no card.
type Card uint8

// NoCard is the zero Card, meaning "no card".
const NoCard Card = 0

// NewCard returns the card of rank r and suit s.
func NewCard(r Rank, s Suit) Card { return Card(uint8(s)<<4 | uint8(r)) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c & 15) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c >> 4) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c.Rank() >= Ace && c.Rank() <= King && c.Suit() <= Clubs }

// Value returns the card's count value: A = 1, 2–10 face value, J Q K = 10.
func (c Card) Value() int {
	if r := int(c.Rank()); r < 10 {
		return r
	}
	return 10
}

// index numbers the 52 cards 0..51 (suit-major), for card sets.
func (c Card) index() uint { return uint(c.Suit())*13 + uint(c.Rank()) - 1 }

// cardAt is the inverse of index.
func cardAt(i uint) Card { return NewCard(Rank(i%13+1), Suit(i/13)) }

const rankLetters = "?A23456789TJQK"
const suitLetters = "SHDC"

var suitSymbols = [4]string{"♠", "♥", "♦", "♣"}

// String returns the card in notation: rank A 2–9 T J Q K, then suit S H D C,
// for example "TD" or "AS".
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	return string([]byte{rankLetters[c.Rank()], suitLetters[c.Suit()]})
}

// Display returns the card as people read it, with a suit symbol: "10♦".
func (c Card) Display() string {
	if !c.Valid() {
		return "?"
	}
	return c.Rank().String() + suitSymbols[c.Suit()]
}

// String returns the rank as printed on a card: A 2 … 10 J Q K.
func (r Rank) String() string {
	switch {
	case r == 10:
		return "10"
	case r >= Ace && r <= King:
		return rankLetters[r : r+1]
	}
	return "?"
}

// String returns the suit's symbol.
func (s Suit) String() string {
	if s > Clubs {
		return "?"
	}
	return suitSymbols[s]
}

// CardError says which text is not a card, or is a card given twice. It
// is ErrBadCard for errors.Is.
type CardError struct {
	Text   string
	Reason string
	Twice  bool
}

func (e *CardError) Error() string {
	if e.Twice {
		return fmt.Sprintf("%v: %s appears twice", ErrBadCard, e.Text)
	}
	return fmt.Sprintf("%v: %q %s", ErrBadCard, e.Text, e.Reason)
}

// Unwrap makes a CardError ErrBadCard.
func (e *CardError) Unwrap() error { return ErrBadCard }

// ParseCard reads one card: a rank (A 2–10 T J Q K, any case) followed by a
// suit letter (S H D C, any case) or symbol (♠ ♥ ♦ ♣, also ♤ ♡ ♢ ♧).
func ParseCard(s string) (Card, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	var r Rank
	switch {
	case strings.HasPrefix(t, "10"):
		r, t = 10, t[2:]
	case len(t) > 0 && strings.IndexByte(rankLetters[1:], t[0]) >= 0:
		r, t = Rank(strings.IndexByte(rankLetters, t[0])), t[1:]
	default:
		return NoCard, &CardError{Text: s, Reason: "has no rank (A, 2–10, J, Q, K)"}
	}
	var suit Suit
	switch t {
	case "S", "♠", "♤":
		suit = Spades
	case "H", "♥", "♡":
		suit = Hearts
	case "D", "♦", "♢":
		suit = Diamonds
	case "C", "♣", "♧":
		suit = Clubs
	default:
		return NoCard, &CardError{Text: s, Reason: "has no suit (S, H, D, C or ♠ ♥ ♦ ♣)"}
	}
	return NewCard(r, suit), nil
}

// MustParseCard is ParseCard for literals known to be good; it panics on a
// bad card.
func MustParseCard(s string) Card {
	c, err := ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseCards reads cards separated by spaces or commas. It refuses a bad
// card and a duplicate.
func ParseCards(s string) ([]Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	cards := make([]Card, 0, len(fields))
	var seen CardSet
	for _, f := range fields {
		c, err := ParseCard(f)
		if err != nil {
			return nil, err
		}
		if seen.Has(c) {
			return nil, &CardError{Text: f, Twice: true}
		}
		seen = seen.Add(c)
		cards = append(cards, c)
	}
	return cards, nil
}

// MustParseCards is ParseCards for literals known to be good.
func MustParseCards(s string) []Card {
	cs, err := ParseCards(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// MarshalText writes the card in notation.
func (c Card) MarshalText() ([]byte, error) {
	if c == NoCard {
		return []byte{}, nil
	}
	if !c.Valid() {
		return nil, fmt.Errorf("%w: invalid card %d", ErrBadCard, uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads the card from notation; the empty text is NoCard.
func (c *Card) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = NoCard
		return nil
	}
	card, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = card
	return nil
}

// FormatCards writes cards in notation separated by spaces.
func FormatCards(cards []Card) string {
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// DisplayCards writes cards with suit symbols separated by spaces.
func DisplayCards(cards []Card) string {
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = c.Display()
	}
	return strings.Join(parts, " ")
}

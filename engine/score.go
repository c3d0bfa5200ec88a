package engine

import (
	"sort"
	"sync"
)

// ScoreKind names what a group of cards scored for.
type ScoreKind uint8

// The kinds of score. The first five occur in the show, the rest in the
// cut, the play and manual counting.
const (
	KindFifteen   ScoreKind = iota + 1 // cards totalling 15: 2
	KindPair                           // same rank: 2 a pair, 6 three, 12 four (in the play, one item)
	KindRun                            // consecutive ranks: one a card
	KindFlush                          // one suit: 4 in a hand, 5 with the starter
	KindNobs                           // the jack of the starter's suit: 1
	KindThirtyOne                      // the count reaches 31: 2
	KindGo                             // last to play before nobody could: 1
	KindLastCard                       // the last card of the play: 1
	KindHeels                          // a jack turned as starter: 2 to the dealer
	KindMuggins                        // points an opponent missed and another took
	KindOverClaim                      // with muggins, points claimed beyond the true score
)

var kindNames = map[ScoreKind]string{
	KindFifteen: "fifteen", KindPair: "pair", KindRun: "run", KindFlush: "flush",
	KindNobs: "nobs", KindThirtyOne: "thirty-one", KindGo: "go", KindLastCard: "last card",
	KindHeels: "heels", KindMuggins: "muggins", KindOverClaim: "over-claim",
}

// String returns the name.
func (k ScoreKind) String() string { return nameOf(kindNames, k) }

// MarshalText writes the kind's name.
func (k ScoreKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a name.
func (k *ScoreKind) UnmarshalText(b []byte) error { return parseName(kindNames, b, k, ErrBadState) }

// ScoreItem is one scoring combination: its kind, the cards that made it
// and the points it is worth.
type ScoreItem struct {
	Kind   ScoreKind `json:"kind"`
	Cards  []Card    `json:"cards,omitempty"`
	Points int       `json:"points"`
}

// Breakdown is an itemised score.
type Breakdown struct {
	Items []ScoreItem `json:"items"`
	Total int         `json:"total"`
}

// ScoreHand returns the show score of four cards and the starter, as a
// hand or (crib true) as the crib, without the itemised breakdown. It is
// the fast path, for the computer players and bulk counting.
func ScoreHand(hand [4]Card, starter Card, crib bool) int {
	return newHandCounter(hand).score(starter, crib)
}

// handCounter scores one four-card hand against many starters: the rank
// part of the lookup is done once.
type handCounter struct {
	row       []uint8 // the table row for this hand's ranks, indexed by starter rank
	flushSuit int8    // the hand's suit when all four cards share it, else -1
	nobsSuits uint8   // bit s set when the hand holds the jack of suit s
}

// newHandCounter prepares hand for scoring.
func newHandCounter(hand [4]Card) handCounter {
	// The table holds only sorted rank keys.
	r := [4]int{int(hand[0]&15) - 1, int(hand[1]&15) - 1, int(hand[2]&15) - 1, int(hand[3]&15) - 1}
	sort4(&r)
	a, b, c, d := r[0], r[1], r[2], r[3]
	key := (((a*13+b)*13+c)*13 + d) * 13
	hc := handCounter{row: showTable()[key : key+13], flushSuit: -1}
	s := hand[0].Suit()
	if hand[1].Suit() == s && hand[2].Suit() == s && hand[3].Suit() == s {
		hc.flushSuit = int8(s)
	}
	for _, card := range hand {
		if card.Rank() == Jack {
			hc.nobsSuits |= 1 << card.Suit()
		}
	}
	return hc
}

// score returns the hand's points with the given starter.
func (hc handCounter) score(starter Card, crib bool) int {
	pts := int(hc.row[starter.Rank()-1])
	ss := starter.Suit()
	if hc.flushSuit >= 0 {
		// RULES.md "The show": a hand flush of 4 scores 4 (5 with the
		// starter); the crib scores only a flush of all 5 cards.
		switch {
		case int8(ss) == hc.flushSuit:
			pts += 5
		case !crib:
			pts += 4
		}
	}
	return pts + int(hc.nobsSuits>>ss&1)
}

// showTable returns the rank-only points (fifteens, pairs, runs) of every
// five-card rank combination, indexed by the four hand ranks sorted (base
// 13) and then the starter rank. It is built once, on first use, and never
// changes afterwards.
var showTable = sync.OnceValue(func() []uint8 {
	t := make([]uint8, 13*13*13*13*13)
	var ranks [5]int
	for a := 0; a < 13; a++ {
		for b := a; b < 13; b++ {
			for c := b; c < 13; c++ {
				for d := c; d < 13; d++ {
					for s := 0; s < 13; s++ {
						ranks = [5]int{a + 1, b + 1, c + 1, d + 1, s + 1}
						t[(((a*13+b)*13+c)*13+d)*13+s] = uint8(rankPoints(ranks[:]))
					}
				}
			}
		}
	}
	return t
})

// rankPoints counts fifteens, pairs and runs of the given ranks by plain
// enumeration; the table is built from it.
func rankPoints(ranks []int) int {
	pts := 0
	n := len(ranks)
	for mask := 1; mask < 1<<n; mask++ {
		sum := 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				sum += min(ranks[i], 10)
			}
		}
		if sum == 15 {
			pts += 2
		}
	}
	var count [14]int
	for _, r := range ranks {
		count[r]++
	}
	for r := 1; r <= 13; r++ {
		pts += count[r] * (count[r] - 1) // 2 points a pair: n(n-1)/2 pairs
	}
	for r := 1; r <= 13; {
		if count[r] == 0 {
			r++
			continue
		}
		length, ways := 0, 1
		for ; r <= 13 && count[r] > 0; r++ {
			length++
			ways *= count[r]
		}
		if length >= 3 {
			pts += length * ways
		}
	}
	return pts
}

// ScoreShow returns the itemised show score of a hand (or crib) with the
// starter: every fifteen, pair and run with its cards, the flush and nobs.
// The hand is usually four cards; any number up to five is counted by the
// same rules.
func ScoreShow(hand []Card, starter Card, crib bool) Breakdown {
	cards := append(append(make([]Card, 0, len(hand)+1), hand...), starter)
	sortCards(cards)
	var items []ScoreItem
	items = append(items, fifteens(cards)...)
	items = append(items, pairs(cards)...)
	items = append(items, runs(cards)...)
	if f := flush(hand, starter, crib); f.Points > 0 {
		items = append(items, f)
	}
	for _, c := range hand {
		if c.Rank() == Jack && c.Suit() == starter.Suit() {
			items = append(items, ScoreItem{Kind: KindNobs, Cards: []Card{c}, Points: 1})
		}
	}
	return newBreakdown(items)
}

// newBreakdown totals items.
func newBreakdown(items []ScoreItem) Breakdown {
	b := Breakdown{Items: items}
	for _, it := range items {
		b.Total += it.Points
	}
	return b
}

// sortCards orders cards by rank, then suit.
func sortCards(cards []Card) {
	sort.Slice(cards, func(i, j int) bool {
		if cards[i].Rank() != cards[j].Rank() {
			return cards[i].Rank() < cards[j].Rank()
		}
		return cards[i].Suit() < cards[j].Suit()
	})
}

// fifteens lists every distinct subset of cards totalling 15.
func fifteens(cards []Card) []ScoreItem {
	var items []ScoreItem
	for mask := 1; mask < 1<<len(cards); mask++ {
		sum := 0
		for i, c := range cards {
			if mask&(1<<i) != 0 {
				sum += c.Value()
			}
		}
		if sum == 15 {
			items = append(items, ScoreItem{Kind: KindFifteen, Cards: subset(cards, mask), Points: 2})
		}
	}
	return items
}

// pairs lists every pair of same-rank cards.
func pairs(cards []Card) []ScoreItem {
	var items []ScoreItem
	for i := range cards {
		for j := i + 1; j < len(cards); j++ {
			if cards[i].Rank() == cards[j].Rank() {
				items = append(items, ScoreItem{Kind: KindPair, Cards: []Card{cards[i], cards[j]}, Points: 2})
			}
		}
	}
	return items
}

// runs lists every distinct run of three or more at its maximal length:
// one item for each way of choosing a card of each rank in the run. cards
// must be sorted by rank.
func runs(cards []Card) []ScoreItem {
	var byRank [14][]Card
	for _, c := range cards {
		byRank[c.Rank()] = append(byRank[c.Rank()], c)
	}
	var items []ScoreItem
	for r := Ace; r <= King; {
		if len(byRank[r]) == 0 {
			r++
			continue
		}
		start := r
		for r <= King && len(byRank[r]) > 0 {
			r++
		}
		if r-start >= 3 {
			items = appendRuns(items, byRank[start:r], nil)
		}
	}
	return items
}

// appendRuns appends one run item for each choice of one card per rank.
func appendRuns(items []ScoreItem, ranks [][]Card, chosen []Card) []ScoreItem {
	if len(ranks) == 0 {
		run := append([]Card(nil), chosen...)
		return append(items, ScoreItem{Kind: KindRun, Cards: run, Points: len(run)})
	}
	for _, c := range ranks[0] {
		items = appendRuns(items, ranks[1:], append(chosen, c))
	}
	return items
}

// flush scores a flush: four hand cards of one suit score 4, five with the
// starter 5; a crib scores only the five-card flush (RULES.md "The show").
func flush(hand []Card, starter Card, crib bool) ScoreItem {
	if len(hand) < 4 {
		return ScoreItem{}
	}
	s := hand[0].Suit()
	for _, c := range hand[1:] {
		if c.Suit() != s {
			return ScoreItem{}
		}
	}
	cards := append([]Card(nil), hand...)
	sortCards(cards)
	if starter.Suit() == s {
		return ScoreItem{Kind: KindFlush, Cards: append(cards, starter), Points: len(hand) + 1}
	}
	if crib {
		return ScoreItem{}
	}
	return ScoreItem{Kind: KindFlush, Cards: cards, Points: len(hand)}
}

// subset returns the cards whose bits are set in mask.
func subset(cards []Card, mask int) []Card {
	var out []Card
	for i, c := range cards {
		if mask&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	return out
}

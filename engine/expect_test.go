package engine

import (
	"math"
	"testing"
)

// bruteHand averages ScoreHand over every starter in unseen.
func bruteHand(hand [4]Card, unseen CardSet) float64 {
	sum, n := 0, 0
	for _, s := range unseen.Cards() {
		sum += ScoreHand(hand, s, false)
		n++
	}
	return float64(sum) / float64(n)
}

// bruteCrib enumerates every draw of cards and starter from unseen.
func bruteCrib(known []Card, unseen CardSet) float64 {
	cards := unseen.Cards()
	m := 4 - len(known)
	sum, n := 0, 0
	var rec func(from int, crib []Card)
	rec = func(from int, crib []Card) {
		if len(crib) == 4 {
			in := SetOf(crib...)
			for _, s := range cards {
				if !in.Has(s) {
					sum += ScoreHand([4]Card(crib), s, true)
					n++
				}
			}
			return
		}
		for i := from; i < len(cards); i++ {
			rec(i+1, append(crib, cards[i]))
		}
	}
	rec(0, append([]Card(nil), known...))
	_ = m
	return float64(sum) / float64(n)
}

// TestExpectedValuesAreExact compares the rank-weighted sums with plain
// enumeration of every card combination.
func TestExpectedValuesAreExact(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		deck := Shuffle(SeedFromUint64(seed))
		six := deck[:6]
		unseen := FullDeck &^ SetOf(six...)
		hand := [4]Card(six[:4])
		if got, want := ExpectedHand(hand, unseen), bruteHand(hand, unseen); math.Abs(got-want) > 1e-9 {
			t.Errorf("hand %s: %.9f, want %.9f", FormatCards(hand[:]), got, want)
		}
		two := six[4:6]
		if got, want := ExpectedCrib(two, unseen), bruteCrib(two, unseen); math.Abs(got-want) > 1e-9 {
			t.Errorf("crib with %s: %.9f, want %.9f", FormatCards(two), got, want)
		}
	}
	// A jack and suited cards exercise nobs and flush.
	for _, known := range []string{"JH 5H", "JC", "2D 9D", "5S"} {
		k := MustParseCards(known)
		unseen := FullDeck &^ SetOf(k...) &^ SetOf(MustParseCards("AS 3C 7H 8D")...)
		if len(k) == 1 && testing.Short() {
			continue
		}
		if got, want := ExpectedCrib(k, unseen), bruteCrib(k, unseen); math.Abs(got-want) > 1e-9 {
			t.Errorf("crib with %s: %.9f, want %.9f", known, got, want)
		}
	}
}

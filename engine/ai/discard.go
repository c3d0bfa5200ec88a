package ai

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/cribbage-bot/cribbage/engine"
)

// Split is one way to divide a dealt hand: the cards kept and thrown, with
// the kept hand's expected show score, the crib's expected score (counted
// for the seat when the crib is its side's, against it otherwise), what
// the kept cards are expected to peg less the opponent's, and the total.
type Split struct {
	Keep  []engine.Card
	Throw []engine.Card
	Hand  float64
	// Crib is the crib's expected score; at two players it reckons with
	// what the other player throws to it (cribread.go).
	Crib float64
	// OwnCrib is whether the crib is the seat's side's.
	OwnCrib bool
	// Play is the pegging term: pegtable.go at two players,
	// pegtable_many.go at three and four.
	Play float64
	// Show is the hand and crib together, Total the show and the play.
	Show  float64
	Total float64
	// order is the split's place in the order the splits are made.
	order int
	// classicShow is the show as the classic expert values it, with
	// the other player's crib cards taken at random (see cribread.go).
	classicShow float64
}

// Splits values every keep/throw split of a dealt hand, best total first:
// the kept hand exactly over every starter the seat has not seen, the crib
// over every draw of the other crib cards and the starter from those
// cards, and the play from the pegging tables.
func Splits(opts engine.Options, seat, dealer int, dealt engine.CardSet) []Split {
	cards := dealt.Cards()
	throw := opts.DiscardSize()
	unseen := engine.FullDeck &^ dealt
	own := opts.SideOf(seat) == opts.SideOf(dealer)
	sign := -1.0 // the crib counts against the seat
	if own {
		sign = 1
	}
	var out []Split
	eachThrow(len(cards), throw, func(idx []int) {
		var t, k []engine.Card
		in := map[int]bool{}
		for _, i := range idx {
			in[i] = true
			t = append(t, cards[i])
		}
		for i, c := range cards {
			if !in[i] {
				k = append(k, c)
			}
		}
		s := Split{Keep: k, Throw: t, OwnCrib: own, order: len(out)}
		s.Hand = engine.ExpectedHand([4]engine.Card(k), unseen)
		s.Crib = engine.ExpectedCrib(t, unseen)
		s.classicShow = s.Hand + sign*s.Crib
		if opts.Players == 2 {
			s.Crib += cribReadValue(own, t)
			s.Play = pegValue(seat == dealer, k)
		} else {
			s.Play = pegValueMany(opts, leadOrder(opts, seat, dealer), k)
		}
		s.Show = s.Hand + sign*s.Crib
		s.Total = s.Show + s.Play
		out = append(out, s)
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Total > out[j].Total })
	return out
}

// eachThrow calls fn with every choice of k indexes out of n, in order.
func eachThrow(n, k int, fn func(idx []int)) {
	idx := make([]int, k)
	var rec func(from, depth int)
	rec = func(from, depth int) {
		if depth == k {
			fn(idx)
			return
		}
		for i := from; i < n; i++ {
			idx[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
}

// chooseDiscard picks the cards a level throws.
func chooseDiscard(level Level, v engine.View, rng *rand.Rand) []engine.Card {
	splits := Splits(v.Options, v.Seat, v.Dealer, v.Hand)
	switch level {
	case Expert:
		if racing(v) {
			return splitForTheWin(v, winModelOf(v.Options), splits).Throw
		}
		return splits[0].Throw
	case Classic:
		return bestShow(splits).Throw
	case Greedy, Easy:
		// Equal hands in the order the levels were measured with: the
		// show as classic values it, and the play.
		sort.SliceStable(splits, func(i, j int) bool {
			return splits[i].classicShow+splits[i].Play > splits[j].classicShow+splits[j].Play
		})
		sort.SliceStable(splits, func(i, j int) bool { return splits[i].Hand > splits[j].Hand })
		if level == Easy {
			// A beginner sees roughly which hands are good, not which is best.
			return splits[rng.IntN(min(3, len(splits)))].Throw
		}
		return splits[0].Throw
	}
	return splits[rng.IntN(len(splits))].Throw
}

// splitForTheWin is the expert's discard near the end of a game between
// two sides (two players, or partners): the split most likely to win, each
// valued by its hand's points over every starter, and the play and the
// other hands (and the crib) from what hands measure (winprob.go). What
// the chance leaves out, the split's own crib and play, counts at what a
// point is worth here: how much the chance moves with a point more or
// less for either side, or in the crib.
func splitForTheWin(v engine.View, model *winModel, splits []Split) Split {
	side := v.Options.SideOf(v.Seat)
	need, theirs := v.Options.Target-v.Scores[side], v.Options.Target-v.Scores[1-side]
	unseen := engine.FullDeck &^ v.Hand
	starters := unseen.Len()
	cribMean := 0.0
	for c, p := range model.crib {
		cribMean += float64(c) * prob(p)
	}
	handOf := func(s Split) []cell {
		var counts [handCells]int
		for _, starter := range unseen.Cards() {
			counts[min(engine.ScoreShow(s.Keep, starter, false).Total, handCells-1)]++
		}
		var hand []cell
		for h, n := range counts {
			if n > 0 {
				hand = append(hand, cell{h, 0, float64(n) / float64(starters)})
			}
		}
		return hand
	}
	d := newDiscardChance(model, v.Seat, v.Dealer)
	// What a point is worth here, measured on the best split by points:
	// to the seat's side, to the other, and in the crib, which counts
	// last (often after the game is decided).
	hands := make([][]cell, len(splits))
	for i, s := range splits {
		hands[i] = handOf(s)
	}
	h := hands[0]
	mine := (d.chance(h, max(need-1, 1), theirs) - d.chance(h, min(need+1, maxNeed), theirs)) / 2
	against := (d.chance(h, need, min(theirs+1, maxNeed)) - d.chance(h, need, max(theirs-1, 1))) / 2
	crib := (d.withCribShifted(1).chance(h, need, theirs) - d.withCribShifted(-1).chance(h, need, theirs)) / 2
	best, bestScore := splits[0], math.Inf(-1)
	for i, s := range splits {
		// The play term is the seat's side's pegging less the other's:
		// half of it counted as points gained, half as points denied.
		score := d.chance(hands[i], need, theirs) + (s.Crib-cribMean)*crib + s.Play*(mine+against)/2
		if score > bestScore {
			best, bestScore = s, score
		}
	}
	return best
}

// GivenUp is what throwing thrown from dealt gave up against the best
// throw, in expected points as Splits values them (what the coach's
// Review my last discard tells): 0 for the best throw. The seat's dealer
// is dealer. It is false for a throw that is not one of dealt's.
func GivenUp(opts engine.Options, seat, dealer int, dealt, thrown engine.CardSet) (float64, bool) {
	splits := Splits(opts, seat, dealer, dealt)
	for _, s := range splits {
		if engine.SetOf(s.Throw...) == thrown {
			return max(splits[0].Total-s.Total, 0), true
		}
	}
	return 0, false
}

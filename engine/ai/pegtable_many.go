package ai

import (
	"math"
	"math/rand/v2"

	"github.com/cribbage-bot/cribbage/engine"
)

// The pegging term of a discard at tables of three and four. As at two
// (pegtable.go), the four cards kept decide the play, and by how much
// depends on the seat: the player left of the dealer leads into three
// hands, the dealer plays last and takes the last go most often.
// manyPegTable holds, for each table (three, four, partners), each seat
// counted from the one who leads, and each four ranks kept, the points
// the keeper's side is expected to peg less the other sides' average.
//
// Four hands make searching every deal to the end too slow for a table of
// this size (a play of sixteen cards is tens of thousands of nodes), so
// the generator plays each deal out with a player who sees one card ahead:
// policyRank, the points a card scores less what the next player can
// score back at once (plus it, for a partner). The other hands keep what
// the classic expert keeps from five cards dealt from the rest of the
// deck. `go generate ./engine/ai` writes it again (see generate.go; about
// 20 seconds on two cores); TestManyPegTableRegenerates checks a sample of
// it on every run.

// How manyPegTable was generated: deals per entry and the run's seed.
const (
	manyPegSamples = 300
	manyPegSeed    = 0x6d616e79 // "many"
)

// The tables manyPegTable covers, in its first index.
const (
	threeHanded = iota
	fourHanded
	partnership
	manyTables
)

// manyTableOf is the index in manyPegTable of a table of three or four.
func manyTableOf(o engine.Options) int {
	switch {
	case o.Partners:
		return partnership
	case o.Players == 4:
		return fourHanded
	}
	return threeHanded
}

// manyTableOptions are the options of each of manyPegTable's tables.
var manyTableOptions = [manyTables]engine.Options{
	threeHanded: {Players: 3, Target: 121},
	fourHanded:  {Players: 4, Target: 121},
	partnership: {Players: 4, Partners: true, Target: 121},
}

// leadOrder is a seat's place in the play: 0 for the player left of the
// dealer, who leads, up to players−1 for the dealer.
func leadOrder(o engine.Options, seat, dealer int) int {
	return (seat - dealer - 1 + 2*o.Players) % o.Players
}

// pegValueMany is the pegging term of keeping four cards at a table of
// three or four, for the seat at place order in the play.
func pegValueMany(o engine.Options, order int, keep []engine.Card) float64 {
	return float64(manyPegTable[manyTableOf(o)][order][pegIndex(sortedRanks(keep))]) / 100
}

// manyPegEntry estimates one entry of manyPegTable: keeping four cards of
// ranks r at place order in the play of table kind, what the keeper's
// side pegs less the other sides' average, over samples deals.
func manyPegEntry(kind, order int, r [4]int8, samples int, seed uint64) float64 {
	o := manyTableOptions[kind]
	n := o.Players
	rng := rand.New(rand.NewPCG(seed, uint64(pegIndex(r))<<4|uint64(kind)<<2|uint64(order)))
	mine := cardsOfRanks(r)
	// The keeper is seat 0; the dealer sits order+1 seats to its right.
	dealer := (n - 1 - order) % n
	crib := cribOfOne()
	total := 0.0
	for i := 0; i < samples; i++ {
		st := pegState{players: int8(n), sides: int8(o.Sides()), target: math.MaxInt16, turn: int8((dealer + 1) % n)}
		for _, rank := range r {
			st.hold(0, rank)
		}
		rest := engine.FullDeck &^ mine
		for seat := 1; seat < n; seat++ {
			dealt := sample(rest, o.HandSize(), rng)
			rest &^= dealt
			for _, c := range keepForShow(dealt, o.SideOf(seat) == o.SideOf(dealer), crib) {
				st.hold(int8(seat), int8(c.Rank()))
			}
		}
		for !st.done {
			st.play(policyRank(&st))
		}
		var pegged [4]float32
		for side := range pegged {
			pegged[side] = float32(st.scores[side])
		}
		total += float64(utility(pegged, 0, st.sides))
	}
	return total / float64(samples)
}

// keepForShow is the four of five cards that classic keeps: the best
// hand over every starter, with the crib's points for or against it.
// The crib of one thrown card is taken from crib, by its rank, rather
// than counted against the cards this player saw: the difference is
// small, and counting it anew is most of what classic's discard costs.
func keepForShow(dealt engine.CardSet, ownCrib bool, crib [14]float64) []engine.Card {
	cards := dealt.Cards()
	unseen := engine.FullDeck &^ dealt
	var best [4]engine.Card
	bestValue := math.Inf(-1)
	for i, thrown := range cards {
		var keep [4]engine.Card
		k := 0
		for j, c := range cards {
			if j != i {
				keep[k] = c
				k++
			}
		}
		v := engine.ExpectedHand(keep, unseen)
		if ownCrib {
			v += crib[thrown.Rank()]
		} else {
			v -= crib[thrown.Rank()]
		}
		if v > bestValue {
			best, bestValue = keep, v
		}
	}
	return best[:]
}

// cribOfOne is the crib's expected points when one card of each rank is
// thrown into it, the rest of it and the starter from the rest of the
// deck.
func cribOfOne() [14]float64 {
	var crib [14]float64
	for r := engine.Ace; r <= engine.King; r++ {
		c := engine.NewCard(r, engine.Spades)
		crib[r] = engine.ExpectedCrib([]engine.Card{c}, engine.FullDeck.Remove(c))
	}
	return crib
}

// cardsOfRanks is a set of cards of the given ranks, suits in turn.
func cardsOfRanks(r [4]int8) engine.CardSet {
	var set engine.CardSet
	for i, rank := range r {
		suit := 0
		for j := 0; j < i; j++ {
			if r[j] == rank {
				suit++
			}
		}
		set = set.Add(engine.NewCard(engine.Rank(rank), engine.Suit(suit)))
	}
	return set
}

package engine

import "testing"

// BenchmarkApply measures one action: a card laid in the play.
func BenchmarkApply(b *testing.B) {
	g := position(b, two, 0, []string{"QS 3C 7C TC", "KH 8D 9H 5D"}, "2H 3H 4H 6H", "AD")
	a := Action{Kind: ActPlay, Seat: 1, Card: MustParseCard("KH")}
	for b.Loop() {
		if _, _, err := g.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyDeal measures the costliest action: shuffle and deal.
func BenchmarkApplyDeal(b *testing.B) {
	g := mustNew(b, two, 1)
	seed := SeedFromUint64(5)
	a := Action{Kind: ActDeal, Seat: g.Dealer, Seed: &seed}
	for b.Loop() {
		if _, _, err := g.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWholeGame plays a 2-player game to 121 between two scripted
// players that always make the first legal move (target: under 1 ms).
func BenchmarkWholeGame(b *testing.B) {
	showTable()
	i := uint64(0)
	for b.Loop() {
		i++
		g, _, _ := New(two, SeedFromUint64(i))
		next := seedCounter(i * 1000)
		for g.Phase != PhaseOver {
			var err error
			if g, _, err = g.Apply(firstLegal(g, next)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

package ai

import (
	"reflect"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// dealtView deals a two-player hand and returns the first seat's view.
func dealtView(tb testing.TB, seed uint64) engine.View {
	g, _, err := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(seed))
	if err != nil {
		tb.Fatal(err)
	}
	s := engine.SeedFromUint64(seed + 1)
	g, _, err = g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s})
	if err != nil {
		tb.Fatal(err)
	}
	return g.ViewFor(g.Waiting()[0])
}

// BenchmarkExpertDiscard values all 15 splits of a 6-card hand exactly
// (target: under 100 µs).
func BenchmarkExpertDiscard(b *testing.B) {
	views := make([]engine.View, 16)
	for i := range views {
		views[i] = dealtView(b, uint64(i))
	}
	i := 0
	for b.Loop() {
		v := views[i%len(views)]
		Splits(v.Options, v.Seat, v.Dealer, v.Hand)
		i++
	}
}

// BenchmarkExpertPlayWorstCase times an expert play decision with the
// most choices: four cards in hand, a fresh count, every rank unseen
// (target: under 10 ms).
func BenchmarkExpertPlayWorstCase(b *testing.B) {
	g, _, _ := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(3))
	s := engine.SeedFromUint64(4)
	g, _, _ = g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s})
	for g.Phase == engine.PhaseDiscard {
		seat := g.Waiting()[0]
		a, _ := Decide(Expert, g.ViewFor(seat), 1)
		g, _, _ = g.Apply(a)
	}
	v := g.ViewFor(g.Turn)
	for b.Loop() {
		bestPlay(v)
	}
}

// BenchmarkExpertGame plays a whole expert-vs-expert two-player game
// (target: under 20 ms).
func BenchmarkExpertGame(b *testing.B) {
	cfg := SimConfig{Seats: [2]Level{Expert, Expert}, Seed: 5, Target: 121}
	i := uint64(0)
	for b.Loop() {
		playGame(cfg, i, false)
		i++
	}
}

// TestSameSeedSameDecision: a decision depends only on the view and seed.
func TestSameSeedSameDecision(t *testing.T) {
	for _, level := range []Level{Easy, Expert, Greedy, Random} {
		for seed := uint64(0); seed < 20; seed++ {
			v := dealtView(t, seed)
			a, _ := Decide(level, v, seed)
			b, _ := Decide(level, v, seed)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: %v then %v", level, a, b)
			}
		}
	}
}

// TestExpertThrowsItsBestSplit checks the expert's discard against the
// exact values: in the dealer's seat it keeps 5s for its own crib that it
// would not give an opponent.
func TestExpertThrowsItsBestSplit(t *testing.T) {
	opts := engine.Options{Players: 2, Target: 121}
	dealt := engine.SetOf(engine.MustParseCards("5H 5D KC QS 2C 9D")...)
	own := Splits(opts, 0, 0, dealt)
	theirs := Splits(opts, 0, 1, dealt)
	if own[0].Total < theirs[0].Total {
		t.Errorf("own crib best %.2f below opponent's crib best %.2f", own[0].Total, theirs[0].Total)
	}
	for _, s := range theirs[:1] {
		for _, c := range s.Throw {
			if c.Rank() == 5 {
				t.Errorf("gave a 5 to the opponent's crib: %v", s.Throw)
			}
		}
	}
	for i := 1; i < len(own); i++ {
		if own[i].Total > own[0].Total {
			t.Fatal("splits not sorted best first")
		}
	}
}

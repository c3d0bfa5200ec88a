package engine

import (
	"testing"
)

// firstLegal returns the first legal action for the seat the game waits on,
// taking hand seeds from next; it is the scripted player of the speed
// targets and the transcripts.
func firstLegal(g *State, nextSeed func() Seed) Action {
	switch g.Phase {
	case PhaseDeal:
		seed := nextSeed()
		return Action{Kind: ActDeal, Seat: g.Dealer, Seed: &seed}
	case PhaseDiscard:
		seat := g.Waiting()[0]
		return Action{Kind: ActDiscard, Seat: seat, Cards: g.Hands[seat].Cards()[:g.Options.DiscardSize()]}
	case PhasePlay:
		return Action{Kind: ActPlay, Seat: g.Turn, Card: g.LegalPlays(g.Turn)[0]}
	case PhaseShow:
		seat, crib := g.ShowOrder(g.Shown)
		return Action{Kind: ActClaim, Seat: seat, Points: g.countShow(seat, crib).Total}
	}
	return Action{}
}

// seedCounter returns a seed source counting up from n.
func seedCounter(n uint64) func() Seed {
	return func() Seed { n++; return SeedFromUint64(n) }
}

// playOut plays g to the end with firstLegal, checking invariants after
// every action, and returns the final state and every event.
func playOut(t testing.TB, g *State, nextSeed func() Seed) (*State, []Event) {
	t.Helper()
	var all []Event
	for steps := 0; g.Phase != PhaseOver; steps++ {
		if steps > 5000 {
			t.Fatalf("game did not end")
		}
		a := firstLegal(g, nextSeed)
		next, events, err := g.Apply(a)
		if err != nil {
			t.Fatalf("apply %+v: %v", a, err)
		}
		if err := next.Validate(); err != nil {
			t.Fatalf("after %+v: %v", a, err)
		}
		for side := range g.Scores {
			if next.Scores[side] < g.Scores[side] {
				t.Fatalf("score went down after %+v", a)
			}
		}
		all = append(all, events...)
		g = next
	}
	return g, all
}

// mustNew starts a game or fails the test.
func mustNew(t testing.TB, opts Options, seed uint64) *State {
	t.Helper()
	g, _, err := New(opts, SeedFromUint64(seed))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

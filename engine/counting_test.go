package engine

import (
	"errors"
	"testing"
)

// toShow plays the hand out to the manual show.
func toShow(t *testing.T, opts Options, scores []int) *State {
	t.Helper()
	// Seat 1 holds 5♥ 5♦ 5♣ J♠ with the 5♠: 29.
	g := position(t, opts, 0, []string{"2C 3C 4C 6C", "5H 5D 5C JS"}, "8S 9S TS QH", "5S")
	copy(g.Scores, scores)
	for g.Phase == PhasePlay {
		g, _ = apply(t, g, firstLegal(g, nil))
	}
	if g.Phase != PhaseShow || g.Turn != 1 {
		t.Fatalf("phase %s turn %d, want the show with seat 1 to count", g.Phase, g.Turn)
	}
	return g
}

func TestManualCounting(t *testing.T) {
	manual := Options{Players: 2, Target: 121, ManualCounting: true}
	g := toShow(t, manual, nil)
	base := g.Scores[1]

	if _, _, err := g.Apply(Action{Kind: ActClaim, Seat: 1, Points: MaxShow + 1}); !errors.Is(err, ErrBadClaim) {
		t.Errorf("claim of 30: %v, want ErrBadClaim", err)
	}
	// Over-claiming is refused: the player counts again.
	if _, _, err := g.Apply(Action{Kind: ActClaim, Seat: 1, Points: 29}); err != nil {
		t.Errorf("exact claim refused: %v", err)
	}
	if _, _, err := g.Apply(Action{Kind: ActClaim, Seat: 0, Points: 2}); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("dealer counting first: %v, want ErrNotYourTurn", err)
	}
	// An under-claim is pegged as claimed; the rest is lost.
	g, events := apply(t, g, Action{Kind: ActClaim, Seat: 1, Points: 20})
	if g.Scores[1] != base+20 || events[0].Missed != 9 || events[0].Points != 20 || len(g.Missed) != 0 {
		t.Errorf("under-claim: score %d (from %d), event %+v, missed %v", g.Scores[1], base, events[0], g.Missed)
	}
	if g.Turn != 0 {
		t.Errorf("turn %d, want the dealer next", g.Turn)
	}
}

func TestManualOverClaimRefused(t *testing.T) {
	g := toShow(t, Options{Players: 2, Target: 121, ManualCounting: true}, nil)
	g2 := g
	// A hand of 29 cannot be over-claimed, so use the dealer's hand.
	g2, _ = apply(t, g2, Action{Kind: ActClaim, Seat: 1, Points: 29})
	truth := g2.countShow(0, false).Total
	if _, _, err := g2.Apply(Action{Kind: ActClaim, Seat: 0, Points: truth + 1}); !errors.Is(err, ErrOverClaim) {
		t.Errorf("over-claim: %v, want ErrOverClaim", err)
	}
}

func TestMuggins(t *testing.T) {
	mug := Options{Players: 2, Target: 121, ManualCounting: true, Muggins: true}
	g := toShow(t, mug, nil)
	g, _ = apply(t, g, Action{Kind: ActClaim, Seat: 1, Points: 24})
	if len(g.Missed) != 1 || g.Missed[0].Points != 5 {
		t.Fatalf("missed %+v, want 5 left for muggins", g.Missed)
	}
	if _, _, err := g.Apply(Action{Kind: ActMuggins, Seat: 1, Index: 0}); !errors.Is(err, ErrNotOpponent) {
		t.Errorf("claimer's own muggins: %v, want ErrNotOpponent", err)
	}
	before := g.Scores[0]
	g, events := apply(t, g, Action{Kind: ActMuggins, Seat: 0, Index: 0})
	if g.Scores[0] != before+5 || events[0].Kind != EvMuggins || events[0].Other != 1 {
		t.Errorf("muggins: score %d → %d, events %s", before, g.Scores[0], kinds(events))
	}
	if _, _, err := g.Apply(Action{Kind: ActMuggins, Seat: 0, Index: 0}); !errors.Is(err, ErrNothingMissed) {
		t.Errorf("second muggins: %v, want ErrNothingMissed", err)
	}

	// With muggins an over-claim pegs the true score and gives the excess
	// to the opponents.
	truth := g.countShow(0, false).Total
	s0, s1 := g.Scores[0], g.Scores[1]
	g, events = apply(t, g, Action{Kind: ActClaim, Seat: 0, Points: truth + 3})
	if g.Scores[0] != s0+truth || g.Scores[1] != s1+3 {
		t.Errorf("over-claim: scores %v from [%d %d], truth %d; events %s", g.Scores, s0, s1, truth, kinds(events))
	}
}

func TestMugginsStaysOpenUntilTheNextDeal(t *testing.T) {
	mug := Options{Players: 2, Target: 121, ManualCounting: true, Muggins: true}
	g := toShow(t, mug, nil)
	g, _ = apply(t, g, Action{Kind: ActClaim, Seat: 1, Points: 24})
	for g.Phase == PhaseShow {
		seat, crib := g.ShowOrder(g.Shown)
		g, _ = apply(t, g, Action{Kind: ActClaim, Seat: seat, Points: g.countShow(seat, crib).Total})
	}
	if g.Phase != PhaseDeal {
		t.Fatalf("phase %s", g.Phase)
	}
	if _, _, err := g.Apply(Action{Kind: ActMuggins, Seat: 0, Index: 0}); err != nil {
		t.Errorf("muggins before the deal: %v", err)
	}
	seed := SeedFromUint64(1)
	dealt, _ := apply(t, g, Action{Kind: ActDeal, Seat: g.Dealer, Seed: &seed})
	if _, _, err := dealt.Apply(Action{Kind: ActMuggins, Seat: 0, Index: 0}); err == nil {
		t.Errorf("muggins after the deal accepted")
	}
}

func TestResignAndForfeit(t *testing.T) {
	g := position(t, three, 0, []string{"2C 3C 4C 6C", "5H 5D 5C JS", "AD 2D 3D 4D"}, "8S 9S TS QH", "5S")
	g.Scores = []int{40, 70, 55}
	over, events := apply(t, g, Action{Kind: ActResign, Seat: 1})
	if over.Result.Winner != 2 || over.Result.Loser != 1 || over.Result.Games != 1 || over.Result.Reason != ReasonResigned {
		t.Errorf("resign: result %+v, events %s", over.Result, kinds(events))
	}
	// Seat 1 is to play; seat 0 may claim the forfeit, seat 2 may not forfeit seat 0.
	if _, _, err := g.Apply(Action{Kind: ActForfeit, Seat: 2, Other: 0}); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("forfeit of a seat not to move: %v", err)
	}
	won, _ := apply(t, g, Action{Kind: ActForfeit, Seat: 0, Other: 1})
	if won.Result.Winner != 0 || won.Result.Reason != ReasonForfeit || won.Result.Skunks[1] != 0 {
		t.Errorf("forfeit: %+v", won.Result)
	}
	p := position(t, partners, 3, []string{"5H 5S 2C 3C", "TH AH 4D 6D", "5D 7S 8S 9S", "5C JD QD KD"}, "2D 3D 7D 8D", "KC")
	if _, _, err := p.Apply(Action{Kind: ActForfeit, Seat: 2, Other: 0}); !errors.Is(err, ErrNotOpponent) {
		t.Errorf("forfeiting a partner: %v", err)
	}
}

// TestForfeitOnlyByASideNotWaitedOn checks that a forfeit is claimed only
// by a side the table is not waiting on, from a side it is: a late player
// cannot win because someone else is late too.
func TestForfeitOnlyByASideNotWaitedOn(t *testing.T) {
	// In the discard every seat that has not thrown is waited on.
	discard := func(opts Options, thrown ...int) *State {
		t.Helper()
		g, err := NewWithDealer(opts, 0)
		if err != nil {
			t.Fatal(err)
		}
		seed := SeedFromUint64(7)
		g, _ = apply(t, g, Action{Kind: ActDeal, Seat: 0, Seed: &seed})
		for _, s := range thrown {
			g, _ = apply(t, g, Action{Kind: ActDiscard, Seat: s, Cards: g.Hands[s].Cards()[:opts.DiscardSize()]})
		}
		return g
	}
	for _, tc := range []struct {
		name          string
		g             *State
		claimer, late int
		want          error
	}{
		{"three players, the claimer has not thrown either", discard(three, 1), 0, 2, ErrClaimerWaited},
		{"three players, the claimer has thrown", discard(three, 1), 1, 2, nil},
		{"three players, from a seat that has thrown", discard(three, 1), 0, 1, ErrNotYourTurn},
		{"two players, both late", discard(two), 0, 1, ErrClaimerWaited},
		{"two players, both late, the other way", discard(two), 1, 0, ErrClaimerWaited},
		{"two players, one late", discard(two, 0), 0, 1, nil},
		{"partners, the claimer's partner has not thrown", discard(partners, 0, 1), 0, 3, ErrClaimerWaited},
		{"partners, the claimer's side has thrown", discard(partners, 0, 2), 0, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next, _, err := tc.g.Apply(Action{Kind: ActForfeit, Seat: tc.claimer, Other: tc.late})
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("forfeit: %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r := next.Result; r.Reason != ReasonForfeit || r.Winner != next.sideOf(tc.claimer) || r.Loser != next.sideOf(tc.late) {
				t.Errorf("result %+v", r)
			}
		})
	}
}

func TestRematchPassesTheDeal(t *testing.T) {
	prev := position(t, three, 1, []string{"2C 3C 4C 6C", "5H 5D 5C JS", "AD 2D 3D 4D"}, "8S 9S TS QH", "5S")
	prev, _ = apply(t, prev, Action{Kind: ActResign, Seat: 0})
	g, err := Rematch(prev)
	if err != nil || g.Dealer != 2 || g.Phase != PhaseDeal || g.Scores[0] != 0 || g.Options != prev.Options {
		t.Errorf("rematch %+v, %v", g, err)
	}
}

package engine

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestIllegalActionsLeaveTheStateUnchanged(t *testing.T) {
	play := position(t, two, 0, []string{"QS 3C 7C TC", "KH 8D 9H 5D"}, "2H 3H 4H 6H", "AD")
	at28, _ := apply(t, play, plays(t, "1:KH 0:QS 1:8D")...)
	deal := mustNew(t, two, 3)
	discard := discardPosition(t, two, 0, []string{"AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"}, "QD", nil)
	over, _ := playOut(t, mustNew(t, two, 4), seedCounter(40))
	seed := SeedFromUint64(9)

	tests := []struct {
		name   string
		g      *State
		action Action
		want   error
	}{
		{"not your turn", play, Action{Kind: ActPlay, Seat: 0, Card: MustParseCard("QS")}, ErrNotYourTurn},
		{"card not in hand", play, Action{Kind: ActPlay, Seat: 1, Card: MustParseCard("QS")}, ErrCardNotInHand},
		{"no card", play, Action{Kind: ActPlay, Seat: 1}, ErrCardNotInHand},
		{"would pass 31", at28, Action{Kind: ActPlay, Seat: 0, Card: MustParseCard("7C")}, ErrOver31},
		{"play in the deal", deal, Action{Kind: ActPlay, Seat: deal.Dealer, Card: MustParseCard("AS")}, ErrWrongPhase},
		{"deal by the wrong seat", deal, Action{Kind: ActDeal, Seat: 1 - deal.Dealer, Seed: &seed}, ErrNotYourTurn},
		{"deal without a seed", deal, Action{Kind: ActDeal, Seat: deal.Dealer}, ErrBadAction},
		{"discard one of two", discard, Action{Kind: ActDiscard, Seat: 1, Cards: MustParseCards("AH")}, ErrWrongCardCount},
		{"discard a card twice", discard, Action{Kind: ActDiscard, Seat: 1, Cards: []Card{MustParseCard("AH"), MustParseCard("AH")}}, ErrWrongCardCount},
		{"discard another's card", discard, Action{Kind: ActDiscard, Seat: 1, Cards: MustParseCards("AS 2S")}, ErrCardNotInHand},
		{"discard in the play", play, Action{Kind: ActDiscard, Seat: 1, Cards: MustParseCards("KH 8D")}, ErrWrongPhase},
		{"claim without manual counting", play, Action{Kind: ActClaim, Seat: 1, Points: 4}, ErrWrongPhase},
		{"muggins without muggins", play, Action{Kind: ActMuggins, Seat: 0}, ErrBadAction},
		{"no such seat", play, Action{Kind: ActPlay, Seat: 2, Card: MustParseCard("KH")}, ErrBadSeat},
		{"unknown action", play, Action{Kind: 99, Seat: 1}, ErrBadAction},
		{"game over", over, Action{Kind: ActResign, Seat: 0}, ErrGameOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := json.Marshal(tc.g)
			next, events, err := tc.g.Apply(tc.action)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			after, _ := json.Marshal(tc.g)
			if next != tc.g || events != nil || string(before) != string(after) {
				t.Errorf("the state changed on error")
			}
		})
	}
}

// TestApplyNeverModifiesItsInput applies legal actions and checks the input
// state is the same afterwards.
func TestApplyNeverModifiesItsInput(t *testing.T) {
	g := mustNew(t, three, 5)
	next := seedCounter(500)
	for g.Phase != PhaseOver {
		before, _ := json.Marshal(g)
		n, _, err := g.Apply(firstLegal(g, next))
		if err != nil {
			t.Fatal(err)
		}
		if after, _ := json.Marshal(g); string(before) != string(after) {
			t.Fatalf("Apply changed its input")
		}
		g = n
	}
}

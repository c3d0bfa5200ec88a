package engine

import (
	"fmt"
	"testing"
)

func TestWholeGamesEveryTable(t *testing.T) {
	tables := []Options{
		{Players: 2, Target: 121},
		{Players: 2, Target: 61},
		{Players: 3, Target: 121},
		{Players: 4, Target: 121},
		{Players: 4, Partners: true, Target: 121},
		{Players: 2, Target: 121, ManualCounting: true},
		{Players: 3, Target: 121, ManualCounting: true, Muggins: true},
	}
	for _, opts := range tables {
		for seed := uint64(1); seed <= 50; seed++ {
			g := mustNew(t, opts, seed)
			final, _ := playOut(t, g, seedCounter(seed*1000))
			if final.Result == nil || final.Scores[final.Result.Winner] < opts.Target {
				t.Fatalf("%+v seed %d: result %+v scores %v", opts, seed, final.Result, final.Scores)
			}
		}
	}
}

// TestCutRounds splits cuts for deal into rounds: the tied seats alone cut
// again (RULES.md "First dealer"), and the last round's lowest is the dealer
// New chose.
func TestCutRounds(t *testing.T) {
	tests := []struct {
		players int
		cards   string
		rounds  []int // seats cutting in each round
	}{
		{2, "3C 9D", []int{2}},
		{2, "KH KS 3C 9D", []int{2, 2}},
		{3, "2H 2S 9D 5C 5D 4H 8C", []int{3, 2, 2}},
		{4, "AH AS AD AC 7H 7S 7D 7C 2S 3S 4S 5S", []int{4, 4, 4}},
	}
	for _, tt := range tests {
		cards, err := ParseCards(tt.cards)
		if err != nil {
			t.Fatal(err)
		}
		rounds := CutRounds(tt.players, cards)
		var sizes []int
		for _, r := range rounds {
			sizes = append(sizes, len(r))
		}
		if fmt.Sprint(sizes) != fmt.Sprint(tt.rounds) {
			t.Errorf("%d players %s: rounds of %v, want %v", tt.players, tt.cards, sizes, tt.rounds)
		}
	}
	for seed := uint64(0); seed < 2000; seed++ {
		for _, players := range []int{2, 3, 4} {
			g, events, err := New(Options{Players: players, Target: 121}, SeedFromUint64(seed))
			if err != nil {
				t.Fatal(err)
			}
			rounds := CutRounds(players, events[0].Cards)
			last := rounds[len(rounds)-1]
			low := last[0]
			for _, c := range last {
				if c.Card.Rank() < low.Card.Rank() {
					low = c
				}
			}
			if low.Seat != g.Dealer {
				t.Fatalf("seed %d, %d players: the cut says seat %d deals, New says %d", seed, players, low.Seat, g.Dealer)
			}
		}
	}
}

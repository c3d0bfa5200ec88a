package ai

import (
	"testing"
)

// TestLevelsPlayWholeGames plays each pairing to the end: every decision
// is legal (Simulate panics otherwise) and the report adds up.
func TestLevelsPlayWholeGames(t *testing.T) {
	for _, seats := range [][2]Level{{Expert, Random}, {Easy, Greedy}, {Expert, Expert}} {
		r := Simulate(SimConfig{Games: 20, Seats: seats, Seed: 7})
		if r.Levels[0].Wins+r.Levels[1].Wins != r.Games {
			t.Errorf("%v: wins %d + %d of %d", seats, r.Levels[0].Wins, r.Levels[1].Wins, r.Games)
		}
	}
}

package ai

import (
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
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

// TestEveryTableWithComputers plays 3-handed, 4-handed and partnership
// games with computers in every seat: every decision is legal and every
// game ends.
func TestEveryTableWithComputers(t *testing.T) {
	tables := []engine.Options{
		{Players: 3, Target: 121},
		{Players: 4, Target: 121},
		{Players: 4, Partners: true, Target: 121},
		{Players: 2, Target: 61, ManualCounting: true, Muggins: true},
	}
	levels := []Level{Expert, Easy, Greedy, Random}
	for _, opts := range tables {
		for game := uint64(0); game < 10; game++ {
			g, _, err := engine.New(opts, engine.SeedFromUint64(game))
			if err != nil {
				t.Fatal(err)
			}
			for step := uint64(0); g.Phase != engine.PhaseOver; step++ {
				var a engine.Action
				if g.Phase == engine.PhaseDeal {
					s := engine.SeedFromUint64(game<<20 + step)
					a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s}
				} else {
					seat := g.Waiting()[0]
					var ok bool
					if a, ok = Decide(levels[seat%len(levels)], g.ViewFor(seat), step); !ok {
						t.Fatalf("%+v: no decision for seat %d in %s", opts, seat, g.Phase)
					}
				}
				if g, _, err = g.Apply(a); err != nil {
					t.Fatalf("%+v: %v: %v", opts, a, err)
				}
			}
		}
	}
}

// TestPartnerCribCountsForTheTeam: in a partnership the partner's crib is
// the seat's own.
func TestPartnerCribCountsForTheTeam(t *testing.T) {
	opts := engine.Options{Players: 4, Partners: true, Target: 121}
	dealt := engine.SetOf(engine.MustParseCards("5H 5D KC QS 2C")...)
	if s := Splits(opts, 0, 2, dealt); !s[0].OwnCrib {
		t.Error("partner's crib counted against the seat")
	}
	if s := Splits(opts, 0, 1, dealt); s[0].OwnCrib {
		t.Error("opponent's crib counted for the seat")
	}
}

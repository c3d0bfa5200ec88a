package ai

import (
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestLevelsPlayWholeGames plays each pairing to the end at every table
// kind: every decision is legal (Simulate panics otherwise), each game has
// one winning level, and every level plays every seat.
func TestLevelsPlayWholeGames(t *testing.T) {
	for _, cfg := range []SimConfig{
		{Seats: []Level{Expert, Random}},
		{Seats: []Level{Easy, Greedy}},
		{Seats: []Level{Expert, Expert}},
		{Seats: []Level{Classic, Expert}, Target: 61},
		{Seats: []Level{Expert, Classic, Classic}},
		{Seats: []Level{Expert, Classic, Greedy, Random}},
		{Seats: []Level{Expert, Classic, Expert, Classic}, Partners: true},
	} {
		cfg.Games, cfg.Seed = 12, 7
		if testing.Short() {
			cfg.Games = 4 // every pairing and table still, fewer deals
		}
		var progress []int
		cfg.Progress = func(done, total int) { progress = append(progress, done) }
		r := Simulate(cfg)
		wins, seats := 0, 0
		for _, l := range r.Levels {
			wins += l.Wins
			seats += l.Seats
			if l.HandPoints.Mean <= 0 || l.PlayPoints.Mean <= 0 {
				t.Errorf("%v: %s has no points: %+v", cfg.Seats, l.Level, l)
			}
		}
		if wins != r.Games || seats != len(cfg.Seats) || r.Games < cfg.Games || r.Players != len(cfg.Seats) {
			t.Errorf("%v: %d wins and %d seats over %d games", cfg.Seats, wins, seats, r.Games)
		}
		if len(progress) == 0 || progress[len(progress)-1] != r.Games {
			t.Errorf("%v: progress %v, want it to end at %d", cfg.Seats, progress, r.Games)
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
	games := uint64(10)
	if testing.Short() {
		games = 3 // every table still, fewer deals
	}
	for _, opts := range tables {
		for game := range games {
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

package engine

import "testing"

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

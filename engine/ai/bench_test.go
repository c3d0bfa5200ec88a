package ai

import (
	"reflect"
	"slices"
	"testing"
	"time"

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
	cfg := SimConfig{Seats: []Level{Expert, Expert}, Seed: 5, Target: 121}
	i := uint64(0)
	for b.Loop() {
		playGame(cfg, i, 0)
		i++
	}
}

// BenchmarkDecisions plays whole games with a level in every seat, at each
// table kind, timing every decision, and reports the discard and play
// decisions' median and 99th percentile and the time a whole game takes
// (targets for the expert: each p99 under 5 ms, a two-player game under
// 100 ms). Run it with -cpu 1 and enough games for a p99, e.g.
// -benchtime 200x.
func BenchmarkDecisions(b *testing.B) {
	tables := []struct {
		name string
		opts engine.Options
	}{
		{"2p", engine.Options{Players: 2, Target: 121}},
		{"3p", engine.Options{Players: 3, Target: 121}},
		{"4p", engine.Options{Players: 4, Target: 121}},
		{"partners", engine.Options{Players: 4, Partners: true, Target: 121}},
	}
	for _, table := range tables {
		for _, level := range []Level{Expert, Classic} {
			b.Run(table.name+"/"+string(level), func(b *testing.B) {
				var discards, plays []time.Duration
				games := uint64(0)
				for b.Loop() {
					timedGame(b, table.opts, level, games, &discards, &plays)
					games++
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(games)/1000, "ms/game")
				for _, d := range []struct {
					name  string
					times []time.Duration
				}{{"discard", discards}, {"play", plays}} {
					slices.Sort(d.times)
					b.ReportMetric(float64(d.times[len(d.times)/2].Nanoseconds())/1000, d.name+"-µs-p50")
					b.ReportMetric(float64(d.times[len(d.times)*99/100].Nanoseconds())/1000, d.name+"-µs-p99")
				}
				b.ReportMetric(0, "ns/op") // the game time says it better
			})
		}
	}
}

// timedGame plays game i with level in every seat, adding the time
// of each discard and play decision to the lists.
func timedGame(b *testing.B, opts engine.Options, level Level, i uint64, discards, plays *[]time.Duration) {
	g, _, err := engine.New(opts, engine.SeedFromUint64(mix(99, i)))
	if err != nil {
		b.Fatal(err)
	}
	for step := uint64(0); g.Phase != engine.PhaseOver; step++ {
		var a engine.Action
		if g.Phase == engine.PhaseDeal {
			seed := engine.SeedFromUint64(mix(99, i, step))
			a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}
		} else {
			seat := g.Waiting()[0]
			v := g.ViewFor(seat)
			start := time.Now()
			a, _ = Decide(level, v, mix(i, step))
			took := time.Since(start)
			switch a.Kind {
			case engine.ActDiscard:
				*discards = append(*discards, took)
			case engine.ActPlay:
				*plays = append(*plays, took)
			}
		}
		if g, _, err = g.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSameSeedSameDecision: a decision depends only on the view and seed.
func TestSameSeedSameDecision(t *testing.T) {
	for _, level := range []Level{Easy, Expert, Classic, Greedy, Random} {
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

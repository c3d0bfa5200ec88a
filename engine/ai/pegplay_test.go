package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// playPhases deals games of every table kind, throws at random and calls
// fn with the state at every play decision, then plays a random legal card.
func playPhases(t *testing.T, games int, fn func(g *engine.State)) {
	t.Helper()
	tables := []engine.Options{
		{Players: 2, Target: 121}, {Players: 2, Target: 61}, {Players: 3, Target: 121},
		{Players: 4, Target: 121}, {Players: 4, Partners: true, Target: 121},
	}
	for _, opts := range tables {
		for game := 0; game < games; game++ {
			rng := rand.New(rand.NewPCG(uint64(game), uint64(opts.Players)))
			g, _, err := engine.New(opts, engine.SeedFromUint64(uint64(game)))
			if err != nil {
				t.Fatal(err)
			}
			for hands := 0; hands < 3 && g.Phase != engine.PhaseOver; hands++ {
				s := engine.SeedFromUint64(rng.Uint64())
				if g, _, err = g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s}); err != nil {
					t.Fatal(err)
				}
				for g.Phase == engine.PhaseDiscard {
					seat := g.Waiting()[0]
					a, _ := Decide(Random, g.ViewFor(seat), rng.Uint64())
					g, _, _ = g.Apply(a)
				}
				for g.Phase == engine.PhasePlay {
					fn(g)
					legal := g.LegalPlays(g.Turn)
					if g, _, err = g.Apply(engine.Action{Kind: engine.ActPlay, Seat: g.Turn, Card: legal[rng.IntN(len(legal))]}); err != nil {
						t.Fatal(err)
					}
				}
				for g.Phase == engine.PhaseShow {
					a, _ := Decide(Random, g.ViewFor(g.Turn), 0)
					g, _, _ = g.Apply(a)
				}
			}
		}
	}
}

// TestPegStateMatchesEngine: from every play decision of random games at
// every table kind, the search's play of a card scores what the engine's
// does for each side, and leaves the same count, turn and end of play.
func TestPegStateMatchesEngine(t *testing.T) {
	checked := 0
	playPhases(t, 40, func(g *engine.State) {
		v := g.ViewFor(g.Turn)
		var others [4]engine.CardSet
		for s := range g.Options.Players {
			others[s] = g.Remaining(s)
		}
		for _, c := range v.Legal {
			st := newPegState(v, others)
			st.play(int8(c.Rank()))
			next, _, err := g.Apply(engine.Action{Kind: engine.ActPlay, Seat: g.Turn, Card: c})
			if err != nil {
				t.Fatal(err)
			}
			// The engine counts the show as soon as the play ends, so
			// what each side pegged is read from the tallies.
			for side := range g.Options.Sides() {
				pegged := 0
				for s := range g.Options.Players {
					if g.Options.SideOf(s) == side {
						pegged += next.Tally[s].Pegging - g.Tally[s].Pegging
					}
				}
				if got := int(st.scores[side]) - g.Scores[side]; got != pegged {
					t.Fatalf("playing %s at count %d: side %d pegs %d, engine %d", c, g.Count, side, got, pegged)
				}
			}
			if over := next.Phase != engine.PhasePlay; over != st.done {
				t.Fatalf("playing %s at count %d: done %v, engine's play over %v", c, g.Count, st.done, over)
			}
			if !st.done && (int(st.count) != next.Count || int(st.turn) != next.Turn) {
				t.Fatalf("playing %s: count %d turn %d, engine count %d turn %d", c, st.count, st.turn, next.Count, next.Turn)
			}
			checked++
		}
	})
	if checked < 1000 {
		t.Fatalf("only %d plays checked", checked)
	}
}

// TestGoLimitsNeverExcludeTheTruth: what the expert reads from the gos
// never rules out a card another seat really holds, and it does rule out
// cards often enough to matter.
func TestGoLimitsNeverExcludeTheTruth(t *testing.T) {
	informative := 0
	playPhases(t, 40, func(g *engine.State) {
		v := g.ViewFor(g.Turn)
		limits := goLimits(v)
		for s := range g.Options.Players {
			if s == v.Seat {
				continue
			}
			for _, c := range g.Remaining(s).Cards() {
				if int8(c.Value()) <= limits[s] {
					t.Fatalf("seat %d holds %s but the plays %v say it holds nothing of %d or less", s, c, v.Plays, limits[s])
				}
			}
			if limits[s] > 0 && g.Remaining(s) != 0 {
				informative++
			}
		}
	})
	if informative < 100 {
		t.Errorf("the gos told something only %d times", informative)
	}
}

// TestPlayPointsMatchEngine compares the scoring of series of ranks with
// the engine's, over many random series.
func TestPlayPointsMatchEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var cards []engine.Card
		var ranks []int8
		count := 0
		for {
			c := engine.NewCard(engine.Rank(1+rng.IntN(13)), engine.Suit(rng.IntN(4)))
			if count+c.Value() > 31 {
				break
			}
			count += c.Value()
			cards, ranks = append(cards, c), append(ranks, int8(c.Rank()))
			want := 0
			for _, it := range engine.ScorePlay(cards, count) {
				want += it.Points
			}
			if got := playPoints(ranks, int8(count)); got != want {
				t.Fatalf("%s at %d: %d, engine %d", engine.FormatCards(cards), count, got, want)
			}
		}
	}
}

// TestPointsPassedReadsGreedyPlayers: players who always take the most
// points never pass points up in their real hands, so the real deal is
// never marked down; players who lay cards at random sometimes do.
func TestPointsPassedReadsGreedyPlayers(t *testing.T) {
	for _, level := range []Level{Greedy, Random} {
		passed := 0
		for game := uint64(0); game < 30; game++ {
			g, _, err := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(game))
			if err != nil {
				t.Fatal(err)
			}
			for step := uint64(0); g.Phase != engine.PhaseOver && g.HandNo < 4; step++ {
				var a engine.Action
				if g.Phase == engine.PhaseDeal {
					s := engine.SeedFromUint64(mix(game, step))
					a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s}
				} else {
					seat := g.Waiting()[0]
					v := g.ViewFor(seat)
					if g.Phase == engine.PhasePlay {
						var hands, played [4]engine.CardSet
						for s := range g.Options.Players {
							hands[s] = g.Remaining(s)
						}
						for _, p := range v.Plays {
							played[p.Seat] = played[p.Seat].Add(p.Card)
						}
						passed += pointsPassed(v, hands, played)
					}
					a, _ = Decide(level, v, mix(game, step))
				}
				if g, _, err = g.Apply(a); err != nil {
					t.Fatal(err)
				}
			}
		}
		if level == Greedy && passed != 0 {
			t.Errorf("greedy players passed up points %d times in their real hands", passed)
		}
		if level == Random && passed == 0 {
			t.Error("random players never passed up points")
		}
	}
}

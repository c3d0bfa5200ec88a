package ai

import (
	"math/bits"
	"math/rand/v2"
	"slices"
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

// everyHand is what each seat still holds in the play.
func everyHand(g *engine.State) [4]engine.CardSet {
	var hands [4]engine.CardSet
	for s := range g.Options.Players {
		hands[s] = g.Remaining(s)
	}
	return hands
}

// TestPegStateMatchesEngine: from every play decision of random games at
// every table kind, the search's play of a card scores what the engine's
// does for each side, and leaves the same count, turn and end of play.
func TestPegStateMatchesEngine(t *testing.T) {
	checked := 0
	playPhases(t, 40, func(g *engine.State) {
		v := g.ViewFor(g.Turn)
		others := everyHand(g)
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

// TestBestReplyMatchesPlay: bestReply, which works out each card's points
// without laying it, gives what laying the best card with play scores.
func TestBestReplyMatchesPlay(t *testing.T) {
	checked := 0
	playPhases(t, 40, func(g *engine.State) {
		v := g.ViewFor(g.Turn)
		others := everyHand(g)
		for _, target := range []int16{int16(g.Options.Target), int16(max(g.Scores[0], g.Scores[1]) + 2)} {
			st := newPegState(v, others)
			st.target = target
			want := 0
			for m := st.held[st.turn]; m != 0; m &= m - 1 {
				r := int8(bits.TrailingZeros16(m))
				if rankValue(r)+st.count > 31 {
					break
				}
				c := st
				want = max(want, c.play(r))
			}
			before := st
			if got := bestReply(&st); got != float32(want) {
				t.Fatalf("count %d, series %v: bestReply %v, play gives at most %d", st.count, st.series[:st.slen], got, want)
			}
			// bestReply may write past the series, never in it.
			if !slices.Equal(st.series[:st.slen], before.series[:before.slen]) {
				t.Fatal("bestReply changed the series")
			}
			before.series, st.series = [16]int8{}, [16]int8{}
			if st != before {
				t.Fatal("bestReply changed the state")
			}
			checked++
		}
	})
	if checked < 1000 {
		t.Fatalf("only %d states checked", checked)
	}
}

// TestPolicyRankLooksOneCardAhead: the rule the search lays other seats'
// cards by takes its points, keeps the next opponent from scoring back,
// and lays what its partner can score on.
func TestPolicyRankLooksOneCardAhead(t *testing.T) {
	tests := []struct {
		name     string
		partners bool
		series   []int8   // the ranks laid since the count was reset
		hands    [][]int8 // every seat's ranks, seat 0 to play
		want     int8
	}{
		{"takes the fifteen", false, []int8{10}, [][]int8{{5, 9}, {1}, {1}}, 5},
		{"takes the pair over the higher card", false, []int8{3}, [][]int8{{3, 12}, {1}, {1}}, 3},
		{"leaves the next player no fifteen", false, nil, [][]int8{{10, 4}, {5, 5}, {1}}, 4},
		{"leaves the next player no pair", false, []int8{12}, [][]int8{{6, 7}, {7, 13}, {1}}, 6},
		{"between equals, the higher card", false, nil, [][]int8{{2, 3}, {13}, {13}}, 3},
		// Seat 1 is out of cards, so seat 0's partner, seat 2, plays next.
		{"sets up the partner's fifteen", true, nil, [][]int8{{10, 4}, nil, {5}, {13}}, 10},
		{"the same, against an opponent", false, nil, [][]int8{{10, 4}, nil, {5}, {13}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := pegState{players: int8(len(tt.hands)), sides: int8(len(tt.hands)), target: 121}
			if tt.partners {
				st.sides = 2
			}
			for _, r := range tt.series {
				st.series[st.slen] = r
				st.slen++
				st.count += rankValue(r)
			}
			for seat, ranks := range tt.hands {
				for _, r := range ranks {
					st.hold(int8(seat), r)
				}
			}
			if got := policyRank(&st); got != tt.want {
				t.Errorf("policyRank = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestTheSearchPlaysForItsPartner: at a partnership the search counts
// what its partner pegs as its own, so it lays the card its partner can
// score on, where against an opponent in the same seat it lays the other.
func TestTheSearchPlaysForItsPartner(t *testing.T) {
	for _, partners := range []bool{true, false} {
		// Seat 0 leads from a ten and a four; seat 1 is out of cards, so
		// seat 2, holding a five, plays next; seat 3 holds a king.
		st := pegState{players: 4, sides: 4, target: 121}
		if partners {
			st.sides = 2
		}
		for seat, ranks := range [][]int8{{10, 4}, nil, {5}, {13}} {
			for _, r := range ranks {
				st.hold(int8(seat), r)
			}
		}
		sr := searcher{seat: 0, ruled: true}
		ten, four := sr.valueOf(st, 10), sr.valueOf(st, 4)
		if partners && ten <= four {
			t.Errorf("partners: the ten is worth %.2f, the four %.2f; want the ten, for the partner's fifteen", ten, four)
		}
		if !partners && four <= ten {
			t.Errorf("against seat 2: the ten is worth %.2f, the four %.2f; want the four, which gives it no fifteen", ten, four)
		}
	}
}

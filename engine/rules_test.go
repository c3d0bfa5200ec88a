package engine

import (
	"strconv"
	"testing"
)

var (
	two      = Options{Players: 2, Target: 121}
	three    = Options{Players: 3, Target: 121}
	four     = Options{Players: 4, Target: 121}
	partners = Options{Players: 4, Partners: true, Target: 121}
)

// TestPlaySequences plays scripted hands and checks every event and point.
func TestPlaySequences(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		dealer  int
		hands   []string
		crib    string
		plays   string
		want    string // event kinds:seat+points, in order
		pegging map[int]int
	}{
		{
			name:    "31 scores 2, never 3, even as the last card",
			opts:    two,
			hands:   []string{"QS 3C 7C TC", "KH 8D 9H 5D"},
			crib:    "2H 3H 4H 6H",
			plays:   "1:KH 0:QS 1:8D 0:3C 1:9H 0:7C 1:5D 0:TC",
			want:    "play:1 play:0 play:1 play:0+2 reset:1 play:1 play:0 play:1 play:0+2 show:1",
			pegging: map[int]int{0: 4},
		},
		{
			name:    "go, one for the go, and the last card",
			opts:    two,
			hands:   []string{"QD 9C 8H 7H", "KH 6S 4C 2D"},
			crib:    "2H 3H 4H 6H",
			plays:   "1:KH 0:QD 1:6S 1:4C 0:9C 1:2D 0:8H 0:7H",
			want:    "play:1 play:0 play:1 go:0 play:1 go-point:1+1 reset:0 play:0 play:1 play:0 play:0 last-card:0+1 show:1",
			pegging: map[int]int{0: 1, 1: 1},
		},
		{
			name:    "pairs across a go",
			opts:    two,
			hands:   []string{"7D QH JH KH", "TH 5S 5C 9D"},
			crib:    "2H 3H 4H 6H",
			plays:   "1:TH 0:7D 1:5S 1:5C",
			want:    "play:1 play:0 play:1 go:0 play:1+2 go-point:1+1 reset:0",
			pegging: map[int]int{1: 3},
		},
		{
			name:    "no pair across a reset",
			opts:    two,
			hands:   []string{"KD KS 7H 6H", "KH KC 5C 9D"},
			crib:    "2H 3H 4H 6S",
			plays:   "1:KH 0:KD 1:KC 0:KS 1:5C 0:7H 1:9D 0:6H",
			want:    "play:1 play:0+2 play:1+6 go:0 go-point:1+1 reset:0 play:0 play:1+2 play:0 play:1+2 reset:0 play:0 last-card:0+1",
			pegging: map[int]int{0: 3, 1: 11},
		},
		{
			name:    "three players: go passes around, players without cards are skipped",
			opts:    three,
			hands:   []string{"QC 7C 6C 5C", "TH 9H 2S AS", "JD 8D 3C 4C"},
			crib:    "2H 3H 4H 6H",
			plays:   "1:TH 2:JD 0:QC 1:AS 2:8D 0:7C 1:9H 2:3C 1:2S 2:4C 0:6C 0:5C",
			want:    "play:1 play:2 play:0+3 play:1+2 reset:2 play:2 play:0+2 play:1+3 play:2 go:0 play:1 go:2 go-point:1+1 reset:2 play:2 play:0 play:0+5 last-card:0+1",
			pegging: map[int]int{0: 11, 1: 6},
		},
		{
			name:    "four players: everyone else says go",
			opts:    four,
			dealer:  3,
			hands:   []string{"5H 5S 2C 3C", "TH 2H 4D 6D", "5D 7S 8S 9S", "5C JD QD KD"},
			crib:    "2D 3D 7D 8D",
			plays:   "0:5H 1:TH 2:5D 3:5C 0:5S",
			want:    "play:0 play:1+2 play:2 play:3+2 play:0+6 go:1 go:2 go:3 go-point:0+1 reset:1",
			pegging: map[int]int{0: 7, 1: 2, 3: 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.opts, tc.dealer, tc.hands, tc.crib, "AD")
			_, events := apply(t, g, plays(t, tc.plays)...)
			if got := kinds(events); !hasPrefix(got, tc.want) {
				t.Errorf("events\n got %s\nwant %s", got, tc.want)
			}
			got := pegged(events, EvPlay, EvGoPoint, EvLastCard)
			for seat := 0; seat < tc.opts.Players; seat++ {
				if got[seat] != tc.pegging[seat] {
					t.Errorf("seat %d pegged %d, want %d", seat, got[seat], tc.pegging[seat])
				}
			}
		})
	}
}

// hasPrefix reports whether got starts with want (the show may follow).
func hasPrefix(got, want string) bool {
	return len(got) >= len(want) && got[:len(want)] == want
}

func TestPartnersShareOneScore(t *testing.T) {
	g := position(t, partners, 3, []string{"5H 5S 2C 3C", "TH AH 4D 6D", "5D 7S 8S 9S", "5C JD QD KD"}, "2D 3D 7D 8D", "KC")
	g, events := apply(t, g, plays(t, "0:5H 1:TH 2:5D 3:5C 0:5S 1:AH")...)
	if want := "play:0 play:1+2 play:2 play:3+2 play:0+6 play:1+2 reset:2"; kinds(events) != want {
		t.Errorf("events %s, want %s", kinds(events), want)
	}
	if len(g.Scores) != 2 || g.Scores[0] != 6 || g.Scores[1] != 6 {
		t.Errorf("scores %v, want [6 6]", g.Scores)
	}
	// Seats 1 and 3 scored for side 1; their tallies stay their own.
	if g.Tally[1].Pegging != 4 || g.Tally[3].Pegging != 2 {
		t.Errorf("tallies %+v", g.Tally)
	}
}

// discardPosition is position before the discard: hands hold the dealt
// cards and the starter is still face down.
func discardPosition(t *testing.T, opts Options, dealer int, hands []string, starter string, scores []int) *State {
	t.Helper()
	g := position(t, opts, dealer, hands, "", starter)
	g.Phase, g.StarterUp, g.Turn = PhaseDiscard, false, g.left(dealer)
	copy(g.Scores, scores)
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestHisHeels(t *testing.T) {
	hands := []string{"AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"}
	discards := []Action{
		{Kind: ActDiscard, Seat: 1, Cards: MustParseCards("AH 2H")},
		{Kind: ActDiscard, Seat: 0, Cards: MustParseCards("AS 2S")},
	}
	t.Run("pegs 2 to the dealer before the play", func(t *testing.T) {
		g := discardPosition(t, two, 0, hands, "JD", []int{10, 20})
		g, events := apply(t, g, discards...)
		if want := "discard:1 discard:0 starter:1 heels:0+2"; kinds(events) != want {
			t.Errorf("events %s, want %s", kinds(events), want)
		}
		if g.Scores[0] != 12 || g.Phase != PhasePlay || g.Turn != 1 {
			t.Errorf("scores %v phase %s turn %d", g.Scores, g.Phase, g.Turn)
		}
	})
	t.Run("can win the game at the cut", func(t *testing.T) {
		g := discardPosition(t, two, 0, hands, "JD", []int{119, 80})
		g, events := apply(t, g, discards...)
		if want := "discard:1 discard:0 starter:1 heels:0+2 game-over:0"; kinds(events) != want {
			t.Errorf("events %s, want %s", kinds(events), want)
		}
		if g.Phase != PhaseOver || g.Result.Winner != 0 || g.Result.Skunks[1] != 1 || g.Result.Games != 2 {
			t.Errorf("result %+v", g.Result)
		}
	})
	t.Run("no heels for another starter", func(t *testing.T) {
		g := discardPosition(t, two, 0, hands, "QD", []int{119, 80})
		g, _ = apply(t, g, discards...)
		if g.Scores[0] != 119 || g.Phase != PhasePlay {
			t.Errorf("scores %v phase %s", g.Scores, g.Phase)
		}
	})
}

// TestShowOrderAndWinning checks the show order and that the game ends the
// moment a side reaches the target, before later hands are counted.
func TestShowOrderAndWinning(t *testing.T) {
	hands := []string{"2C 3C 4C 6C", "5H 5D 5C JS"} // the non-dealer holds 29 with the 5♠
	t.Run("order: dealer's left, dealer, crib", func(t *testing.T) {
		g := position(t, three, 1, []string{"2C 3C 4C 6C", "5H 5D 5C JS", "AD 2D 3D 4D"}, "8S 9S TS QH", "5S")
		_, events := playOut(t, g, seedCounter(0))
		var order []string
		for _, e := range events {
			if e.Kind == EvShow {
				order = append(order, strconv.Itoa(e.Seat)+map[bool]string{true: "crib", false: ""}[e.Crib])
			}
			if e.Kind == EvHandOver {
				break
			}
		}
		if want := []string{"2", "0", "1", "1crib"}; len(order) < 4 || order[0] != want[0] || order[1] != want[1] || order[2] != want[2] || order[3] != want[3] {
			t.Errorf("show order %v, want %v", order, want)
		}
	})
	t.Run("the non-dealer wins before the dealer counts", func(t *testing.T) {
		g := position(t, two, 0, hands, "8S 9S TS QH", "5S")
		g.Scores = []int{110, 100}
		g, events := playOutHand(t, g)
		shows := 0
		for _, e := range events {
			if e.Kind == EvShow {
				shows++
				if e.Seat != 1 || e.Points != 29 {
					t.Errorf("show %+v, want seat 1's 29", e)
				}
			}
		}
		if shows != 1 || g.Phase != PhaseOver || g.Result.Winner != 1 {
			t.Errorf("%d shows, result %+v; events %s", shows, g.Result, kinds(events))
		}
	})
}

// playOutHand plays firstLegal moves until the hand or game ends.
func playOutHand(t *testing.T, g *State) (*State, []Event) {
	t.Helper()
	var all []Event
	for g.Phase == PhasePlay || g.Phase == PhaseShow {
		var events []Event
		g, events = apply(t, g, firstLegal(g, seedCounter(0)))
		all = append(all, events...)
	}
	return g, all
}

func TestSkunkLines(t *testing.T) {
	tests := []struct{ score, target, level int }{
		{91, 121, 0}, {90, 121, 1}, {61, 121, 1}, {60, 121, 2}, {0, 121, 2},
		{31, 61, 0}, {30, 61, 1}, {0, 61, 1},
	}
	for _, tc := range tests {
		if got := SkunkLevel(tc.score, tc.target); got != tc.level {
			t.Errorf("loser on %d of %d: level %d, want %d", tc.score, tc.target, got, tc.level)
		}
	}
	for level, games := range []int{1, 2, 4} {
		if gamesFor(level) != games {
			t.Errorf("level %d worth %d games, want %d", level, gamesFor(level), games)
		}
	}
}

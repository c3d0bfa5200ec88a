package cribbage

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestTournamentStandingsOrder: game points first, then spread, then
// games won; a bye is a plain win; entrants still level keep their
// sign-up order.
func TestTournamentStandingsOrder(t *testing.T) {
	entrants := []string{"ann", "bob", "cy", "di", "ed"}
	games := []TournamentGame{
		{Round: 1, Winner: "bob", Loser: "ann", GamePoints: 3, Spread: 35}, // a skunk
		{Round: 1, Winner: "cy", Loser: "di", GamePoints: 2, Spread: 5},
		{Round: 2, Winner: "ed", Loser: "bob", GamePoints: 2, Spread: 12},
		{Round: 2, Winner: "ann", Loser: "cy", GamePoints: 2, Spread: 20},
	}
	got := TournamentStandings(entrants, games, map[string]int{"ed": 1, "di": 1})
	want := []TournamentStanding{
		{UserID: "ed", Played: 1, Won: 1, GamePoints: 4, Spread: 12, Byes: 1},
		{UserID: "bob", Played: 2, Won: 1, GamePoints: 3, Spread: 23},
		{UserID: "di", Played: 1, Won: 0, GamePoints: 2, Spread: -5, Byes: 1},
		{UserID: "ann", Played: 2, Won: 1, GamePoints: 2, Spread: -15},
		{UserID: "cy", Played: 2, Won: 1, GamePoints: 2, Spread: -15},
	}
	if !slices.Equal(got, want) {
		t.Errorf("standings:\n got %+v\nwant %+v", got, want)
	}
}

// TestSwissRoundsNeverRepeatAGame plays fields of 4 to 13 through as many
// rounds as they have opponents, every winner the first of the pairing:
// no two entrants ever meet twice, every entrant plays or sits out each
// round, and no one has a second bye while another entrant has none.
func TestSwissRoundsNeverRepeatAGame(t *testing.T) {
	for n := 4; n <= 13; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var entrants []string
			for i := range n {
				entrants = append(entrants, fmt.Sprintf("p%02d", i))
			}
			met := map[[2]string]bool{}
			meet := func(a, b string) bool { return met[[2]string{a, b}] || met[[2]string{b, a}] }
			byes := map[string]int{}
			var games []TournamentGame
			rounds := min(n-1, 5) // a club's tournament has a few rounds
			for round := 1; round <= rounds; round++ {
				pairs, bye, err := PairRound(TournamentStandings(entrants, games, byes), meet)
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				seen := map[string]bool{}
				for _, p := range pairs {
					if meet(p[0], p[1]) {
						t.Fatalf("round %d: %s and %s meet again", round, p[0], p[1])
					}
					met[p] = true
					seen[p[0]], seen[p[1]] = true, true
					games = append(games, TournamentGame{Round: round, Winner: p[0], Loser: p[1], GamePoints: 2, Spread: 10})
				}
				if bye != "" {
					byes[bye]++
					seen[bye] = true
				}
				if len(seen) != n || (n%2 == 1) != (bye != "") {
					t.Fatalf("round %d: %d of %d entrants placed, bye %q", round, len(seen), n, bye)
				}
				most, fewest := 0, n
				for _, e := range entrants {
					most, fewest = max(most, byes[e]), min(fewest, byes[e])
				}
				if most > fewest+1 {
					t.Fatalf("round %d: byes from %d to %d", round, fewest, most)
				}
			}
		})
	}
}

// TestPairRoundFollowsTheStandings: the leader meets the next entrant
// they have not met; when the only way to pair the rest is to send the
// leader further down, the pairing backtracks.
func TestPairRoundFollowsTheStandings(t *testing.T) {
	standings := []TournamentStanding{{UserID: "a"}, {UserID: "b"}, {UserID: "c"}, {UserID: "d"}}
	met := func(pairs ...[2]string) func(a, b string) bool {
		return func(a, b string) bool {
			return slices.Contains(pairs, [2]string{a, b}) || slices.Contains(pairs, [2]string{b, a})
		}
	}
	for _, c := range []struct {
		name string
		met  func(a, b string) bool
		want [][2]string
		err  error
	}{
		{"a first round", met(), [][2]string{{"a", "b"}, {"c", "d"}}, nil},
		{"a and b have met", met([2]string{"a", "b"}), [][2]string{{"a", "c"}, {"b", "d"}}, nil},
		{"only a–d leaves b–c", met([2]string{"a", "b"}, [2]string{"a", "c"}), [][2]string{{"a", "d"}, {"b", "c"}}, nil},
		{"backtracking", met([2]string{"a", "b"}, [2]string{"b", "d"}), [][2]string{{"a", "d"}, {"b", "c"}}, nil},
		{"everyone has met", met([2]string{"a", "b"}, [2]string{"a", "c"}, [2]string{"a", "d"}), nil, ErrNoPairing},
	} {
		got, bye, err := PairRound(standings, c.met)
		if !errors.Is(err, c.err) || bye != "" || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, bye %q, %v; want %v", c.name, got, bye, err, c.want)
		}
	}
}

// TestTheTopQuarterQualifies, and a final at the least.
func TestTheTopQuarterQualifies(t *testing.T) {
	for n, want := range map[int]int{2: 2, 5: 2, 8: 2, 12: 3, 13: 3, 16: 4, 33: 8} {
		if got := Qualifiers(n); got != want {
			t.Errorf("Qualifiers(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestBracketSeeds: the best seeds meet the worst, byes go to the top
// seeds, and the first two seeds are in opposite halves.
func TestBracketSeeds(t *testing.T) {
	for _, c := range []struct {
		n    int
		want [][2]int
	}{
		{2, [][2]int{{0, 1}}},
		{3, [][2]int{{0, -1}, {1, 2}}},
		{4, [][2]int{{0, 3}, {1, 2}}},
		{5, [][2]int{{0, -1}, {3, 4}, {1, -1}, {2, -1}}},
		{8, [][2]int{{0, 7}, {3, 4}, {1, 6}, {2, 5}}},
	} {
		if got := Bracket(c.n); !slices.Equal(got, c.want) {
			t.Errorf("Bracket(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}

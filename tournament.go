package cribbage

import (
	"cmp"
	"errors"
	"slices"
)

// A tournament the ACC way (American Cribbage Congress): qualifying rounds
// paired Swiss-style, each pairing playing a few games, the standings kept
// by game points (a win 2, a skunk 3, a double skunk 4) then spread, and a
// seeded knock-out playoff for the top quarter. This file is the
// tournament's arithmetic — standings, pairings, the bracket — free of
// tables and time, so it can be tested alone; the tables a round opens are
// games like any other.

// TournamentGame is one finished qualifying game: the entrants who played
// it, the winner, what the win was worth in game points, and the winner's
// spread (their score minus the loser's; a game won by resignation or
// forfeit counts the scores as they stood).
type TournamentGame struct {
	Round      int
	Winner     string
	Loser      string
	GamePoints int
	Spread     int
}

// TournamentStanding is an entrant's place after the games so far.
type TournamentStanding struct {
	UserID     string
	Played     int
	Won        int
	GamePoints int
	Spread     int
	// Byes counts the rounds the entrant sat out for want of an opponent:
	// each is worth a win of 2 game points and no spread.
	Byes int
}

// ByeGamePoints is what a round's bye is worth: a plain win.
const ByeGamePoints = 2

// TournamentStandings ranks entrants by game points, then spread, then
// games won; entrants still level keep the order they signed up in, which
// is also how the first round is seeded. byes counts each entrant's byes.
func TournamentStandings(entrants []string, games []TournamentGame, byes map[string]int) []TournamentStanding {
	at := map[string]*TournamentStanding{}
	out := make([]TournamentStanding, len(entrants))
	for i, id := range entrants {
		out[i] = TournamentStanding{UserID: id, Byes: byes[id], GamePoints: ByeGamePoints * byes[id]}
		at[id] = &out[i]
	}
	for _, g := range games {
		if w, ok := at[g.Winner]; ok {
			w.Played++
			w.Won++
			w.GamePoints += g.GamePoints
			w.Spread += g.Spread
		}
		if l, ok := at[g.Loser]; ok {
			l.Played++
			l.Spread -= g.Spread
		}
	}
	slices.SortStableFunc(out, func(a, b TournamentStanding) int {
		return cmp.Or(cmp.Compare(b.GamePoints, a.GamePoints), cmp.Compare(b.Spread, a.Spread), cmp.Compare(b.Won+b.Byes, a.Won+a.Byes))
	})
	return out
}

// ErrNoPairing means no round can be paired without two entrants meeting
// again: the tournament has more rounds than its entrants have opponents.
var ErrNoPairing = errors.New("cribbage: every pairing of the round repeats a game")

// PairRound pairs the next qualifying round Swiss-style: down the
// standings, each entrant meets the highest-placed one below them they
// have not met yet, backtracking where that leaves someone without an
// opponent. With an odd number the bye goes to the lowest-placed entrant
// of those with the fewest byes whose bye leaves the rest pairable. met
// reports whether two entrants have met.
func PairRound(standings []TournamentStanding, met func(a, b string) bool) (pairs [][2]string, bye string, err error) {
	order := make([]string, len(standings))
	for i, s := range standings {
		order[i] = s.UserID
	}
	if len(order)%2 == 0 {
		if pairs, ok := pairFrom(order, met); ok {
			return pairs, "", nil
		}
		return nil, "", ErrNoPairing
	}
	// The bye's candidates, best first: the fewest byes, then the lowest
	// place. A later one is tried only if the rest cannot be paired.
	candidates := make([]int, len(standings))
	for i := range candidates {
		candidates[i] = len(standings) - 1 - i
	}
	slices.SortStableFunc(candidates, func(a, b int) int { return cmp.Compare(standings[a].Byes, standings[b].Byes) })
	for _, c := range candidates {
		if pairs, ok := pairFrom(slices.Delete(slices.Clone(order), c, c+1), met); ok {
			return pairs, order[c], nil
		}
	}
	return nil, "", ErrNoPairing
}

// pairFrom pairs order's first entrant with the first below them they have
// not met whose pairing leaves the rest pairable. Swiss fields are small
// (a server's club), so the search is quick; its depth is the field's
// size.
func pairFrom(order []string, met func(a, b string) bool) ([][2]string, bool) {
	if len(order) == 0 {
		return nil, true
	}
	first := order[0]
	for i := 1; i < len(order); i++ {
		if met(first, order[i]) {
			continue
		}
		rest := slices.Concat(order[1:i], order[i+1:])
		if pairs, ok := pairFrom(rest, met); ok {
			return append([][2]string{{first, order[i]}}, pairs...), true
		}
	}
	return nil, false
}

// Qualifiers is how many entrants reach the playoff: the top quarter of
// the field, rounded down, and never fewer than two (a final).
func Qualifiers(entrants int) int {
	return max(2, entrants/4)
}

// Bracket is the playoff's first round for n qualifiers, by seed (0 the
// best): the top seeds meet the bottom ones (1 v n, 2 v n−1, …), and where
// n is not a power of two the top seeds sit the first round out (a bye is
// a pairing whose second seed is −1), so that every later round is full.
// Pairings are listed in bracket order: the winners of pairings 2k and
// 2k+1 meet next, and seeds 1 and 2 can meet only in the final.
func Bracket(n int) [][2]int {
	size := 1
	for size < n {
		size *= 2
	}
	// Lay the seeds out so that each round's pairings of adjacent slots
	// keep the best seeds apart longest: [0 1] → [0 3 1 2] → [0 7 3 4 1 6 2 5].
	slots := []int{0}
	for len(slots) < size {
		m := 2 * len(slots)
		next := make([]int, 0, m)
		for _, s := range slots {
			next = append(next, s, m-1-s)
		}
		slots = next
	}
	out := make([][2]int, 0, size/2)
	for i := 0; i < size; i += 2 {
		a, b := slots[i], slots[i+1]
		if b >= n {
			b = -1
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

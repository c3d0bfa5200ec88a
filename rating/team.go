package rating

import "math"

// Team returns one rating that stands for a team when it is someone's
// opponent: the mean of the members' ratings, and the root mean square of
// their RDs. The mean says the team plays like its average member. The
// root mean square keeps the uncertainty of a typical member rather than
// the smaller RD of an average of independent estimates (RD/√2 for two
// newcomers): two strangers are still strangers, and a win against them
// should count for as little as a win against one. The volatility, which
// the algorithm never reads from an opponent, is the mean too.
//
// A team of one is that person. A team of none is the zero Rating, which
// is not valid.
func Team(members ...Rating) Rating {
	if len(members) == 0 {
		return Rating{}
	}
	if len(members) == 1 {
		return members[0]
	}
	var r, rd2, vol float64
	for _, m := range members {
		r += m.R
		rd2 += m.RD * m.RD
		vol += m.Volatility
	}
	n := float64(len(members))
	return Rating{R: r / n, RD: math.Sqrt(rd2 / n), Volatility: vol / n}
}

// Game rates a game between two people, each as one rating period: a's
// result is s and b's is 1 − s. Both are rated against the other's
// rating from before the game, as the paper's simultaneous update
// requires; rating b against a's new rating would count the game twice.
func Game(a, b Rating, s Score, cfg Config) (Rating, Rating) {
	return Update(a, []Result{{Opponent: b, Score: s}}, cfg),
		Update(b, []Result{{Opponent: a, Score: 1 - s}}, cfg)
}

// TeamGame rates a partners game between teams a and b, with team a's
// result s: each person is rated as if they alone had played the other
// team as one player (Team), from everyone's ratings before the game. It
// returns new slices in the order given and changes neither input. If
// either team is empty no game was played, and it returns copies of the
// ratings unchanged.
//
// This keeps Glicko-2 as the paper gives it, one ordinary game per person,
// at a price: it is blind to partners. A weak player with a strong partner
// takes full credit for their wins, and a strong player full blame for a
// weak partner's losses. With partners that change from game to game this
// evens out; two people who always play together move in step and are
// never told apart. A team model that shares credit by each member's
// uncertainty (OpenSkill, TrueSkill) would do better if partners games
// become a large part of the club's play.
func TeamGame(a, b []Rating, s Score, cfg Config) (newA, newB []Rating) {
	newA, newB = append([]Rating(nil), a...), append([]Rating(nil), b...)
	if len(a) == 0 || len(b) == 0 {
		return newA, newB
	}
	oppA, oppB := Team(b...), Team(a...)
	for i, p := range a {
		newA[i] = Update(p, []Result{{Opponent: oppA, Score: s}}, cfg)
	}
	for i, p := range b {
		newB[i] = Update(p, []Result{{Opponent: oppB, Score: 1 - s}}, cfg)
	}
	return newA, newB
}

// Bout is one contest of a rating period between two teams of players,
// named by key (a team of one is a person): Winners beat Losers.
type Bout[K comparable] struct {
	Winners []K
	Losers  []K
}

// RateBouts rates one period of bouts: each player is rated against the
// other team of each of their bouts taken as one player (Team), all their
// results in one Update, from everyone's ratings before the period
// (before holds one for each player). A single bout between two teams is
// TeamGame, and between two people Game. It returns the new ratings of
// the players in a bout, and changes nothing it is given.
func RateBouts[K comparable](before map[K]Rating, bouts []Bout[K], cfg Config) map[K]Rating {
	team := func(keys []K) Rating {
		members := make([]Rating, len(keys))
		for i, k := range keys {
			members[i] = before[k]
		}
		return Team(members...)
	}
	results := map[K][]Result{}
	add := func(k K, r Result) { results[k] = append(results[k], r) }
	for _, b := range bouts {
		if len(b.Winners) == 0 || len(b.Losers) == 0 {
			continue // no game was played
		}
		w, l := team(b.Winners), team(b.Losers)
		for _, k := range b.Winners {
			add(k, Result{Opponent: l, Score: Win})
		}
		for _, k := range b.Losers {
			add(k, Result{Opponent: w, Score: Loss})
		}
	}
	after := make(map[K]Rating, len(results))
	for k, rs := range results {
		after[k] = Update(before[k], rs, cfg)
	}
	return after
}

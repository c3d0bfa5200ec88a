package cribbage

import (
	"fmt"
	"slices"

	"github.com/cribbage-bot/cribbage/engine"
)

// Match play: a match is a series of games between the same two sides,
// best of 3 or 5, each game a table of its own seated alike, the deal
// passing on from one to the next (engine.Rematch). The first side to win
// a majority of the games wins the match. Each game also earns its winner
// game points as the American Cribbage Congress counts them, which a
// tournament's standings add up: the match itself is decided by games.

// MatchLengths are the matches a table may play: best of 3 or 5 games.
var MatchLengths = []int{3, 5}

// Match is the match a table's game belongs to, as it stood when the
// table's game ended (or, before that, when it began). Each game's table
// carries its own copy, so the table message can show the match score
// without looking further; the store also records every match game and
// every decided match for the records.
type Match struct {
	// ID is the match's first game's table; 0 until that table has its
	// id (a first game a change opens gets it as it is saved: AssignID).
	ID int64 `json:"id"`
	// BestOf is 3 or 5.
	BestOf int `json:"best_of"`
	// Game numbers this table's game in the match, from 1.
	Game int `json:"game"`
	// Games are the match's finished games, in order: this table's among
	// them once it is over.
	Games []MatchGame `json:"games,omitempty"`
	// Conceded is set when the side that lost the last game gave up the
	// whole match with it: it resigned the match, or forfeited the game.
	Conceded bool `json:"conceded,omitempty"`
}

// MatchGame is one finished game of a match.
type MatchGame struct {
	Table  int64               `json:"table"`
	Winner int                 `json:"winner"`
	Reason engine.ResultReason `json:"reason"`
	// Points are the game points the win earned (GamePoints), kept as
	// counted when the game ended.
	Points int `json:"points"`
	// Skunk is the loser's skunk level: 0, 1 (skunk) or 2 (double skunk).
	Skunk int `json:"skunk,omitempty"`
}

// NewMatch returns the first game's match of a best-of-bestOf match at a
// table of options o. A match is between two sides, two players or two
// partnerships (ErrMatchSides), of 3 or 5 games (ErrMatchLength).
func NewMatch(bestOf int, o engine.Options) (*Match, error) {
	if !slices.Contains(MatchLengths, bestOf) {
		return nil, fmt.Errorf("%w: best of %d", ErrMatchLength, bestOf)
	}
	if o.Sides() != 2 {
		return nil, fmt.Errorf("%w: %d sides", ErrMatchSides, o.Sides())
	}
	return &Match{BestOf: bestOf, Game: 1}, nil
}

// GamePoints are the game points a finished game earns its winner, as the
// American Cribbage Congress counts them: a win is 2, a skunk 3 and a
// double skunk 4. A double skunk exists only where the game has its line
// (RULES.md "Winning": the 61-point game has a skunk line only), so at 61
// points the most is 3. A resigned or forfeited game is a plain win of 2:
// the engine never counts a skunk for it (README "Rules decisions"),
// whatever the score stood at.
func GamePoints(r *engine.Result) int {
	return 2 + skunkOf(r)
}

// skunkOf is the deepest skunk the winner gave.
func skunkOf(r *engine.Result) int {
	deepest := 0
	for side, level := range r.Skunks {
		if side != r.Winner {
			deepest = max(deepest, level)
		}
	}
	return deepest
}

// Needed is how many games win the match: a majority of BestOf.
func (m *Match) Needed() int { return m.BestOf/2 + 1 }

// Wins returns the games each side has won.
func (m *Match) Wins() [2]int {
	var w [2]int
	for _, g := range m.Games {
		w[g.Winner]++
	}
	return w
}

// Points returns each side's game points.
func (m *Match) Points() [2]int {
	var p [2]int
	for _, g := range m.Games {
		p[g.Winner] += g.Points
	}
	return p
}

// Winner returns the side that won the match, or -1 while it is on.
func (m *Match) Winner() int {
	if len(m.Games) == 0 {
		return -1
	}
	if m.Conceded {
		return m.Games[len(m.Games)-1].Winner
	}
	for side, w := range m.Wins() {
		if w >= m.Needed() {
			return side
		}
	}
	return -1
}

// Over reports whether the match is decided.
func (m *Match) Over() bool { return m.Winner() >= 0 }

// record adds the finished game at table to the match. A forfeit ends the
// match: a side that kept the table waiting past the forfeit time is
// taken to have left it (README "Matches").
func (m *Match) record(table int64, r *engine.Result) {
	m.Games = append(m.Games, MatchGame{Table: table, Winner: r.Winner, Reason: r.Reason, Points: GamePoints(r), Skunk: skunkOf(r)})
	if r.Reason == engine.ReasonForfeit {
		m.Conceded = true
	}
}

// next returns the match as the next game begins it.
func (m *Match) next() *Match {
	n := m.Clone()
	n.Game = len(m.Games) + 1
	return n
}

// Clone returns a copy of the match that shares nothing with it.
func (m *Match) Clone() *Match {
	if m == nil {
		return nil
	}
	c := *m
	c.Games = slices.Clone(m.Games)
	return &c
}

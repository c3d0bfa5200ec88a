// Package ai holds the computer players and the coach. A computer player
// sees a game only through its seat's engine.View, and decides the same way
// every time for the same view and seed: any randomness a level uses comes
// from the seed.
package ai

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/cribbage-bot/cribbage/engine"
)

// Level is how a computer player plays.
type Level string

// The levels. Random and Greedy are baselines for measuring the others.
const (
	// Easy keeps a good-looking hand, ignores the crib, and takes points
	// in the play when it sees them: beatable by a beginner.
	Easy Level = "easy"
	// Expert values every discard exactly (hand and crib over every
	// starter and unseen card) with what the kept cards are worth in the
	// play, and searches the play to its end against the hands the others
	// are likely to hold.
	Expert Level = "expert"
	// Classic is the expert as it was first built, the baseline the
	// expert is measured against: exact discards without the play, and
	// plays that look one reply ahead.
	Classic Level = "classic"
	// Greedy keeps the best hand ignoring the crib and plays whatever
	// scores most now.
	Greedy Level = "greedy"
	// Random makes random legal moves.
	Random Level = "random"
)

// ErrUnknownLevel is returned by ParseLevel.
var ErrUnknownLevel = errors.New("ai: unknown level")

// ParseLevel reads a level's name.
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Easy, Expert, Classic, Greedy, Random:
		return l, nil
	}
	return "", fmt.Errorf("%w %q (easy, expert, classic, greedy, random)", ErrUnknownLevel, s)
}

// Decide returns the action a computer player of level takes for its seat,
// and false when the game is not waiting on that seat for a decision it
// makes (dealing is the table's: its seed must not come from a player).
func Decide(level Level, v engine.View, seed uint64) (engine.Action, bool) {
	rng := rand.New(rand.NewPCG(seed, 0x6372696262616765)) // "cribbage"
	switch {
	case v.Phase == engine.PhaseDiscard && !v.Discarded[v.Seat]:
		return engine.Action{Kind: engine.ActDiscard, Seat: v.Seat, Cards: chooseDiscard(level, v, rng)}, true
	case v.Phase == engine.PhasePlay && v.Turn == v.Seat && len(v.Legal) > 0:
		return engine.Action{Kind: engine.ActPlay, Seat: v.Seat, Card: choosePlay(level, v, rng)}, true
	case v.Phase == engine.PhaseShow && v.Turn == v.Seat:
		// Computers count honestly.
		return engine.Action{Kind: engine.ActClaim, Seat: v.Seat, Points: trueCount(v)}, true
	}
	return engine.Action{}, false
}

// Muggins is the muggins a computer player in v's seat calls: the first
// points an opponent missed in the show and nobody has taken, if any.
// Computers never let missed points go (RULES.md "Counting by hand").
func Muggins(v engine.View) (engine.Action, bool) {
	if !v.Options.Muggins || (v.Phase != engine.PhaseShow && v.Phase != engine.PhaseDeal) {
		return engine.Action{}, false
	}
	for i, m := range v.Missed {
		if !m.Taken && v.Options.SideOf(m.Seat) != v.Options.SideOf(v.Seat) {
			return engine.Action{Kind: engine.ActMuggins, Seat: v.Seat, Index: i}, true
		}
	}
	return engine.Action{}, false
}

// trueCount is the score of what the seat counts now: its hand or its crib.
func trueCount(v engine.View) int {
	if v.Crib != 0 {
		return engine.ScoreShow(v.Crib.Cards(), v.Starter, true).Total
	}
	return engine.ScoreShow(v.Hand.Cards(), v.Starter, false).Total
}

package cribbage

import (
	"crypto/rand"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// Seeds draws the seed of each cut for deal and each deal. In play it is
// RandomSeed; tests give a fixed sequence so deals are the same every run.
type Seeds func() engine.Seed

// RandomSeed draws a seed from crypto/rand (RULES.md "Cards").
func RandomSeed() engine.Seed {
	var s engine.Seed
	if _, err := rand.Read(s[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err))
	}
	return s
}

// maxOwnMoves bounds the moves a table makes by itself in one go: a whole
// hand of computer players is far fewer, so more means a bug, not a game.
const maxOwnMoves = 500

// Advance applies the moves the table makes by itself after g, appending
// them to actions and their events to events: the computer players' moves,
// and dealing the next hand — unless a person deals it, so that muggins can
// still be called before it (RULES.md "Counting by hand").
func Advance(t *Table, g *engine.State, seeds Seeds, actions []LoggedAction, events []engine.Event) (*engine.State, []LoggedAction, []engine.Event, error) {
	for steps := 0; g.Phase != engine.PhaseOver && steps < maxOwnMoves; steps++ {
		a, ok := ownMove(t, g, seeds)
		if !ok {
			break
		}
		next, evs, err := g.Apply(a)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("cribbage: the table's own move %v: %w", a, err)
		}
		g, actions, events = next, append(actions, LoggedAction{Action: a}), append(events, evs...)
	}
	return g, actions, events, nil
}

// ownMove is the next move the table makes without a person, if any. A
// computer calls muggins first: a person's missed points are taken before
// anything else happens, as an attentive opponent would.
func ownMove(t *Table, g *engine.State, seeds Seeds) (engine.Action, bool) {
	for seat, s := range t.Seats {
		if s.Computer == "" || len(g.Missed) == 0 {
			continue // only a show with missed points has muggins to call
		}
		if a, ok := ai.Muggins(g.ViewFor(seat)); ok {
			return a, true
		}
	}
	if g.Phase == engine.PhaseDeal {
		if t.Options.Muggins && t.Seats[g.Dealer].Computer == "" {
			return engine.Action{}, false
		}
		seed := seeds()
		return engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}, true
	}
	for _, seat := range g.Waiting() {
		level, err := ai.ParseLevel(t.Seats[seat].Computer)
		if err != nil {
			continue // a person
		}
		if a, ok := ai.Decide(level, g.ViewFor(seat), decisionSeed(t.ID, g, seat)); ok {
			return a, true
		}
	}
	return engine.Action{}, false
}

// decisionSeed is the seed of a computer's decision: fixed by the table and
// the point of the game, so a replayed game decides the same way.
func decisionSeed(table int64, g *engine.State, seat int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d/%d/%d", table, g.HandNo, len(g.Plays), g.Shown, seat)
	return h.Sum64()
}

// Waiting returns the seats the game waits on: those still to throw to
// the crib, whoever is to play or count, or the dealer to deal.
func (t *Table) Waiting() []int {
	g := t.State
	if t.Status != StatusPlaying || g == nil {
		return nil
	}
	switch g.Phase {
	case engine.PhaseDiscard:
		return g.Waiting()
	case engine.PhasePlay, engine.PhaseShow:
		return []int{g.Turn}
	case engine.PhaseDeal:
		return []int{g.Dealer}
	}
	return nil
}

// SetGame records g as the table's game after a move made at now: the
// table is finished when the game is over, and the wait restarts for a
// seat that was not waiting before (both players throw to the crib from
// the deal on: one's discard does not restart the other's wait).
func (t *Table) SetGame(g *engine.State, now time.Time) {
	before := t.Waiting()
	t.State = g
	if g.Phase == engine.PhaseOver {
		t.Status = StatusFinished
	}
	for _, s := range t.Waiting() {
		if !slices.Contains(before, s) {
			t.WaitingSince = now
			break
		}
	}
}

package cribbage

import (
	"crypto/rand"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// This file is everything a move does to a table's game: a player's action
// (Move), the start of a game (Start, StartRematch), and what the table
// then does by itself (Continue) all end in settle (or, for a table a
// change opens, begin), which lets the computer players and the dealing
// run, records the game on the table and words the announcements. The bot
// only parses the click before and shows the change after; the store
// saves the Change in one transaction (and, for a game that ended,
// derives its records for the leaderboard). A lobby's changes, which end
// in Start when the seats fill, are lobby.go's.

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

// Computers decides for the computer players, by the name of their level
// (Seat.Computer). How a computer thinks is engine/ai's business; the
// domain only asks, so that it, the store and their tests do not carry
// the computer's tables.
type Computers interface {
	// Decide returns the action a computer player of level takes in view
	// v's seat, any chance drawn from seed, and false when the game does
	// not wait on that seat for a decision (or the level is unknown).
	Decide(level string, v engine.View, seed uint64) (engine.Action, bool)
	// Muggins returns the muggins a computer player of level in view v's
	// seat calls, if any.
	Muggins(level string, v engine.View) (engine.Action, bool)
	// Name is what a computer player of level taking seat is called.
	Name(level string, seat int) string
}

// Env is what a move takes from outside the game: the time, the seeds of
// deals and the computer players. What happened comes back as data (the
// change and its events) for the caller to word: the domain calls nothing
// of the bot's.
type Env struct {
	Now       time.Time
	Seeds     Seeds
	Computers Computers
}

// Move applies action a, made by the person in seat a.Seat, to the table's
// game and lets the table run on from there (settle). It returns the
// change to save and every event of the move, the table's own moves
// after it included; t is changed in place. A table not playing fails with
// ErrNotPlaying, a seat no person holds with ErrNotSeated, and a move the
// rules refuse with the engine's error.
func Move(t *Table, a engine.Action, env Env) (*Change, []engine.Event, error) {
	return move(t, a, false, env)
}

// ResignMatch is seat's resignation of the whole match with its game: the
// game is resigned as Move resigns it, and the match goes to the other
// side whatever its score. A game of its own fails with ErrNoMatch.
func ResignMatch(t *Table, seat int, env Env) (*Change, []engine.Event, error) {
	if t.Match == nil {
		return nil, nil, ErrNoMatch
	}
	return move(t, engine.Action{Kind: engine.ActResign, Seat: seat}, true, env)
}

// move is Move; concede gives up the match with the game.
func move(t *Table, a engine.Action, concede bool, env Env) (*Change, []engine.Event, error) {
	if t.Status != StatusPlaying || t.State == nil {
		return nil, nil, ErrNotPlaying
	}
	if a.Seat < 0 || a.Seat >= len(t.Seats) || t.Seats[a.Seat].Computer != "" {
		return nil, nil, ErrNotSeated
	}
	g, events, err := t.State.Apply(a)
	if err != nil {
		return nil, nil, err
	}
	if concede {
		t.Match.Conceded = true
	}
	return settle(t, g, []LoggedAction{{UserID: t.Seats[a.Seat].UserID, Action: a}}, events, env)
}

// Start starts the game at a lobby whose seats are all taken: the cut for
// deal from a fresh seed, then the first deal, and the computer players'
// moves after it.
func Start(t *Table, env Env) (*Change, []engine.Event, error) {
	g, events, err := cut(t, env)
	if err != nil {
		return nil, nil, err
	}
	if t.Match != nil && t.Match.ID == 0 {
		t.Match.ID = t.ID // a match is known by its first game
	}
	return settle(t, g, nil, events, env)
}

// cut draws the cut for deal of t's game from a fresh seed: the game as it
// stands before the first deal.
func cut(t *Table, env Env) (*engine.State, []engine.Event, error) {
	seed := env.Seeds()
	g, events, err := engine.New(t.Options, seed)
	if err != nil {
		return nil, nil, err
	}
	t.Status, t.CutSeed = StatusPlaying, &seed
	return g, events, nil
}

// StartRematch begins next, a new table seated as prev, with the game that
// follows prev's: the deal passes on, as it does after every hand
// (RULES.md "Tables"; engine.Rematch). Like every table a change opens, it
// is begun, not played (see begin): its computer players move once it is
// saved, through Continue.
func StartRematch(prev, next *Table, env Env) (*Change, []engine.Event, error) {
	g, err := engine.Rematch(prev.State)
	if err != nil {
		return nil, nil, err
	}
	next.Status = StatusPlaying
	return begin(next, g, nil, env)
}

// Continue makes the moves the table makes by itself now, if any: a table
// just opened by another's change (its computer players' first moves),
// after a restart, or when a timer finds a computer's move or a deal
// waiting. A nil change means there is none.
func Continue(t *Table, env Env) (*Change, []engine.Event, error) {
	if t.Status != StatusPlaying || t.State == nil {
		return nil, nil, nil
	}
	ch, events, err := settle(t, t.State, nil, nil, env)
	if err != nil || len(ch.Actions) == 0 {
		return nil, nil, err
	}
	return ch, events, nil
}

// maxOwnMoves bounds the moves a table makes by itself in one go: a whole
// hand of computer players is far fewer, so more means a bug, not a game.
const maxOwnMoves = 500

// settle finishes a change from game g: it applies the moves the table
// makes by itself after g (the computer players' moves, and dealing the
// next hand unless a person deals it, so that muggins can still be called
// before it: RULES.md "Counting by hand"), records the game on t (and on
// its match, whose next game it begins if the match goes on), and words
// the announcements of everything that happened.
func settle(t *Table, g *engine.State, actions []LoggedAction, events []engine.Event, env Env) (*Change, []engine.Event, error) {
	return run(t, g, actions, events, env, true)
}

// begin is settle for a new table, not yet saved, which a change opens (a
// rematch, a match's next game, a tournament's game): it deals, unless a
// person deals, but no computer player decides. Their decisions are
// Continue's, once the table is saved: the table is written in the
// transaction of the change that opens it, and a game between computer
// players, searched move by move, must not be played while that
// transaction holds the database's writer. Its decisions are seeded by
// the table's id, too, which it has only then.
func begin(t *Table, g *engine.State, events []engine.Event, env Env) (*Change, []engine.Event, error) {
	return run(t, g, nil, events, env, false)
}

// run is settle, and begin when decide is false: the computer players then
// make no move.
func run(t *Table, g *engine.State, actions []LoggedAction, events []engine.Event, env Env, decide bool) (*Change, []engine.Event, error) {
	for steps := 0; g.Phase != engine.PhaseOver && steps < maxOwnMoves; steps++ {
		a, ok := ownMove(t, g, env, decide)
		if !ok {
			break
		}
		next, evs, err := g.Apply(a)
		if err != nil {
			return nil, nil, fmt.Errorf("cribbage: the table's own move %v: %w", a, err)
		}
		g, actions, events = next, append(actions, LoggedAction{Action: a}), append(events, evs...)
	}
	t.SetGame(g, env.Now)
	ch := &Change{Table: t, Actions: actions}
	if g.Phase == engine.PhaseOver && t.Match != nil {
		t.Match.record(t.ID, g.Result)
		if !t.Match.Over() {
			next, err := startNext(t, t.HostID, env)
			if err != nil {
				return nil, nil, err
			}
			ch.Next = next
		}
	}
	ch.Events = events
	return ch, events, nil
}

// ownMove is the next move the table makes without a person, if any; with
// decide false, only a deal. A computer calls muggins first: a person's
// missed points are taken before anything else happens, as an attentive
// opponent would.
func ownMove(t *Table, g *engine.State, env Env, decide bool) (engine.Action, bool) {
	for seat, s := range t.Seats {
		if !decide || s.Computer == "" || len(g.Missed) == 0 {
			continue // only a show with missed points has muggins to call
		}
		if a, ok := env.Computers.Muggins(s.Computer, g.ViewFor(seat)); ok {
			return a, true
		}
	}
	if g.Phase == engine.PhaseDeal {
		if !botDeals(t, g) {
			return engine.Action{}, false
		}
		seed := env.Seeds()
		return engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}, true
	}
	for _, seat := range g.Waiting() {
		level := t.Seats[seat].Computer
		if level == "" || !decide {
			continue // a person, or a table not yet saved
		}
		if a, ok := env.Computers.Decide(level, g.ViewFor(seat), decisionSeed(t.ID, g, seat)); ok {
			return a, true
		}
	}
	return engine.Action{}, false
}

// botDeals reports whether the table deals g's next hand itself: always,
// but at a muggins table where a person deals.
func botDeals(t *Table, g *engine.State) bool {
	return !t.Options.Muggins || t.Seats[g.Dealer].Computer != ""
}

// OwnMove reports whether the table's game waits on a move the table makes
// by itself (Continue): a computer player's decision, or a deal no person
// makes. A table a change opened waits so until it is continued.
func (t *Table) OwnMove() bool {
	g := t.State
	if t.Status != StatusPlaying || g == nil || g.Phase == engine.PhaseOver {
		return false
	}
	if g.Phase == engine.PhaseDeal {
		return botDeals(t, g)
	}
	for _, seat := range g.Waiting() {
		if t.Seats[seat].Computer != "" {
			return true
		}
	}
	return false
}

// decisionSeed is the seed of a computer's decision: fixed by the table and
// the point of the game, so a replayed game decides the same way.
func decisionSeed(table int64, g *engine.State, seat int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d/%d/%d", table, g.HandNo, len(g.Plays), g.Shown, seat)
	return h.Sum64()
}

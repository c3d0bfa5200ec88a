package ai

import (
	"fmt"

	"github.com/cribbage-bot/cribbage/engine"
)

// Players is the computer players as a table seats them: by the name of
// their level. It is what the domain's cribbage.Computers asks for, so the
// domain never imports this package and its tables.
type Players struct{}

// Decide is Decide for the level named level; a name that is no level
// decides nothing.
func (Players) Decide(level string, v engine.View, seed uint64) (engine.Action, bool) {
	l, err := ParseLevel(level)
	if err != nil {
		return engine.Action{}, false
	}
	return Decide(l, v, seed)
}

// Muggins is Muggins: every level calls it the same way.
func (Players) Muggins(level string, v engine.View) (engine.Action, bool) {
	if _, err := ParseLevel(level); err != nil {
		return engine.Action{}, false
	}
	return Muggins(v)
}

// Name is what a computer player of level is called in seat:
// "Computer 2 (strong)". Players call the expert strong.
func (Players) Name(level string, seat int) string {
	return fmt.Sprintf("Computer %d (%s)", seat+1, Label(level))
}

// Label is what players call a level: the expert is strong, and the other
// levels go by their names.
func Label(level string) string {
	if level == string(Expert) {
		return "strong"
	}
	return level
}

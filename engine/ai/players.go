package ai

import "github.com/cribbage-bot/cribbage/engine"

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

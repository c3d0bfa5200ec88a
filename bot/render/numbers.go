package render

import (
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

// A player's milestones, named in their stats (bot/club) and announced in
// the table's story when earned. Each milestone's name is the catalogue's
// "milestone.<id>", and what earns it "milestone.<id>.what".

// milestoneArgs are the figures a milestone's words may name.
var milestoneArgs = []any{"Pegging", cribbage.BigPeggingPoints, "Comeback", cribbage.ComebackPoints}

// HasWords reports whether l names milestone m: the tests hold every
// milestone to it.
func HasWords(l lang.Lang, m cribbage.Milestone) bool {
	key := "milestone." + string(m)
	return l.T(key) != key && l.T(key+".what", milestoneArgs...) != key+".what"
}

// MilestoneName is what l's players call a milestone.
func MilestoneName(l lang.Lang, m cribbage.Milestone) string {
	key := "milestone." + string(m)
	if w := l.T(key); w != key {
		return w
	}
	return string(m)
}

// MilestoneLine is a milestone's news in the table's story, in l.
func MilestoneLine(l lang.Lang, e cribbage.Earned) string {
	key := "milestone." + string(e.Milestone)
	if !HasWords(l, e.Milestone) {
		return l.T("milestone.earned-id", "Name", e.Name, "ID", string(e.Milestone))
	}
	return l.T("milestone.earned", "Name", e.Name, "Milestone", l.T(key), "What", l.T(key+".what", milestoneArgs...))
}

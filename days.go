package cribbage

import (
	"fmt"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// The rules of games played over days that are the domain's, not the
// engine's (which has no clock): when a silent table's win may be claimed,
// and from whom. A person claims it (the bot's Claim the win), and so does
// a tournament's computer entrant (ComputerClaim), by the same rule.

// ForfeitDue reports whether table t, at now, has waited long enough for
// the win to be claimed, with forfeits after after (0: never). Only a game
// being played waits: a lobby closes instead (LobbyLife).
func (t *Table) ForfeitDue(now time.Time, after time.Duration) bool {
	return after > 0 && t.Status == StatusPlaying && now.Sub(t.Since()) >= after
}

// LateSeat returns the seat the player at claimer may claim the win from
// (engine.ActForfeit's Other): the first seat the game waits on, or -1 if
// it waits on nobody. A side the table waits on itself claims nothing:
// engine.ErrClaimerWaited, which the engine would refuse too, but said
// first it is the reason the claimer can act on.
func (t *Table) LateSeat(claimer int) (int, error) {
	if t.State == nil {
		return -1, nil
	}
	late := -1
	for _, w := range t.State.Waiting() {
		if t.Options.SideOf(w) == t.Options.SideOf(claimer) {
			return -1, fmt.Errorf("%w: seat %d", engine.ErrClaimerWaited, w)
		}
		if late < 0 {
			late = w
		}
	}
	return late, nil
}

package live

import (
	"testing"

	"github.com/cribbage-bot/cribbage"
)

// TestAnOlderAnswerLandingLastIsShownAgain: a player's click is answered
// with the view of version 13 after a live edit of version 14 (another
// player's move) has landed on the same view: the view shows 13 now, so
// the next pass must edit it to 14, not take it for current. (Two players
// throwing at once left a held view saying "Waiting for Bob to throw" on
// its player's turn to play, until Refresh.)
func TestAnOlderAnswerLandingLastIsShownAgain(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	l.writing(k, cribbage.MessageToken{Token: "t", MessageID: "m"})
	l.wrote(k, 14, "v14", true)
	l.answered(k, 13, "v13")
	if l.viewCurrent(k, 0, 14) {
		t.Error("the view is taken for showing version 14 after an answer of 13 landed last")
	}
	// A newer answer still counts as shown.
	l.answered(k, 15, "v15")
	if !l.viewCurrent(k, 0, 15) {
		t.Error("an answer of version 15 is not taken for showing it")
	}
}

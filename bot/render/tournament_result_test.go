package render

import (
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
)

// TestGameStateSaysHowAGameWasWon: a game won by resignation or forfeit
// says so beside its score, which otherwise reads as a game nobody played.
func TestGameStateSaysHowAGameWasWon(t *testing.T) {
	for _, c := range []struct {
		reason engine.ResultReason
		scores []int
		want   string
	}{
		{engine.ReasonTarget, []int{121, 95}, "table 7: Ann won 121–95 (2 GP)"},
		{engine.ReasonResigned, []int{0, 0}, "table 7: Ann won 0–0, by resignation (2 GP)"},
		{engine.ReasonForfeit, []int{40, 52}, "table 7: Ann won 40–52, by forfeit (2 GP)"},
	} {
		tb := &cribbage.Table{ID: 7, Status: cribbage.StatusFinished, Seats: []cribbage.Seat{{Name: "Ann"}, {Name: "Bob"}},
			State: &engine.State{Result: &engine.Result{Reason: c.reason, Winner: 0, Loser: 1, Scores: c.scores, Skunks: []int{0, 0}, Games: 1}}}
		if got := GameState(lang.English, tb); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q", c.reason, got, c.want)
		}
	}
}

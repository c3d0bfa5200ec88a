package replay

import (
	"slices"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// TestHandsPlaysTheLogAgain plays whole computer games, one cut for
// deal and one started as a rematch is (no cut, a given first dealer), and
// checks the replay finds every hand, dealt as its seed deals, with the
// game's final scores after the last.
func TestHandsPlaysTheLogAgain(t *testing.T) {
	seeds := func() cribbage.Seeds {
		n := uint64(0)
		return func() engine.Seed { n++; return engine.SeedFromUint64(n) }
	}
	env := cribbage.Env{Seeds: seeds(), Computers: ai.Players{}}
	var prev *cribbage.Table
	for _, rematch := range []bool{false, true} {
		opts := engine.Options{Players: 3, Target: 61}
		tb := &cribbage.Table{ID: 7, Options: opts, Status: cribbage.StatusLobby,
			Seats: []cribbage.Seat{{Name: "A", Computer: "easy"}, {Name: "B", Computer: "easy"}, {Name: "C", Computer: "easy"}}}
		var ch *cribbage.Change
		var err error
		if rematch {
			ch, _, err = cribbage.StartRematch(prev, tb, env)
		} else {
			ch, _, err = cribbage.Start(tb, env)
		}
		var actions []cribbage.LoggedAction
		for ch != nil && err == nil {
			actions = append(actions, ch.Actions...)
			ch, _, err = cribbage.Continue(tb, env)
		}
		if err != nil {
			t.Fatal(err)
		}
		g := tb.State
		if g.Phase != engine.PhaseOver {
			t.Fatalf("rematch %v: the game stopped in phase %v", rematch, g.Phase)
		}
		prev = tb
		hands, err := Hands(lang.English, tb, actions)
		if err != nil {
			t.Fatal(err)
		}
		if len(hands) != g.HandNo {
			t.Fatalf("rematch %v: %d hands replayed of %d", rematch, len(hands), g.HandNo)
		}
		deals := 0
		for _, la := range actions {
			if la.Action.Kind != engine.ActDeal {
				continue
			}
			h := hands[deals]
			d := engine.Deal(*la.Action.Seed, 3)
			for i, cards := range d.Hands {
				if seat := (h.dealer + 1 + i) % 3; h.dealt[seat] != cards {
					t.Errorf("hand %d: seat %d dealt %s, its seed deals %s", h.no, seat, h.dealt[seat], cards)
				}
			}
			deals++
		}
		last := hands[len(hands)-1]
		if !slices.Equal(last.scores, g.Scores) || last.result == nil {
			t.Errorf("rematch %v: the last hand ends at %v, the game at %v", rematch, last.scores, g.Scores)
		}
		if r := Page(lang.English, tb, hands, len(hands)); len(r.Files) != 2 || len(r.Embeds) != 2 {
			t.Errorf("the last page: %d files, %d embeds", len(r.Files), len(r.Embeds))
		}
	}
}

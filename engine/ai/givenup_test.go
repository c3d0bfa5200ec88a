package ai

import (
	"math"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestGivenUp: the best throw gives up nothing, any other what Splits
// says it is worth less, and a throw of cards not dealt is refused.
func TestGivenUp(t *testing.T) {
	opts := engine.Options{Players: 2, Target: 121}
	dealt := engine.SetOf(engine.MustParseCards("5H 5D JC QS 2C 9D")...)
	splits := Splits(opts, 0, 1, dealt)
	best, worst := splits[0], splits[len(splits)-1]
	if got, ok := GivenUp(opts, 0, 1, dealt, engine.SetOf(best.Throw...)); !ok || got != 0 {
		t.Errorf("the best throw gives up %v, %v", got, ok)
	}
	got, ok := GivenUp(opts, 0, 1, dealt, engine.SetOf(worst.Throw...))
	if want := best.Total - worst.Total; !ok || math.Abs(got-want) > 1e-9 || got <= 0 {
		t.Errorf("the worst throw gives up %v, want %v", got, want)
	}
	// Throwing both fives into the other's crib is a known mistake.
	fives, _ := GivenUp(opts, 0, 1, dealt, engine.SetOf(engine.MustParseCards("5H 5D")...))
	if fives < 3 {
		t.Errorf("throwing two fives to the other's crib gives up %.2f, want a lot", fives)
	}
	if _, ok := GivenUp(opts, 0, 1, dealt, engine.SetOf(engine.MustParseCards("AS 2S")...)); ok {
		t.Error("a throw of cards not dealt was reviewed")
	}
}

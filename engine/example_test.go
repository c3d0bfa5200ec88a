package engine_test

import (
	"fmt"

	"github.com/cribbage-bot/cribbage/engine"
)

func ExampleScoreShow() {
	hand := engine.MustParseCards("5H 5D 5C JS")
	b := engine.ScoreShow(hand, engine.MustParseCard("5S"), false)
	fmt.Println(b.Total)
	fmt.Println(engine.ScoreShow(engine.MustParseCards("3H 4D 4C 5S"), engine.MustParseCard("KC"), false).Spoken())
	// Output:
	// 29
	// fifteen two and a double run of three is ten
}

func ExampleState_Apply() {
	g, _, _ := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(1))
	seed := engine.SeedFromUint64(2) // real games draw seeds from crypto/rand
	g, events, err := g.Apply(engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed})
	fmt.Println(events[0].Kind, err, g.Phase)
	_, _, err = g.Apply(engine.Action{Kind: engine.ActPlay, Seat: 0, Card: engine.MustParseCard("AS")})
	fmt.Println(err)
	// Output:
	// deal <nil> discard
	// engine: not allowed in this phase: playing in the discard
}

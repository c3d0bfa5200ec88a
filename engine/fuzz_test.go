package engine

import (
	"encoding/json"
	"errors"
	"testing"
)

// fuzzTables are the tables the fuzzers pick from.
var fuzzTables = []Options{
	{Players: 2, Target: 121},
	{Players: 2, Target: 61},
	{Players: 3, Target: 121},
	{Players: 4, Target: 61},
	{Players: 4, Partners: true, Target: 61},
	{Players: 2, Target: 61, ManualCounting: true},
	{Players: 3, Target: 61, ManualCounting: true, Muggins: true},
	{Players: 4, Partners: true, Target: 61, ManualCounting: true, Muggins: true},
}

// candidateActions lists actions worth trying now: every legal one and
// plenty of illegal ones (wrong seat, wrong card, wrong phase).
func candidateActions(g *State, seed Seed) []Action {
	n := g.Options.Players
	var out []Action
	for seat := 0; seat < n; seat++ {
		out = append(out,
			Action{Kind: ActDeal, Seat: seat, Seed: &seed},
			Action{Kind: ActResign, Seat: seat},
			Action{Kind: ActForfeit, Seat: seat, Other: (seat + 1) % n},
			Action{Kind: ActMuggins, Seat: seat, Index: 0},
			Action{Kind: ActClaim, Seat: seat, Points: 0},
		)
		hand := g.Hands[seat].Cards()
		for i, c := range hand {
			out = append(out, Action{Kind: ActPlay, Seat: seat, Card: c})
			if i+1 < len(hand) {
				out = append(out, Action{Kind: ActDiscard, Seat: seat, Cards: hand[i : i+g.Options.DiscardSize()]})
			}
			out = append(out, Action{Kind: ActDiscard, Seat: seat, Cards: []Card{c}})
		}
	}
	if g.Phase == PhaseShow {
		seat, crib := g.ShowOrder(g.Shown)
		truth := g.countShow(seat, crib).Total
		out = append(out, Action{Kind: ActClaim, Seat: seat, Points: truth}, Action{Kind: ActClaim, Seat: seat, Points: truth + 2})
	}
	out = append(out, Action{Kind: ActPlay, Seat: 0, Card: NoCard}, Action{Kind: 0, Seat: 0}, Action{Kind: ActPlay, Seat: -1})
	return out
}

// FuzzApply plays random sequences of legal and illegal actions: nothing
// panics, invariants always hold, scores never go down and a refused action
// leaves the state as it was.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 255, 128, 64, 32, 16, 8, 4, 2, 1, 0, 9, 9, 9})
	f.Add([]byte{7, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) == 0 {
			return
		}
		opts := fuzzTables[int(script[0])%len(fuzzTables)]
		g, _, err := New(opts, SeedFromUint64(uint64(len(script))))
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range script[1:] {
			seed := SeedFromUint64(uint64(i) * 7919)
			var a Action
			if b < 160 {
				// Mostly the legal move, so games get deep.
				if g.Phase == PhaseOver {
					return
				}
				a = firstLegal(g, func() Seed { return seed })
				if g.Phase == PhasePlay && int(b)%3 == 1 {
					legal := g.LegalPlays(g.Turn)
					a.Card = legal[int(b)%len(legal)]
				}
			} else {
				cands := candidateActions(g, seed)
				a = cands[int(b)%len(cands)]
			}
			before, _ := json.Marshal(g)
			next, _, err := g.Apply(a)
			if err != nil {
				if after, _ := json.Marshal(g); string(after) != string(before) || next != g {
					t.Fatalf("refused %v changed the state", a)
				}
				if errors.Is(err, ErrBadState) {
					t.Fatalf("refused %v with %v", a, err)
				}
				continue
			}
			if err := next.Validate(); err != nil {
				t.Fatalf("after %v: %v", a, err)
			}
			for side := range g.Scores {
				if next.Scores[side] < g.Scores[side] {
					t.Fatalf("score went down after %v", a)
				}
			}
			g = next
		}
	})
}

// FuzzJSONRoundTrip checks a state survives JSON unchanged, and that
// Unmarshal refuses garbage without panicking.
func FuzzJSONRoundTrip(f *testing.F) {
	f.Add(uint8(0), uint16(10), []byte(`{}`))
	f.Add(uint8(3), uint16(200), []byte(`{"format":1}`))
	f.Add(uint8(6), uint16(77), []byte(`not json`))
	f.Fuzz(func(t *testing.T, table uint8, steps uint16, garbage []byte) {
		if g, err := Unmarshal(garbage); err == nil {
			if err := g.Validate(); err != nil {
				t.Fatalf("Unmarshal accepted an invalid state: %v", err)
			}
		}
		opts := fuzzTables[int(table)%len(fuzzTables)]
		g, _, _ := New(opts, SeedFromUint64(uint64(steps)))
		next := seedCounter(uint64(steps))
		for i := 0; i < int(steps)%400 && g.Phase != PhaseOver; i++ {
			g, _, _ = g.Apply(firstLegal(g, next))
		}
		data, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("Unmarshal of a marshalled state: %v\n%s", err, data)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(data) {
			t.Fatalf("round trip changed the state:\n%s\n%s", data, again)
		}
	})
}

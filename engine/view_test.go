package engine

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestViewsHideOtherHands plays whole games and checks, after every action,
// that a seat's view never names a card another seat still holds hidden,
// the crib before it is counted, or the starter before it is turned.
func TestViewsHideOtherHands(t *testing.T) {
	for _, opts := range []Options{two, three, partners} {
		g := mustNew(t, opts, 21)
		next := seedCounter(2100)
		for g.Phase != PhaseOver {
			var err error
			if g, _, err = g.Apply(firstLegal(g, next)); err != nil {
				t.Fatal(err)
			}
			for seat := 0; seat < opts.Players; seat++ {
				v := g.ViewFor(seat)
				data, _ := json.Marshal(v)
				hidden := g.hiddenFrom(seat, v)
				for _, c := range hidden.Cards() {
					if strings.Contains(string(data), `"`+c.String()) || strings.Contains(string(data), " "+c.String()) {
						t.Fatalf("seat %d's view names hidden %s in phase %s: %s", seat, c, g.Phase, data)
					}
				}
			}
		}
	}
}

// hiddenFrom lists the cards seat must not see: others' unplayed cards not
// yet shown, others' discards, the stock, and the starter before the cut.
func (g *State) hiddenFrom(seat int, v View) CardSet {
	var hidden CardSet
	shown := CardSet(0)
	for _, s := range v.Shown {
		shown |= s.Cards
	}
	for s := range g.Hands {
		if s != seat {
			hidden |= g.Remaining(s) | g.Discards[s]
		}
	}
	if g.Options.Players == 3 {
		hidden |= g.Crib &^ g.Discards[seat]
	}
	hidden |= g.Stock
	if !g.StarterUp {
		hidden = hidden.Add(g.Starter)
	} else {
		hidden = hidden.Remove(g.Starter)
	}
	// What the seat saw last hand (its own cards and the starter) it
	// knows already, wherever those cards are now.
	known := v.LastDealt
	if v.LastStarter != NoCard {
		known = known.Add(v.LastStarter)
	}
	return hidden &^ shown &^ known
}

func TestUnseen(t *testing.T) {
	g := position(t, two, 0, []string{"QS 3C 7C TC", "KH 8D 9H 5D"}, "2H 3H 4H 6H", "AD")
	g.Discards[1] = SetOf(MustParseCards("2H 3H")...)
	g, _ = apply(t, g, plays(t, "1:KH 0:QS")...)
	v := g.ViewFor(1)
	unseen := v.Unseen()
	if unseen.Len() != 52-4-2-1-1 || unseen.Has(MustParseCard("QS")) || unseen.Has(MustParseCard("AD")) || !unseen.Has(MustParseCard("3C")) {
		t.Errorf("unseen %s", unseen)
	}
}

func TestUnmarshalRefusesNewerFormatsAndBrokenStates(t *testing.T) {
	g := mustNew(t, two, 1)
	data, _ := json.Marshal(g)
	newer := strings.Replace(string(data), `"format":1`, `"format":2`, 1)
	if _, err := Unmarshal([]byte(newer)); !errors.Is(err, ErrBadState) {
		t.Errorf("newer format: %v", err)
	}
	broken := strings.Replace(string(data), `"scores":[0,0]`, `"scores":[0,-3]`, 1)
	if _, err := Unmarshal([]byte(broken)); !errors.Is(err, ErrBadState) {
		t.Errorf("negative score: %v", err)
	}
	p := position(t, two, 0, []string{"QS 3C 7C TC", "KH 8D 9H 5D"}, "2H 3H 4H 6H", "AD")
	p.Crib = p.Crib.Add(MustParseCard("QS"))
	if err := p.Validate(); !errors.Is(err, ErrBadState) {
		t.Errorf("a card in two places: %v", err)
	}
}

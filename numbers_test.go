package cribbage

import (
	"errors"
	"reflect"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// knownGame plays a two-player game at a table of alice (seat 0) and bob
// (seat 1) from cut seed cut, dealing hand n from seed firstDeal+n, each
// player throwing its first two cards (in notation order) and laying its
// first legal card, until stop says; then seat resigner resigns. It
// returns the finished table and its log, as the store would hold them.
func knownGame(t *testing.T, cut, firstDeal uint64, stop func(g *engine.State) bool, resigner int) (*Table, []LoggedAction) {
	t.Helper()
	seed := engine.SeedFromUint64(cut)
	tb := &Table{ID: int64(cut), GuildID: "g", ChannelID: "c", Options: engine.Options{Players: 2, Target: 121}, Status: StatusPlaying,
		Seats: []Seat{{UserID: "alice", Name: "Alice"}, {UserID: "bob", Name: "Bob"}}, CutSeed: &seed}
	g, _, err := engine.New(tb.Options, seed)
	if err != nil {
		t.Fatal(err)
	}
	var log []LoggedAction
	for deal := firstDeal; !stop(g); {
		var a engine.Action
		switch g.Phase {
		case engine.PhaseDeal:
			deal++
			s := engine.SeedFromUint64(deal)
			a = engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &s}
		case engine.PhaseDiscard:
			seat := g.Waiting()[0]
			a = engine.Action{Kind: engine.ActDiscard, Seat: seat, Cards: g.Hands[seat].Cards()[:2]}
		case engine.PhasePlay:
			a = engine.Action{Kind: engine.ActPlay, Seat: g.Turn, Card: g.LegalPlays(g.Turn)[0]}
		}
		if g, _, err = g.Apply(a); err != nil {
			t.Fatal(err)
		}
		log = append(log, LoggedAction{Action: a})
	}
	a := engine.Action{Kind: engine.ActResign, Seat: resigner}
	if g, _, err = g.Apply(a); err != nil {
		t.Fatal(err)
	}
	log = append(log, LoggedAction{UserID: tb.Seats[resigner].UserID, Action: a})
	tb.State, tb.Status = g, StatusFinished
	return tb, log
}

// gameA and gameB are the two known games the numbers are checked on,
// here and in the conformance suite (internal/servicetest plays the same
// moves). Every figure below was worked out by hand from the cards, by
// the rules (RULES.md "The play", "The show").
//
// Game A: cut 8♦ (Alice) against K♠ (Bob): Alice deals first.
//
//	Hand 1, Alice deals. Alice 3♣ 6♠ 7♦ 10♠ 10♥ K♥ throws 3♣ 6♠; Bob
//	2♣ 3♥ 4♠ 5♠ 6♦ 9♠ throws 2♣ 3♥. Starter 6♣.
//	Play: Bob 4♠ 4, Alice 7♦ 11, Bob 5♠ 16, Alice 10♠ 26, go: 1 for
//	Alice; Bob 6♦ 6, Alice 10♥ 16, Bob 9♠ 25, go: 1 for Bob; Alice K♥,
//	last card: 1. Alice pegs 2, Bob 1.
//	Bob 4♠ 5♠ 6♦ 9♠ + 6♣: fifteens 4-5-6 twice and 6-9 twice (8), the
//	pair of sixes (2), a double run of three (6): 16.
//	Alice 7♦ 10♠ 10♥ K♥ + 6♣: the pair of tens, 2.
//	Alice's crib 2♣ 3♣ 3♥ 6♠ + 6♣: 3-6-6 twice (4), two pairs (4): 8.
//	Hand 2, Bob deals. Alice 3♠ 5♣ 7♦ 9♠ 9♥ K♣ throws 3♠ 5♣; Bob A♠ 5♥
//	5♦ 6♦ 6♣ 9♣ throws A♠ 5♥. Starter 2♣.
//	Play: Alice 7♦ 7, Bob 5♦ 12, Alice 9♠ 21, Bob 6♦ 27, go: 1 for Bob;
//	Alice 9♥ 9, Bob 6♣ 15 for 2, Alice K♣ 25, go: 1 for Alice; Bob 9♣,
//	last card: 1. Alice pegs 1, Bob 4.
//	Alice 7♦ 9♠ 9♥ K♣ + 2♣: the pair of nines, 2.
//	Bob 5♦ 6♦ 6♣ 9♣ + 2♣: 6-9 twice (4), the pair of sixes (2): 6.
//	Bob's crib A♠ 3♠ 5♥ 5♣ + 2♣: 2-3-5-5 (2), the pair of fives (2), the
//	run A-2-3 (3): 7.
//	Hand 3 is dealt (Alice deals) and Bob resigns before anyone throws:
//	Alice wins, 15 to 34. Hand 3 has no throw and no show.
//
// Game B: cut 8♠ (Alice) against 4♦ (Bob): Bob deals first.
//
//	Hand 1, Bob deals. Alice A♣ 4♥ 9♦ J♠ Q♣ K♣ throws A♣ 4♥; Bob A♥ A♦
//	5♣ 6♦ 8♦ 8♣ throws A♥ A♦. Starter 10♠.
//	Play: Alice 9♦ 9, Bob 5♣ 14, Alice J♠ 24, Bob 6♦ 30, go: 1 for Bob;
//	Alice Q♣ 10, Bob 8♦ 18, Alice K♣ 28, go: 1 for Alice; Bob 8♣, last
//	card: 1. Alice pegs 1, Bob 2.
//	Alice 9♦ J♠ Q♣ K♣ + 10♠: the run of five (5), his nobs (1): 6.
//	Bob 5♣ 6♦ 8♦ 8♣ + 10♠: 5-10 (2), the pair of eights (2): 4.
//	Bob's crib A♥ A♦ A♣ 4♥ + 10♠: A-4-10 three times (6), three aces (6):
//	12.
//	Hand 2, Alice deals. Alice 2♥ 3♥ 3♣ 9♦ Q♠ Q♥ throws 2♥ 3♥; Bob 3♦ 4♦
//	5♦ 8♥ 10♦ J♥ throws 3♦ 4♦. Starter 8♠.
//	Play: Bob 5♦ 5, Alice 3♣ 8, Bob 8♥ 16, Alice 9♦ 25, go: 1 for Alice;
//	Bob 10♦ 10, Alice Q♠ 20, Bob J♥ 30 a run of three (3), go: 1 for Bob;
//	Alice Q♥, last card: 1. Alice pegs 2, Bob 4.
//	Bob 5♦ 8♥ 10♦ J♥ + 8♠: 5-10 and 5-J (4), the pair of eights (2): 6.
//	Alice 3♣ 9♦ Q♠ Q♥ + 8♠: the pair of queens, 2.
//	Alice's crib 2♥ 3♥ 3♦ 4♦ + 8♠: 3-4-8 twice (4), the pair of threes
//	(2), a double run of three (6): 12.
//	Hand 3, Bob deals. Alice 2♥ 4♥ 5♠ 9♠ 10♠ 10♣ throws 2♥ 4♥; Bob A♠ A♣
//	6♦ 10♦ J♠ J♦ throws A♠ A♣; the starter is Q♥ and Alice resigns
//	before a card is laid: Bob wins, 23 to 28. Hand 3 is not complete:
//	its throws count, its play and show do not.
func gameA(t *testing.T) (*Table, []LoggedAction) {
	return knownGame(t, 2, 200, func(g *engine.State) bool { return g.HandNo == 3 }, 1)
}

func gameB(t *testing.T) (*Table, []LoggedAction) {
	return knownGame(t, 3, 300, func(g *engine.State) bool { return g.HandNo == 3 && g.Phase == engine.PhasePlay }, 0)
}

// cards reads a set of cards.
func cards(s string) engine.CardSet { return engine.SetOf(engine.MustParseCards(s)...) }

// TestAccountOfKnownGames checks every deal of the two known games
// against the figures worked out by hand above.
func TestAccountOfKnownGames(t *testing.T) {
	a, logA := gameA(t)
	accA, err := a.Account(logA)
	if err != nil {
		t.Fatal(err)
	}
	wantA := []Deal{
		{Hand: 1, Dealer: 0, Starter: engine.MustParseCard("6C"), Crib: cards("2C 3C 3H 6S"), Complete: true, Seats: []DealSeat{
			{Dealt: cards("3C 6S 7D TS TH KH"), Thrown: cards("3C 6S"), Pegging: 2, Hand: 2, Crib: 8, HandShown: true, CribShown: true, HandTrue: 2, CribTrue: 8},
			{Dealt: cards("2C 3H 4S 5S 6D 9S"), Thrown: cards("2C 3H"), Pegging: 1, Hand: 16, HandShown: true, HandTrue: 16}}},
		{Hand: 2, Dealer: 1, Starter: engine.MustParseCard("2C"), Crib: cards("AS 3S 5H 5C"), Complete: true, Seats: []DealSeat{
			{Dealt: cards("3S 5C 7D 9S 9H KC"), Thrown: cards("3S 5C"), Pegging: 1, Hand: 2, HandShown: true, HandTrue: 2},
			{Dealt: cards("AS 5H 5D 6D 6C 9C"), Thrown: cards("AS 5H"), Pegging: 4, Hand: 6, Crib: 7, HandShown: true, CribShown: true, HandTrue: 6, CribTrue: 7}}},
		{Hand: 3, Dealer: 0, Seats: []DealSeat{{Dealt: accA.Deals[2].Seats[0].Dealt}, {Dealt: accA.Deals[2].Seats[1].Dealt}}},
	}
	if !reflect.DeepEqual(accA.Deals, wantA) {
		t.Errorf("game A's deals:\n%+v\nwant\n%+v", accA.Deals, wantA)
	}
	if !reflect.DeepEqual(accA.Behind, []int{19, 1}) || !reflect.DeepEqual(accA.LastDealt, []int{15, 34}) || accA.WonInPlay {
		t.Errorf("game A: behind %v, last dealt at %v, won in the play %v; want [19 1] (15 to 34 at the end; 2 to 1 after hand 1's last card), [15 34], false",
			accA.Behind, accA.LastDealt, accA.WonInPlay)
	}
	b, logB := gameB(t)
	accB, err := b.Account(logB)
	if err != nil {
		t.Fatal(err)
	}
	wantB := []Deal{
		{Hand: 1, Dealer: 1, Starter: engine.MustParseCard("TS"), Crib: cards("AH AD AC 4H"), Complete: true, Seats: []DealSeat{
			{Dealt: cards("AC 4H 9D JS QC KC"), Thrown: cards("AC 4H"), Pegging: 1, Hand: 6, HandShown: true, HandTrue: 6},
			{Dealt: cards("AH AD 5C 6D 8D 8C"), Thrown: cards("AH AD"), Pegging: 2, Hand: 4, Crib: 12, HandShown: true, CribShown: true, HandTrue: 4, CribTrue: 12}}},
		{Hand: 2, Dealer: 0, Starter: engine.MustParseCard("8S"), Crib: cards("2H 3H 3D 4D"), Complete: true, Seats: []DealSeat{
			{Dealt: cards("2H 3H 3C 9D QS QH"), Thrown: cards("2H 3H"), Pegging: 2, Hand: 2, Crib: 12, HandShown: true, CribShown: true, HandTrue: 2, CribTrue: 12},
			{Dealt: cards("3D 4D 5D 8H TD JH"), Thrown: cards("3D 4D"), Pegging: 4, Hand: 6, HandShown: true, HandTrue: 6}}},
		{Hand: 3, Dealer: 1, Starter: engine.MustParseCard("QH"), Crib: cards("2H 4H AS AC"), Seats: []DealSeat{
			{Dealt: cards("2H 4H 5S 9S TS TC"), Thrown: cards("2H 4H")},
			{Dealt: cards("AS AC 6D TD JS JD"), Thrown: cards("AS AC")}}},
	}
	if !reflect.DeepEqual(accB.Deals, wantB) {
		t.Errorf("game B's deals:\n%+v\nwant\n%+v", accB.Deals, wantB)
	}

	// Only complete deals count: hand 3 of either game counts for nobody.
	wantNumbers := map[string][]GameNumbers{
		"A": {{Seat: 0, UserID: "alice", Dealer: Role{Deals: 1, Pegging: 2, Hand: 2, Crib: 8}, Pone: Role{Deals: 1, Pegging: 1, Hand: 2}},
			{Seat: 1, UserID: "bob", Dealer: Role{Deals: 1, Pegging: 4, Hand: 6, Crib: 7}, Pone: Role{Deals: 1, Pegging: 1, Hand: 16}}},
		"B": {{Seat: 0, UserID: "alice", Dealer: Role{Deals: 1, Pegging: 2, Hand: 2, Crib: 12}, Pone: Role{Deals: 1, Pegging: 1, Hand: 6}},
			{Seat: 1, UserID: "bob", Dealer: Role{Deals: 1, Pegging: 2, Hand: 4, Crib: 12}, Pone: Role{Deals: 1, Pegging: 4, Hand: 6}}},
	}
	for name, got := range map[string][]GameNumbers{"A": a.NumbersOf(accA), "B": b.NumbersOf(accB)} {
		if !reflect.DeepEqual(got, wantNumbers[name]) {
			t.Errorf("game %s's numbers: %+v, want %+v", name, got, wantNumbers[name])
		}
	}
}

// TestAccountRefusesALogThatDoesNotReplay: a game whose log stops short
// of its end, or whose table says otherwise, has no account.
func TestAccountRefusesALogThatDoesNotReplay(t *testing.T) {
	a, log := gameA(t)
	for name, l := range map[string][]LoggedAction{"short": log[:len(log)-1], "none": nil} {
		if _, err := a.Account(l); !errors.Is(err, ErrUnaccounted) {
			t.Errorf("a %s log: %v, want ErrUnaccounted", name, err)
		}
	}
	open := a.Clone()
	open.State.Result = nil
	if _, err := open.Account(log); !errors.Is(err, ErrUnaccounted) {
		t.Errorf("a game not over: %v, want ErrUnaccounted", err)
	}
}

// TestRematchAccountsFromItsFirstDeal: a game with no cut (a rematch)
// starts from the seat of its first deal.
func TestRematchAccountsFromItsFirstDeal(t *testing.T) {
	a, log := gameA(t)
	a.CutSeed = nil
	acc, err := a.Account(log)
	if err != nil || len(acc.Deals) != 3 || acc.Deals[0].Dealer != 0 {
		t.Errorf("account %+v, %v", acc, err)
	}
}

func TestCounted(t *testing.T) {
	for _, tc := range []struct {
		players  int
		assisted bool
		want     bool
	}{{2, false, true}, {2, true, false}, {3, false, false}, {4, false, false}} {
		tb := &Table{Options: engine.Options{Players: tc.players}}
		if got := tb.Counted(tc.assisted); got != tc.want {
			t.Errorf("%d players, assisted %v: counted %v", tc.players, tc.assisted, got)
		}
	}
}

// TestRolePerDeal: averages a deal and a throw, and none without any.
func TestRolePerDeal(t *testing.T) {
	r := Role{Deals: 4, Pegging: 14, Throws: 5, GivenUp: 2.5}
	if v, ok := r.PerDeal(r.Pegging); !ok || v != 3.5 {
		t.Errorf("pegging a deal %v %v", v, ok)
	}
	if v, ok := r.GivenUpPerThrow(); !ok || v != 0.5 {
		t.Errorf("given up a throw %v %v", v, ok)
	}
	if _, ok := (Role{}).PerDeal(0); ok {
		t.Error("an average of no deals")
	}
	if _, ok := (Role{}).GivenUpPerThrow(); ok {
		t.Error("an average of no throws")
	}
}

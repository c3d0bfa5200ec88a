package cribbage

import (
	"errors"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// finished is a finished game between people (or a person and the plain
// computer), the first seat having resigned it.
func finished(t *testing.T, seats []Seat, env Env) *Table {
	t.Helper()
	tb := &Table{ID: 11, GuildID: "g", ChannelID: "c", HostID: seats[0].UserID, Options: engine.Options{Players: len(seats), Target: 121},
		Status: StatusLobby, Seats: seats}
	if _, _, err := Start(tb, env); err != nil {
		t.Fatal(err)
	}
	resign(t, tb, 0, env)
	return tb
}

// TestARematchNeedsEveryYes: the offer waits on every other person at the
// table; the last yes makes the rematch, with the deal passed on.
func TestARematchNeedsEveryYes(t *testing.T) {
	env := testEnv()
	tb := finished(t, []Seat{ann, bob, cat}, env)
	ch, err := OfferRematch(tb, "bob", env)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Next != nil || tb.Offer.By != "bob" || !tb.Offer.At.Equal(env.Now) || len(tb.Offer.Waiting(tb)) != 2 {
		t.Fatalf("the offer: next %v, %+v", ch.Next != nil, tb.Offer)
	}
	if _, err := AcceptRematch(tb, "bob", env); !errors.Is(err, ErrAlreadyAccepted) {
		t.Errorf("the offerer accepting: %v", err)
	}
	if _, err := AcceptRematch(tb, "dan", env); !errors.Is(err, ErrNotSeated) {
		t.Errorf("a stranger accepting: %v", err)
	}
	// Pressing Rematch while an offer is open is a yes.
	if ch, err = OfferRematch(tb, "ann", env); err != nil || ch.Next != nil || tb.Offer.By != "bob" {
		t.Fatalf("Ann's Rematch: %v, next %v, %+v", err, ch.Next != nil, tb.Offer)
	}
	if w := tb.Offer.Waiting(tb); len(w) != 1 || w[0].UserID != "cat" {
		t.Fatalf("waiting on %+v", w)
	}
	ch, err = AcceptRematch(tb, "cat", env)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := nextOf(t, ch, 12)
	if next.Status != StatusPlaying || next.HostID != "bob" || next.Match != nil || next.State.Dealer != (tb.State.Dealer+1)%3 {
		t.Errorf("the rematch: %s, host %s, match %v, dealer %d after %d", next.Status, next.HostID, next.Match, next.State.Dealer, tb.State.Dealer)
	}
}

// TestARematchAgainstTheComputerStartsAtOnce: computers accept by
// themselves, so a person alone with them starts it with one click.
func TestARematchAgainstTheComputerStartsAtOnce(t *testing.T) {
	env := testEnv()
	tb := finished(t, []Seat{ann, {Computer: "plain", Name: "Computer"}}, env)
	tb.TokenOnly = true
	ch, err := OfferRematch(tb, "ann", env)
	if err != nil || ch.Next == nil {
		t.Fatalf("offer: %v, next %v", err, ch != nil && ch.Next != nil)
	}
	// Where the bot is not, so is the rematch: only tokens reach it.
	if !ch.Next.Table.TokenOnly {
		t.Error("the rematch of a table where only tokens reach is not token-only")
	}
}

// TestARematchOfferEnds: declined by anyone at the table, or lapsed after
// OfferLife; either way the table can be offered again.
func TestARematchOfferEnds(t *testing.T) {
	env := testEnv()
	tb := finished(t, []Seat{ann, bob}, env)
	if _, err := DeclineRematch(tb, "bob"); !errors.Is(err, ErrNoOffer) {
		t.Errorf("declining no offer: %v", err)
	}
	if _, err := OfferRematch(tb, "ann", env); err != nil {
		t.Fatal(err)
	}
	if _, err := DeclineRematch(tb, "bob"); err != nil || tb.Offer != nil {
		t.Fatalf("declined: %v, %+v", err, tb.Offer)
	}
	if _, err := OfferRematch(tb, "ann", env); err != nil {
		t.Fatal(err)
	}
	if ch := LapseOffer(tb, env.Now.Add(OfferLife-1)); ch != nil || tb.Offer == nil {
		t.Error("the offer lapsed early")
	}
	if ch := LapseOffer(tb, env.Now.Add(OfferLife)); ch == nil || tb.Offer != nil {
		t.Error("the offer did not lapse")
	}
	if ch := LapseOffer(tb, env.Now.Add(2*OfferLife)); ch != nil {
		t.Error("a lapsed offer lapsed again")
	}
}

// TestNoRematchWhileTheMatchIsOn: a match's game makes its next game by
// itself; once the match is over, a rematch is a new match of the same
// length. A game still on, or with its rematch, has none.
func TestNoRematchWhileTheMatchIsOn(t *testing.T) {
	env := testEnv()
	tb := twoPeople(3)
	if _, _, err := Start(tb, env); err != nil {
		t.Fatal(err)
	}
	if _, err := OfferRematch(tb, "ann", env); !errors.Is(err, ErrNotFinished) {
		t.Errorf("a rematch of a game on: %v", err)
	}
	resign(t, tb, 1, env)
	if _, err := OfferRematch(tb, "ann", env); !errors.Is(err, ErrMatchOn) {
		t.Errorf("a rematch of a match on: %v", err)
	}
	if _, _, err := ResignMatch(tb, 0, env); err == nil {
		t.Error("a finished game resigned")
	}
	tb.Match.Conceded = true
	tb.Offer = nil
	if _, err := OfferRematch(tb, "ann", env); err != nil {
		t.Fatal(err)
	}
	ch, err := AcceptRematch(tb, "bob", env)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := nextOf(t, ch, 20)
	if next.Match == nil || next.Match.ID != 20 || next.Match.BestOf != 3 || next.Match.Game != 1 || len(next.Match.Games) != 0 {
		t.Errorf("the rematch of a match: %+v", next.Match)
	}
	tb.RematchID = 20
	if _, err := OfferRematch(tb, "ann", env); !errors.Is(err, ErrRematched) {
		t.Errorf("a second rematch: %v", err)
	}
}

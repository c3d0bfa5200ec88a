package cribbage

import (
	"errors"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

var (
	ann = Seat{UserID: "ann", Name: "Ann"}
	bob = Seat{UserID: "bob", Name: "Bob"}
	cat = Seat{UserID: "cat", Name: "Cat"}
)

// challenge is Ann's open challenge to Bob, saved.
func challenge(t *testing.T, bestOf int) *Table {
	t.Helper()
	tb, err := NewChallenge("g", "c", ann, bob, engine.Options{Players: 2, Target: 121}, bestOf)
	if err != nil {
		t.Fatal(err)
	}
	tb.ID = 3
	return tb
}

// TestNewChallenge: a challenge is two players' lobby with the second seat
// held; nobody challenges themselves, a challenge is for two, and a match
// challenge is a match's.
func TestNewChallenge(t *testing.T) {
	two := engine.Options{Players: 2, Target: 61}
	tb, err := NewChallenge("g", "c", ann, bob, two, 5)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Status != StatusLobby || len(tb.Seats) != 1 || tb.HostID != "ann" || tb.Challenge.UserID != "bob" || tb.Match.BestOf != 5 {
		t.Errorf("the challenge: %+v, %+v, %+v", tb, tb.Challenge, tb.Match)
	}
	if !tb.OpenChallenge("ann", "bob") || tb.OpenChallenge("bob", "ann") || tb.OpenChallenge("ann", "cat") {
		t.Error("OpenChallenge names the wrong challenge")
	}
	for _, tt := range []struct {
		name     string
		opponent Seat
		o        engine.Options
		bestOf   int
		want     error
	}{
		{"oneself", ann, two, 0, ErrSelfChallenge},
		{"three players", bob, engine.Options{Players: 3, Target: 121}, 0, ErrNotTwoPlayers},
		{"best of four", bob, two, 4, ErrMatchLength},
		{"bad options", bob, engine.Options{Players: 2, Target: 100}, 0, engine.ErrBadOptions},
	} {
		if _, err := NewChallenge("g", "c", ann, tt.opponent, tt.o, tt.bestOf); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestAcceptingAChallengeStartsTheGame: only the person challenged takes
// the held seat, and taking it starts the game (and the match).
func TestAcceptingAChallengeStartsTheGame(t *testing.T) {
	env := testEnv()
	tb := challenge(t, 3)
	for _, tt := range []struct {
		name string
		try  func(tb *Table) error
		want error
	}{
		{"a stranger accepts", func(tb *Table) error { _, err := AcceptChallenge(tb, cat, env); return err }, ErrNotChallenged},
		{"the challenger accepts", func(tb *Table) error { _, err := AcceptChallenge(tb, ann, env); return err }, ErrNotChallenged},
		{"a stranger joins", func(tb *Table) error { _, err := Join(tb, cat, env); return err }, ErrSeatHeld},
		{"a stranger declines", func(tb *Table) error { _, err := DeclineChallenge(tb, "cat"); return err }, ErrNotChallenged},
		{"the challenged withdraws", func(tb *Table) error { _, err := WithdrawChallenge(tb, "bob"); return err }, ErrNotHost},
	} {
		c := tb.Clone()
		if err := tt.try(c); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		if c.Status != StatusLobby || len(c.Seats) != 1 || c.Challenge.Outcome != "" {
			t.Errorf("%s changed the challenge: %s, %d seats, %q", tt.name, c.Status, len(c.Seats), c.Challenge.Outcome)
		}
	}
	ch, err := AcceptChallenge(tb, Seat{UserID: "bob", Name: "Robert"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Table.Status != StatusPlaying || tb.Seats[1].UserID != "bob" || tb.Challenge.Outcome != ChallengeAccepted || tb.Match.ID != tb.ID {
		t.Errorf("accepted: %s, seats %+v, %q, match %+v", tb.Status, tb.Seats, tb.Challenge.Outcome, tb.Match)
	}
	if _, err := DeclineChallenge(tb, "bob"); !errors.Is(err, ErrNotLobby) {
		t.Errorf("declining an accepted challenge: %v", err)
	}
}

// TestAChallengeEnds: declined by the person challenged, withdrawn by the
// challenger, or lapsed; each closes the table and says how.
func TestAChallengeEnds(t *testing.T) {
	tb := challenge(t, 0)
	if _, err := DeclineChallenge(tb, "bob"); err != nil || tb.Status != StatusClosed || tb.Challenge.Outcome != ChallengeDeclined {
		t.Errorf("declined: %v, %s, %q", err, tb.Status, tb.Challenge.Outcome)
	}
	tb = challenge(t, 0)
	if _, err := WithdrawChallenge(tb, "ann"); err != nil || tb.Status != StatusClosed || tb.Challenge.Outcome != ChallengeWithdrawn {
		t.Errorf("withdrawn: %v, %s, %q", err, tb.Status, tb.Challenge.Outcome)
	}
	tb = challenge(t, 0)
	if ch := CloseLobby(tb, tb.LobbyLapses()); ch == nil || tb.Status != StatusClosed || tb.Challenge.Outcome != ChallengeLapsed {
		t.Errorf("lapsed: %s, %q", tb.Status, tb.Challenge.Outcome)
	}
	tb = challenge(t, 0)
	if _, err := Leave(tb, "ann"); err != nil || tb.Status != StatusClosed || tb.Challenge.Outcome != ChallengeWithdrawn {
		t.Errorf("the challenger left: %v, %s, %q", err, tb.Status, tb.Challenge.Outcome)
	}
	tb = challenge(t, 0)
	if _, err := Join(tb, bob, testEnv()); err != nil || tb.Status != StatusPlaying || tb.Challenge.Outcome != ChallengeAccepted {
		t.Errorf("the person challenged joined: %v, %s, %q", err, tb.Status, tb.Challenge.Outcome)
	}
	plain := twoPeople(0)
	plain.Seats = plain.Seats[:1]
	if _, err := WithdrawChallenge(plain, "ann"); !errors.Is(err, ErrNotChallenge) {
		t.Errorf("withdrawing a lobby that is no challenge: %v", err)
	}
}

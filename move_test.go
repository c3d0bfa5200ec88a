package cribbage

import (
	"errors"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// plainComputers is a computer player the domain's tests can read: it
// throws its first cards, lays its first legal card, and never calls
// muggins. engine/ai's players are the bot's business, not the domain's.
type plainComputers struct{}

func (plainComputers) Decide(level string, v engine.View, seed uint64) (engine.Action, bool) {
	switch {
	case level != "plain":
		return engine.Action{}, false
	case v.Phase == engine.PhaseDiscard && !v.Discarded[v.Seat]:
		return engine.Action{Kind: engine.ActDiscard, Seat: v.Seat, Cards: v.Hand.Cards()[:v.Options.DiscardSize()]}, true
	case v.Phase == engine.PhasePlay && v.Turn == v.Seat && len(v.Legal) > 0:
		return engine.Action{Kind: engine.ActPlay, Seat: v.Seat, Card: v.Legal[0]}, true
	}
	return engine.Action{}, false
}

func (plainComputers) Muggins(string, engine.View) (engine.Action, bool) {
	return engine.Action{}, false
}

func (plainComputers) Name(level string, seat int) string { return level + " computer" }

// testEnv is an Env on a fixed clock and numbered seeds.
func testEnv() Env {
	n := uint64(0)
	return Env{
		Now:       time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC),
		Seeds:     func() engine.Seed { n++; return engine.SeedFromUint64(n) },
		Computers: plainComputers{},
	}
}

// personAndComputer is a lobby of two whose seats are taken: a person in
// seat 0 and the plain computer in seat 1.
func personAndComputer() *Table {
	return &Table{ID: 1, ChannelID: "c", Options: engine.Options{Players: 2, Target: 121}, Status: StatusLobby,
		Seats: []Seat{{UserID: "u", Name: "Ann"}, {Computer: "plain", Name: "Computer"}}}
}

// TestAGameIsMovesToTheEnd plays a whole game through Start and Move, the
// person laying their first legal card: the computer's moves and the deals
// come with each change, logged as the table's own, and every event comes
// back once, with the change that made it, for the bot to word.
func TestAGameIsMovesToTheEnd(t *testing.T) {
	var announced, events int
	env := testEnv()
	tb := personAndComputer()
	ch, evs, err := Start(tb, env)
	if err != nil {
		t.Fatal(err)
	}
	events += len(evs)
	announced += len(ch.Events)
	if tb.Status != StatusPlaying || tb.CutSeed == nil || !tb.WaitingSince.Equal(env.Now) {
		t.Fatalf("after Start: status %s, cut seed %v, waiting since %v", tb.Status, tb.CutSeed, tb.WaitingSince)
	}
	if len(ch.Actions) == 0 || ch.Actions[0].Action.Kind != engine.ActDeal || len(ch.Events) != len(evs) {
		t.Fatalf("Start's change: %d actions, %d events of %d", len(ch.Actions), len(ch.Events), len(evs))
	}
	moves := 0
	for tb.Status == StatusPlaying {
		v := tb.State.ViewFor(0)
		var a engine.Action
		switch {
		case v.Phase == engine.PhaseDiscard:
			a = engine.Action{Kind: engine.ActDiscard, Seat: 0, Cards: v.Hand.Cards()[:2]}
		case v.Phase == engine.PhasePlay && v.Turn == 0 && len(v.Legal) > 0:
			a = engine.Action{Kind: engine.ActPlay, Seat: 0, Card: v.Legal[0]}
		default:
			t.Fatalf("move %d: the game waits on %v in phase %v, not on the person", moves, tb.Waiting(), v.Phase)
		}
		ch, evs, err := Move(tb, a, env)
		if err != nil {
			t.Fatalf("move %d, %v: %v", moves, a, err)
		}
		events += len(evs)
		announced += len(ch.Events)
		if ch.Table != tb || ch.Actions[0].UserID != "u" || ch.Actions[0].Action.Kind != a.Kind {
			t.Fatalf("move %d: the change logs %+v first", moves, ch.Actions[0])
		}
		for _, la := range ch.Actions[1:] {
			if la.UserID != "" {
				t.Fatalf("move %d: the table's own move is logged as %q's", moves, la.UserID)
			}
		}
		moves++
	}
	if tb.Status != StatusFinished || tb.State.Result == nil {
		t.Fatalf("the game ended with status %s", tb.Status)
	}
	if events != announced || events == 0 {
		t.Errorf("%d events happened, %d came back with their changes", events, announced)
	}
}

// TestAMoveRefusedChangesNothing: a move at a table not playing, from a
// seat no person holds, or against the rules fails with its reason and
// leaves the table as it was.
func TestAMoveRefusedChangesNothing(t *testing.T) {
	env := testEnv()
	playing := personAndComputer()
	if _, _, err := Start(playing, env); err != nil {
		t.Fatal(err)
	}
	hand := playing.State.ViewFor(0).Hand.Cards()
	notHeld := engine.Card(0)
	for c := engine.Card(0); c < 52; c++ {
		if !playing.State.ViewFor(0).Hand.Has(c) {
			notHeld = c
			break
		}
	}
	for _, c := range []struct {
		name  string
		table *Table
		a     engine.Action
		want  error
	}{
		{"a lobby", personAndComputer(), engine.Action{Kind: engine.ActDiscard, Seat: 0, Cards: hand[:2]}, ErrNotPlaying},
		{"the computer's seat", playing, engine.Action{Kind: engine.ActDiscard, Seat: 1, Cards: hand[:2]}, ErrNotSeated},
		{"no seat", playing, engine.Action{Kind: engine.ActDiscard, Seat: 2, Cards: hand[:2]}, ErrNotSeated},
		{"a card not held", playing, engine.Action{Kind: engine.ActDiscard, Seat: 0, Cards: []engine.Card{hand[0], notHeld}}, nil},
		{"a play before the crib", playing, engine.Action{Kind: engine.ActPlay, Seat: 0, Card: hand[0]}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, status, since := c.table.State, c.table.Status, c.table.WaitingSince
			ch, _, err := Move(c.table, c.a, env)
			if err == nil || ch != nil || (c.want != nil && !errors.Is(err, c.want)) {
				t.Fatalf("Move = %v, %v; want the refusal %v", ch, err, c.want)
			}
			if c.table.State != before || c.table.Status != status || !c.table.WaitingSince.Equal(since) {
				t.Errorf("a refused move changed the table")
			}
		})
	}
}

// TestContinueWithNothingToDo: a table waiting on a person makes no
// change by itself.
func TestContinueWithNothingToDo(t *testing.T) {
	env := testEnv()
	tb := personAndComputer()
	if _, _, err := Start(tb, env); err != nil {
		t.Fatal(err)
	}
	if ch, evs, err := Continue(tb, env); ch != nil || err != nil || len(evs) != 0 {
		t.Errorf("Continue = %v, %v, with %d events", ch, err, len(evs))
	}
}

// TestALobbyFillsAndStarts: people join until the table is full, which
// starts the game in the same change; a host may begin early with
// computers; and each refusal leaves the lobby as it was.
func TestALobbyFillsAndStarts(t *testing.T) {
	env := testEnv()
	lobby := func() *Table {
		return &Table{ID: 2, ChannelID: "c", HostID: "a", Options: engine.Options{Players: 3, Target: 61}, Status: StatusLobby,
			Seats: []Seat{{UserID: "a", Name: "Ann"}}}
	}

	tb := lobby()
	for _, c := range []struct {
		name string
		do   func() (*Change, error)
		want error
	}{
		{"the host again", func() (*Change, error) { return Join(tb, Seat{UserID: "a"}, env) }, ErrAlreadySeated},
		{"a stranger leaving", func() (*Change, error) { return Leave(tb, "z") }, ErrNotSeated},
		{"a guest beginning", func() (*Change, error) { return Begin(tb, "z", env) }, ErrNotHost},
		{"the host beginning without computers", func() (*Change, error) { return Begin(tb, "a", env) }, ErrNeedPlayers},
	} {
		if ch, err := c.do(); ch != nil || !errors.Is(err, c.want) || len(tb.Seats) != 1 || tb.Status != StatusLobby {
			t.Errorf("%s: %v, %v, %d seats, %s; want %v and the lobby as it was", c.name, ch, err, len(tb.Seats), tb.Status, c.want)
		}
	}
	if ch, err := Join(tb, Seat{UserID: "b", Name: "Bob"}, env); err != nil || ch.Table.Status != StatusLobby || len(ch.Actions) != 0 {
		t.Fatalf("the second seat: %v, %v", ch, err)
	}
	ch, err := Join(tb, Seat{UserID: "c", Name: "Cy"}, env)
	if err != nil || tb.Status != StatusPlaying || tb.State == nil || len(ch.Actions) == 0 || len(ch.Events) == 0 {
		t.Fatalf("the last seat did not start the game: %v, %v, %s", ch, err, tb.Status)
	}
	if _, err := Join(tb, Seat{UserID: "d"}, env); !errors.Is(err, ErrNotLobby) {
		t.Errorf("a join once the game is on: %v", err)
	}
	if _, err := Leave(tb, "b"); !errors.Is(err, ErrNotLobby) {
		t.Errorf("a leave once the game is on: %v", err)
	}

	full := lobby()
	full.Options.Players = 2
	full.Seats = append(full.Seats, Seat{UserID: "b"})
	if _, err := Join(full, Seat{UserID: "c"}, env); !errors.Is(err, ErrTableFull) {
		t.Errorf("a join at a full lobby: %v", err)
	}

	early := lobby()
	early.Computer = "plain"
	if _, err := Begin(early, "a", env); err != nil || early.Status != StatusPlaying || len(early.Seats) != 3 || early.Seats[2].Name != "plain computer" || early.Seats[1].Computer != "plain" {
		t.Errorf("the host beginning with computers: %v, %s, seats %+v", err, early.Status, early.Seats)
	}

	left := lobby()
	left.Seats = append(left.Seats, Seat{UserID: "b", Name: "Bob"})
	if _, err := Leave(left, "a"); err != nil || left.HostID != "b" || len(left.Seats) != 1 {
		t.Errorf("the host leaving: %v, host %q", err, left.HostID)
	}
	if _, err := Leave(left, "b"); err != nil || left.Status != StatusClosed {
		t.Errorf("the last person leaving: %v, %s", err, left.Status)
	}
	if l := lobby(); CloseLobby(tb, tb.LobbyLapses()) != nil || CloseLobby(l, l.LobbyLapses()).Table.Status != StatusClosed {
		t.Errorf("CloseLobby closes lobbies only")
	}
}

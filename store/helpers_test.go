package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// MustOpen opens a fresh, empty store: a database file in a temporary
// directory, or, in the PostgreSQL run of the suite (TestSuiteOnPostgres),
// a schema of its own on the server; the path is the file's, or the URL.
func MustOpen(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	if onPostgres() {
		return mustOpenPostgres(t, opts...)
	}
	path := filepath.Join(t.TempDir(), "cribbage.db")
	s, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// reopen opens again the store MustOpen returned path for.
func reopen(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if onPostgres() {
		return OpenPostgres(ctx, path, opts...)
	}
	return Open(ctx, path, opts...)
}

// newLobby returns an unsaved two-seat table for guild g.
func newLobby(guild string, users ...string) *cribbage.Table {
	t := &cribbage.Table{GuildID: guild, ChannelID: "c1", HostID: users[0], Options: engine.Options{Players: len(users), Target: 121}, Status: cribbage.StatusLobby}
	for _, u := range users {
		t.Seats = append(t.Seats, cribbage.Seat{UserID: u, Name: "name-" + u})
	}
	return t
}

// nextAction is a scripted player: the first legal move for whoever the
// game waits on.
func nextAction(g *engine.State, seed engine.Seed) engine.Action {
	switch g.Phase {
	case engine.PhaseDeal:
		return engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}
	case engine.PhaseDiscard:
		seat := g.Waiting()[0]
		return engine.Action{Kind: engine.ActDiscard, Seat: seat, Cards: g.Hands[seat].Cards()[:g.Options.DiscardSize()]}
	case engine.PhasePlay:
		return engine.Action{Kind: engine.ActPlay, Seat: g.Turn, Card: g.LegalPlays(g.Turn)[0]}
	}
	return engine.Action{Kind: engine.ActResign, Seat: g.Turn}
}

// startGame saves a lobby and starts its game.
func startGame(t testing.TB, s *Store, lobby *cribbage.Table) *cribbage.Table {
	t.Helper()
	ctx := context.Background()
	tb, err := s.CreateTable(ctx, lobby, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	seed := engine.SeedFromUint64(uint64(tb.ID))
	tb, err = servicetest.Update(ctx, s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := engine.New(cur.Options, seed)
		if err != nil {
			return nil, err
		}
		cur.State, cur.CutSeed, cur.Status = g, &seed, cribbage.StatusPlaying
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// step applies the scripted next action in one Update.
func step(t testing.TB, s *Store, id int64, interactionID string) (*cribbage.Table, error) {
	t.Helper()
	return servicetest.Update(context.Background(), s, id, interactionID, func(cur *cribbage.Table) (*cribbage.Change, error) {
		a := nextAction(cur.State, engine.SeedFromUint64(uint64(cur.Version)))
		g, events, err := cur.State.Apply(a)
		if err != nil {
			return nil, err
		}
		cur.State = g
		if g.Phase == engine.PhaseOver {
			cur.Status = cribbage.StatusFinished
		}
		var out []cribbage.Outbound
		for _, e := range events {
			out = append(out, cribbage.Outbound{ChannelID: cur.ChannelID, Kind: "post", Payload: e.String()})
		}
		return &cribbage.Change{Table: cur, Actions: []cribbage.LoggedAction{{UserID: "u", Action: a}}, Outbox: out}, nil
	})
}

// mustTable loads a table.
func mustTable(t testing.TB, s *Store, id int64) *cribbage.Table {
	t.Helper()
	tb, err := s.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// resignAfterAThrow has seat resign game g once a card has left a hand:
// the first hand dealt if need be, and one player's throw to the crib. A
// resignation before any card rates nobody (cribbage.Table.Rated).
func resignAfterAThrow(g *engine.State, seat int) (*engine.State, []engine.Event, error) {
	for !cribbage.CardPlayed(g) {
		var err error
		if g, _, err = g.Apply(nextAction(g, engine.SeedFromUint64(7))); err != nil {
			return nil, nil, err
		}
	}
	return g.Apply(engine.Action{Kind: engine.ActResign, Seat: seat})
}

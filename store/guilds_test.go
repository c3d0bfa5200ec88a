package store

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

func TestGuildSettingsRoundTrip(t *testing.T) {
	c := &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	gs, err := s.GuildSettings(ctx, "g1")
	if err != nil || !reflect.DeepEqual(gs, cribbage.GuildSettings{GuildID: "g1"}) {
		t.Fatalf("a server with no settings: %+v, %v", gs, err)
	}
	twoHours, off := 2*time.Hour, time.Duration(0)
	saved, err := s.UpdateGuildSettings(ctx, "g1", func(gs *cribbage.GuildSettings) error {
		gs.ReminderAfter, gs.ForfeitAfter = &twoHours, &off
		gs.DefaultPoints, gs.GamesChannel, gs.MaxOpenTables, gs.CancelRole, gs.UpdatedBy = 61, "c9", 3, "r7", "admin"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := cribbage.GuildSettings{GuildID: "g1", ReminderAfter: &twoHours, ForfeitAfter: &off, DefaultPoints: 61, GamesChannel: "c9",
		MaxOpenTables: 3, CancelRole: "r7", UpdatedBy: "admin", UpdatedAt: c.t}
	got, err := s.GuildSettings(ctx, "g1")
	if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(saved, want) {
		t.Errorf("round trip\n got %+v (%v)\nsaved %+v\nwant %+v", got, err, saved, want)
	}
	// Off is not unset: a server that turned forfeits off keeps them off.
	if got.Forfeit(7*24*time.Hour) != 0 || got.Reminder(12*time.Hour) != twoHours {
		t.Errorf("timers %v, %v", got.Forfeit(7*24*time.Hour), got.Reminder(12*time.Hour))
	}
	// A failing change saves nothing.
	boom := errors.New("boom")
	if _, err := s.UpdateGuildSettings(ctx, "g1", func(gs *cribbage.GuildSettings) error { gs.DefaultPoints = 121; return boom }); !errors.Is(err, boom) {
		t.Errorf("failing change: %v", err)
	}
	if got, _ := s.GuildSettings(ctx, "g1"); got.DefaultPoints != 61 {
		t.Errorf("a failed change was saved: %d points", got.DefaultPoints)
	}
	// Unset again, the bot's defaults apply.
	if _, err := s.UpdateGuildSettings(ctx, "g2", func(gs *cribbage.GuildSettings) error { gs.ReminderAfter = &twoHours; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateGuildSettings(ctx, "g2", func(gs *cribbage.GuildSettings) error { gs.ReminderAfter = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	all, err := s.AllGuildSettings(ctx)
	if err != nil || len(all) != 2 || all[0].GuildID != "g1" || all[1].GuildID != "g2" || all[1].ReminderAfter != nil {
		t.Errorf("all settings: %+v, %v", all, err)
	}
}

// Admins changing settings at the same moment each see the other's
// change: none is lost (on PostgreSQL the transactions really overlap).
func TestGuildSettingsChangesAtOnceAreKept(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.UpdateGuildSettings(ctx, "g", func(gs *cribbage.GuildSettings) error {
				gs.MaxOpenTables++
				return nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if gs, _ := s.GuildSettings(ctx, "g"); gs.MaxOpenTables != n {
		t.Errorf("%d changes kept of %d", gs.MaxOpenTables, n)
	}
}

func TestCancelledTablesHaveNoResult(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	game := startGame(t, s, newLobby("g", "alice", "bob"))
	lobby, err := s.CreateTable(ctx, newLobby("g", "carol"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{game.ID, lobby.ID} {
		_, err := s.Update(ctx, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			return &cribbage.Change{Table: cur}, cur.Cancel("admin", "spam")
		})
		if err != nil {
			t.Fatal(err)
		}
		got := mustTable(t, s, id)
		if got.Status != cribbage.StatusCancelled || got.CancelledBy != "admin" || got.CancelReason != "spam" || got.FinishedAt.IsZero() {
			t.Errorf("table %d: %s by %q (%q), finished %v", id, got.Status, got.CancelledBy, got.CancelReason, got.FinishedAt)
		}
	}
	var results int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM results`).Scan(&results); err != nil || results != 0 {
		t.Errorf("%d results (%v), want none", results, err)
	}
	if board, err := s.Leaderboard(ctx, "g", time.Time{}); err != nil || len(board) != 0 {
		t.Errorf("leaderboard %+v, %v", board, err)
	}
	if open, err := s.OpenTables(ctx); err != nil || len(open) != 0 {
		t.Errorf("cancelled tables still open: %d, %v", len(open), err)
	}
	if mine, err := s.PlayerTables(ctx, "g", "alice"); err != nil || len(mine) != 0 {
		t.Errorf("alice's open tables: %d, %v", len(mine), err)
	}
	// Over is over: a cancelled table is not cancelled again.
	_, err = s.Update(ctx, game.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur}, cur.Cancel("other", "")
	})
	if !errors.Is(err, cribbage.ErrNotOpen) {
		t.Errorf("cancelled twice: %v", err)
	}
}

// The computer's expert is shown to players as strong, in the seats it
// held before the name changed too.
func TestExpertSeatsAreNamedStrong(t *testing.T) {
	s, path := MustOpen(t)
	ctx := context.Background()
	lobby := newLobby("g", "alice", "bob")
	lobby.Seats[1] = cribbage.Seat{Computer: "expert", Name: "Computer 2 (expert)"}
	tb, err := s.CreateTable(ctx, lobby, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// As a database from before the migration: it runs again on opening.
	if _, err := s.db.ExecContext(ctx, `DELETE FROM schema_migrations WHERE name = '0015_computer_names.sql'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again, err := reopen(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got := mustTable(t, again, tb.ID)
	if got.Seats[1].Name != "Computer 2 (strong)" || got.Seats[1].Computer != "expert" || got.Seats[0].Name != "name-alice" {
		t.Errorf("seats %+v", got.Seats)
	}
}

package store

import (
	"context"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// TestCancelledTablesHaveNoResult: a cancelled game writes no result, rates
// nobody and leaves the leaderboard alone (the rest of cancelling is the conformance
// suite's, servicetest).
func TestCancelledTablesHaveNoResult(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	game := startGame(t, s, newLobby("g", "alice", "bob"))
	if _, err := servicetest.Update(ctx, s, game.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur}, cur.Cancel("admin", "spam")
	}); err != nil {
		t.Fatal(err)
	}
	var results, players, ratings int
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM results), (SELECT COUNT(*) FROM player_results), (SELECT COUNT(*) FROM ratings)`).Scan(&results, &players, &ratings); err != nil ||
		results+players+ratings != 0 {
		t.Errorf("%d results, %d player results, %d ratings (%v), want none", results, players, ratings, err)
	}
	if board, err := s.Leaderboard(ctx, "g", 0, time.Time{}); err != nil || len(board) != 0 {
		t.Errorf("leaderboard %+v, %v", board, err)
	}
	if st, err := s.PlayerStats(ctx, "g", "alice"); err != nil || st.People.Games != 0 {
		t.Errorf("alice's stats %+v, %v", st, err)
	}
}

// The computer's expert is shown to players as strong, in the seats it
// held before the name changed too.
func TestExpertSeatsAreNamedStrong(t *testing.T) {
	s, path := MustOpen(t)
	ctx := context.Background()
	lobby := newLobby("g", "alice", "bob")
	lobby.Seats[1] = cribbage.Seat{Computer: "expert", Name: "Computer 2 (expert)"}
	tb, err := s.CreateTable(ctx, lobby, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	// As a database from before the migration: it runs again on opening.
	if err := s.exec(ctx, `DELETE FROM schema_migrations WHERE name = '0015_computer_names.sql'`); err != nil {
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

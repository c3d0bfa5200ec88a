package store

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// TestPastGamesAreAccountedForWhenNumbersArrive: the migration that
// brings numbers in accounts for the games finished before it exactly as
// the moves that finish games do now, and announces none of their
// milestones: an old game's news would come long after it.
func TestPastGamesAreAccountedForWhenNumbersArrive(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, path := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	servicetest.KnownA(t, s, c.now)
	c.t = c.t.Add(40 * 24 * time.Hour)
	servicetest.KnownB(t, s, c.now)
	since := c.t.Add(-cribbage.RecentDays * 24 * time.Hour)
	live := map[string]cribbage.Numbers{}
	for _, u := range []string{"alice", "bob"} {
		n, err := s.PlayerNumbers(ctx, "g", u, since)
		if err != nil || n.All.Games != 2 || len(n.Milestones) != 1 {
			t.Fatalf("%s's numbers as played: %+v, %v", u, n, err)
		}
		live[u] = n
	}
	if n := countNews(t, s); n != 2 {
		t.Fatalf("%d milestones announced as played, want the two first wins", n)
	}
	// Back to the schema before numbers, the games kept.
	mustWrite(t, s, `DROP TABLE game_numbers`, `DROP TABLE deals`, `DROP TABLE milestones`,
		`DELETE FROM outbox WHERE kind = '`+cribbage.OutboxMilestone+`'`,
		`DELETE FROM schema_migrations WHERE name = '`+numbersMigration+`'`)
	s.Close()
	again, err := reopen(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for u, want := range live {
		got, err := again.PlayerNumbers(ctx, "g", u, since)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s's numbers from history:\n%+v\nas played:\n%+v", u, got, want)
		}
	}
	if n := countNews(t, again); n != 0 {
		t.Errorf("the migration announced %d milestones", n)
	}
}

// countNews counts the milestone announcements queued, delivered or not.
func countNews(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM outbox WHERE kind = ?`, cribbage.OutboxMilestone).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// TestAGameFinishingAsASeasonStartsCountsWhereItFinished: alice and bob
// finish a game while an admin starts season 2. Whichever comes first,
// the game counts in the season that was current when it finished: if
// the new season started (and the admin was told so) before the game's
// finish was written, the game is season 2's, ratings and all.
//
// On PostgreSQL the test holds the finish open after it has read the
// current season, by locking alice's season-1 rating row the finish is
// about to rate (lockRating), and starts the season meanwhile: before
// the season was locked (lockSeason), the season started at once and the
// game was still written into season 1. SQLite writes one transaction at
// a time, so there the two simply race.
func TestAGameFinishingAsASeasonStartsCountsWhereItFinished(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	finishGame(t, s, c, finished{opts: two, seats: people("alice", "bob"), scores: []int{121, 100}, winner: 0, skunks: []int{0, 0}, games: 1})
	tb := startGame(t, s, newLobby("g", "alice", "bob"))

	var release func()
	var blocker int
	if onPostgres() {
		release, blocker = holdRating(t, s, "g", 1, "alice")
	}
	finished := make(chan error, 1)
	go func() {
		_, err := servicetest.Update(ctx, s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			g, _, err := resignAfterAThrow(cur.State, 1)
			if err != nil {
				return nil, err
			}
			cur.SetGame(g, c.now())
			return &cribbage.Change{Table: cur}, nil
		})
		finished <- err
	}()
	finisher := 0
	if onPostgres() {
		finisher = waitBlockedBy(t, s, blocker) // the finish has read the season
	}
	started := make(chan error, 1)
	go func() {
		_, err := s.StartSeason(ctx, "g", "admin", "")
		started <- err
	}()
	startedFirst := false
	if onPostgres() {
		// Either the season starts while the finish is held, or it waits
		// for the finish.
		asking, stop := context.WithCancel(ctx)
		select {
		case err := <-started:
			started <- err
			startedFirst = true
		case <-blockedBy(asking, t, s, finisher):
		}
		stop()
		release()
	}
	if err := <-finished; err != nil {
		t.Fatal(err)
	}
	if err := <-started; err != nil {
		t.Fatal(err)
	}

	var season int
	if err := s.db.QueryRowContext(ctx, `SELECT MIN(season) FROM player_results WHERE table_id = ?`, tb.ID).Scan(&season); err != nil {
		t.Fatal(err)
	}
	if startedFirst && season != 2 {
		t.Errorf("season 2 started before the game's finish was written, but the game counts in season %d", season)
	}
	if onPostgres() && !startedFirst && season != 1 {
		t.Errorf("season 2 waited for the game's finish, but the game counts in season %d", season)
	}
	if _, ok := ratingOf(t, s, season, "alice"); !ok {
		t.Errorf("the game is season %d's, but alice has no rating in it", season)
	}
	if seasons, err := s.Seasons(ctx, "g"); err != nil || len(seasons) != 2 {
		t.Errorf("seasons %+v, %v; want 2", seasons, err)
	}
}

// holdRating locks a rating row from a transaction of the test's own,
// until release, and returns that transaction's backend pid.
func holdRating(t *testing.T, s *Store, guild string, season int, user string) (release func(), pid int) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.db.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM ratings WHERE guild_id = $1 AND season = $2 AND user_id = $3 FOR UPDATE`,
		guild, season, user).Scan(&one); err != nil {
		tx.Rollback()
		t.Fatal(err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		tx.Rollback()
		t.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			tx.Rollback()
		}
	}
	t.Cleanup(release)
	return release, pid
}

// blockedBy returns a channel that receives the pid of a backend waiting
// on a lock pid holds, once there is one. It asks the server until then,
// or until ctx ends; it closes the channel without a pid if asking fails.
func blockedBy(ctx context.Context, t *testing.T, s *Store, pid int) <-chan int {
	ch := make(chan int, 1)
	go func() {
		defer close(ch)
		for ctx.Err() == nil {
			var waiter int
			err := s.db.db.QueryRowContext(ctx,
				`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) LIMIT 1`, pid).Scan(&waiter)
			switch {
			case err == nil:
				ch <- waiter
				return
			case err != sql.ErrNoRows:
				if ctx.Err() == nil {
					t.Error(err)
				}
				return
			}
			time.Sleep(time.Millisecond) // how often it asks, not what it waits for
		}
	}()
	return ch
}

// waitBlockedBy waits for a backend to wait on pid's locks, and returns
// its pid.
func waitBlockedBy(t *testing.T, s *Store, pid int) int {
	t.Helper()
	waiter, ok := <-blockedBy(context.Background(), t, s, pid)
	if !ok {
		t.FailNow()
	}
	return waiter
}

package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// TestTwoHandlesOnOneDatabase runs two stores on one database, as two
// replicas would: moves at one table raced from both, every interaction
// sent to both, and tables created from both at once. Each interaction is
// applied once, no move is lost or applied on a stale game, and no two
// tables or announcements share an id.
func TestTwoHandlesOnOneDatabase(t *testing.T) {
	ctx := context.Background()
	a, path := MustOpen(t)
	b, err := reopen(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	replicas := []*Store{a, b}
	tb := startGame(t, a, newLobby("g", "x", "y"))

	var applied, duplicates, stale atomic.Int32
	var wg sync.WaitGroup
	for i := range 24 {
		id := fmt.Sprintf("i-%d", i)
		for _, s := range replicas { // the same interaction reaches both
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := step(t, s, tb.ID, id)
				switch {
				case err == nil:
					applied.Add(1)
				case errors.Is(err, cribbage.ErrDuplicate):
					duplicates.Add(1)
				case errors.Is(err, cribbage.ErrStale):
					stale.Add(1)
				default:
					t.Errorf("interaction %s: %v", id, err)
				}
			}()
		}
	}
	wg.Wait()
	final := mustTable(t, b, tb.ID)
	if got := final.Version - tb.Version; got != int64(applied.Load()) {
		t.Errorf("%d moves applied, but the version moved %d", applied.Load(), got)
	}
	if applied.Load() == 0 || applied.Load() > 24 {
		t.Errorf("%d of 24 interactions applied", applied.Load())
	}
	actions, err := a.Actions(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != int(applied.Load()) {
		t.Errorf("%d actions logged for %d moves applied", len(actions), applied.Load())
	}

	// Tables and their announcements created from both at once.
	ids := make(chan int64, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			created, err := replicas[i%2].CreateTable(ctx, newLobby("g", "p", "q"), fmt.Sprintf("c-%d", i), []cribbage.Outbound{{ChannelID: "c1", Kind: "table"}}, cribbage.Hold{})
			if err != nil {
				t.Errorf("create: %v", err)
				return
			}
			ids <- created.ID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[int64]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("table id %d given twice", id)
		}
		seen[id] = true
	}
	pending, err := b.PendingOutbox(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	outbox := map[int64]bool{}
	for _, it := range pending {
		if outbox[it.ID] {
			t.Errorf("announcement id %d given twice", it.ID)
		}
		outbox[it.ID] = true
	}
	t.Logf("%s: %d applied, %d duplicates refused, %d stale refused; %d tables created", a.db.d.name(), applied.Load(), duplicates.Load(), stale.Load(), len(seen))
}

// TestTheSuiteRunsOnItsDatabase makes sure each run of the suite is on the
// database it says: the PostgreSQL run really talks to PostgreSQL.
func TestTheSuiteRunsOnItsDatabase(t *testing.T) {
	s, _ := MustOpen(t)
	var version string
	query := `SELECT sqlite_version()`
	if onPostgres() {
		query = `SELECT version()`
	}
	if err := s.db.QueryRowContext(context.Background(), query).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if (s.db.d.name() == "postgres") != onPostgres() {
		t.Fatalf("the %s run opened a %s store", map[bool]string{true: "PostgreSQL", false: "SQLite"}[onPostgres()], s.db.d.name())
	}
	t.Logf("%s %s", s.db.d.name(), version)
}

// TestOutboxLeasesAreSharedByHandles: the leases live in the database, so
// two processes' senders, each on a handle of its own, never both send a
// table's announcements: one handle's live lease holds against the other,
// and its release frees the tables for the other at once. (What a lease
// is — renewing, lapsing, releasing — is the conformance suite's, in
// internal/servicetest.)
func TestOutboxLeasesAreSharedByHandles(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	a, path := MustOpen(t, WithClock(c.now))
	b, err := reopen(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := range 4 {
		if _, err := a.CreateTable(ctx, newLobby("g", "p", "q"), fmt.Sprintf("i-%d", i), []cribbage.Outbound{{ChannelID: "c", Kind: "table"}}, cribbage.Hold{}); err != nil {
			t.Fatal(err)
		}
	}
	const lease = 30 * time.Second
	if got, err := a.ClaimOutbox(ctx, "A", 0, 100, lease); err != nil || len(got) != 4 {
		t.Fatalf("A's claim: %d announcements, %v", len(got), err)
	}
	if got, err := b.ClaimOutbox(ctx, "B", 0, 100, lease); err != nil || len(got) != 0 {
		t.Fatalf("B, on another handle, took %d announcements from A's live leases (%v)", len(got), err)
	}
	if err := a.ReleaseOutbox(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.ClaimOutbox(ctx, "B", 0, 100, lease); err != nil || len(got) != 4 {
		t.Errorf("B after A released: %d announcements, %v", len(got), err)
	}
}

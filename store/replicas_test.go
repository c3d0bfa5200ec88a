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
			created, err := replicas[i%2].CreateTable(ctx, newLobby("g", "p", "q"), fmt.Sprintf("c-%d", i), []cribbage.Outbound{{ChannelID: "c1", Kind: "table"}})
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

// TestOutboxLeasesGiveEachTableOneSender: two processes' senders claim the
// outbox. A table's announcements go to one of them only; the holder keeps
// the table by renewing; a lease left to lapse (a dead process) passes to
// the other, and a released one passes at once.
func TestOutboxLeasesGiveEachTableOneSender(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	a, path := MustOpen(t, WithClock(c.now))
	b, err := reopen(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var tables []int64
	for i := range 4 {
		tb, err := a.CreateTable(ctx, newLobby("g", "p", "q"), fmt.Sprintf("i-%d", i), []cribbage.Outbound{{ChannelID: "c", Kind: "table"}, {ChannelID: "c", Kind: "post", Payload: "x"}})
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb.ID)
	}
	owners := func(items []cribbage.OutboxItem) map[int64]int {
		out := map[int64]int{}
		for _, it := range items {
			out[it.TableID]++
		}
		return out
	}
	lease := 30 * time.Second
	gotA, err := a.ClaimOutbox(ctx, "A", 100, lease)
	if err != nil || len(owners(gotA)) != 4 || len(gotA) != 8 {
		t.Fatalf("A's first claim: %v tables, %d items, %v", owners(gotA), len(gotA), err)
	}
	if gotB, err := b.ClaimOutbox(ctx, "B", 100, lease); err != nil || len(gotB) != 0 {
		t.Fatalf("B took %v from A's live leases (%v)", owners(gotB), err)
	}
	// A renews at 20 s; at 40 s its leases still hold.
	c.t = c.t.Add(20 * time.Second)
	if _, err := a.ClaimOutbox(ctx, "A", 100, lease); err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(20 * time.Second)
	if gotB, _ := b.ClaimOutbox(ctx, "B", 100, lease); len(gotB) != 0 {
		t.Fatalf("B took a renewed lease: %v", owners(gotB))
	}
	// A dies: after its lease, B has every table.
	c.t = c.t.Add(lease + time.Second)
	gotB, err := b.ClaimOutbox(ctx, "B", 100, lease)
	if err != nil || len(owners(gotB)) != 4 {
		t.Fatalf("B after A's leases lapsed: %v, %v", owners(gotB), err)
	}
	if gotA, _ := a.ClaimOutbox(ctx, "A", 100, lease); len(gotA) != 0 {
		t.Fatalf("A, back, took B's tables: %v", owners(gotA))
	}
	// B releases on shutdown: A takes over at once.
	if err := b.ReleaseOutbox(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	if gotA, _ := a.ClaimOutbox(ctx, "A", 100, lease); len(owners(gotA)) != 4 {
		t.Fatalf("A after B released: %v", owners(gotA))
	}
	// Delivered tables drop out of the claim.
	var ids []int64
	for _, it := range gotA {
		if it.TableID == tables[0] {
			ids = append(ids, it.ID)
		}
	}
	if err := a.MarkDelivered(ctx, ids...); err != nil {
		t.Fatal(err)
	}
	if gotA, _ := a.ClaimOutbox(ctx, "A", 100, lease); owners(gotA)[tables[0]] != 0 || len(owners(gotA)) != 3 {
		t.Errorf("after delivering table %d: %v", tables[0], owners(gotA))
	}
}

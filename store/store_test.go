package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

func TestMigrationsFromEmptyAndAgain(t *testing.T) {
	s, path := MustOpen(t)
	ctx := context.Background()
	count := func(s *Store) int {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := count(s)
	if first == 0 {
		t.Fatal("no migration recorded")
	}
	if _, err := s.CreateTable(ctx, newLobby("g", "a", "b"), "", nil, cribbage.Hold{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again, err := reopen(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if count(again) != first {
		t.Errorf("re-opening applied migrations again")
	}
	if tables, err := again.OpenTables(ctx); err != nil || len(tables) != 1 {
		t.Errorf("tables after reopening: %v, %v", tables, err)
	}
}

func TestOpenRefusesBadFiles(t *testing.T) {
	skipOnPostgres(t, "files that are not databases")
	ctx := context.Background()
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte("these are not the pages of a database, just some words that go on for a while\n"), 0o644)
	if _, err := Open(ctx, notDB); err == nil {
		t.Error("a text file was opened as a database")
	}
	if _, err := Open(ctx, dir); err == nil {
		t.Error("a directory was opened as a database")
	}
	if _, err := Open(ctx, filepath.Join(dir, "missing", "deeper", "x.db")); err == nil {
		t.Error("an unreachable path was opened")
	}
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	ctx := context.Background()
	s, path := MustOpen(t)
	err := s.inTx(ctx, func(tx *txn) error {
		_, err := tx.exec(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_future.sql', 0)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := reopen(ctx, path); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("newer schema: %v, want ErrNewerSchema", err)
	}
}

// TestCompareAndSwapWithoutTheLock checks the version guard itself, as two
// processes sharing a database would meet it: a save from an old version
// is refused even when nothing else serialises the writers.
func TestCompareAndSwapWithoutTheLock(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	if _, err := step(t, s, tb.ID, ""); err != nil {
		t.Fatal(err)
	}
	row, _ := encodeTable(tb)
	err := s.inTx(ctx, func(tx *txn) error { return s.saveRow(ctx, tx, tb, row, tb.Version) })
	if !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("save from an old version: %v, want ErrStale", err)
	}
}

// TestTableOutboxKeepsDelivered: TableOutbox, which is not a service but
// for tests and looking into a store, lists a table's announcements
// delivered or not, a sealed one with what it carries. (The services'
// outbox is held to the conformance suite, internal/servicetest.)
func TestTableOutboxKeepsDelivered(t *testing.T) {
	s, tb, items := threeMoves(t)
	ctx := context.Background()
	if err := s.Seal(ctx, items[0].ID, items[2].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkDelivered(ctx, items[0].ID); err != nil {
		t.Fatal(err)
	}
	all, err := s.TableOutbox(ctx, tb.ID)
	if err != nil || len(all) != len(items) {
		t.Fatalf("TableOutbox: %d of %d, %v", len(all), len(items), err)
	}
	if all[0].ID != items[0].ID || all[0].SealedThrough != items[2].ID || all[0].Attempts != 1 {
		t.Errorf("the delivered announcement: %+v", all[0])
	}
}

// TestAPanickingWriteLeavesTheStoreUsable injects a panic into writes
// batched with others: each panic reaches its own caller with its writes
// undone, the other writes of the batch commit, and the store goes on
// taking writes (before, the write lock stayed held until a restart).
func TestAPanickingWriteLeavesTheStoreUsable(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	var wg sync.WaitGroup
	var panics, steps atomic.Int32
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				defer func() {
					if recover() != nil {
						panics.Add(1)
					}
				}()
				s.inTx(ctx, func(tx *txn) error {
					if _, err := tx.exec(ctx, `UPDATE tables SET host_id = 'panicked' WHERE id = ?`, tb.ID); err != nil {
						return err
					}
					panic("injected")
				})
				return
			}
			if _, err := step(t, s, tb.ID, ""); err == nil {
				steps.Add(1)
			}
		}()
	}
	wg.Wait()
	if panics.Load() != 8 {
		t.Errorf("%d of 8 panics reached their callers", panics.Load())
	}
	if _, err := step(t, s, tb.ID, ""); err != nil {
		t.Fatalf("a write after the panics: %v", err)
	}
	if got := mustTable(t, s, tb.ID); got.HostID == "panicked" {
		t.Error("a panicking write was committed")
	}
	t.Logf("%d of 8 concurrent moves committed beside the panics", steps.Load())
}

// threeMoves starts a game, makes three moves and returns the store, the
// table and the announcements pending.
func threeMoves(t *testing.T) (*Store, *cribbage.Table, []cribbage.OutboxItem) {
	t.Helper()
	s, _ := MustOpen(t)
	tb := startGame(t, s, newLobby("g", "a", "b"))
	for i := 0; i < 3; i++ {
		if _, err := step(t, s, tb.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	items, err := s.PendingOutbox(context.Background(), 100)
	if err != nil || len(items) < 3 {
		t.Fatalf("pending %d, %v", len(items), err)
	}
	return s, tb, items
}

// TestABatchThatPanicsFailsEveryWriteInIt: a panic outside the writes
// themselves (here in beginning the transaction, on a connection with no
// database) tells every write of the batch it failed, with an error and
// no panic of its own, instead of leaving their callers waiting.
func TestABatchThatPanicsFailsEveryWriteInIt(t *testing.T) {
	ctx := context.Background()
	var batch []*writeRequest
	for range 3 {
		batch = append(batch, &writeRequest{ctx: ctx, fn: func(*txn) error { return nil }, done: make(chan error, 1)})
	}
	commitBatch(&conn{}, batch)
	for i, r := range batch {
		select {
		case err := <-r.done:
			var p *panicError
			if err == nil || errors.As(err, &p) {
				t.Errorf("write %d: %v, want an error that is no write's own panic", i+1, err)
			}
		default:
			t.Errorf("write %d was never told how its batch went", i+1)
		}
	}
}

// TestOnlyAMoveIsSavedAsOne: a change that left every column but the
// version, the game, the last action and the wait as they were is saved
// as a move (saveMove, which leaves the table's indexes alone); a change
// of any other column of saveRow's, alone, is saved whole. Every column
// saveRow sets has its case here, so one added there without teaching
// moveOnly fails; and a move saved and read back is the move.
func TestOnlyAMoveIsSavedAsOne(t *testing.T) {
	seed := engine.SeedFromUint64(7)
	cases := []struct {
		columns []string // the columns of saveRow's the change sets
		change  func(t *cribbage.Table)
		move    bool
	}{
		{[]string{"version", "state", "last_action_at", "waiting_since"}, func(t *cribbage.Table) {
			t.Version++
			t.State = t.State.Clone()
			t.State.HandNo++
			t.LastActionAt = t.LastActionAt.Add(time.Minute)
			t.WaitingSince = t.LastActionAt
		}, true},
		{[]string{"status"}, func(t *cribbage.Table) { t.Status = cribbage.StatusFinished }, false},
		{[]string{"host_id"}, func(t *cribbage.Table) { t.HostID = "c" }, false},
		{[]string{"players"}, func(t *cribbage.Table) { t.Options.Players = 3 }, false},
		{[]string{"partners"}, func(t *cribbage.Table) { t.Options.Partners = true }, false},
		{[]string{"target"}, func(t *cribbage.Table) { t.Options.Target = 61 }, false},
		{[]string{"manual_counting"}, func(t *cribbage.Table) { t.Options.ManualCounting = true }, false},
		{[]string{"muggins"}, func(t *cribbage.Table) { t.Options.Muggins = true }, false},
		{[]string{"computer"}, func(t *cribbage.Table) { t.Computer = "hard" }, false},
		{[]string{"cut_seed"}, func(t *cribbage.Table) { t.CutSeed = &seed }, false},
		{[]string{"match_state"}, func(t *cribbage.Table) { t.Match = &cribbage.Match{BestOf: 3, Game: 1} }, false},
		{[]string{"challenge"}, func(t *cribbage.Table) { t.Challenge = &cribbage.Challenge{UserID: "b"} }, false},
		{[]string{"rematch_offer", "offered_at"}, func(t *cribbage.Table) { t.Offer = &cribbage.RematchOffer{By: "a"} }, false},
		{[]string{"started_at"}, func(t *cribbage.Table) { t.StartedAt = t.StartedAt.Add(time.Second) }, false},
		{[]string{"finished_at"}, func(t *cribbage.Table) { t.FinishedAt = t.LastActionAt }, false},
		{[]string{"cancelled_by"}, func(t *cribbage.Table) { t.CancelledBy = "a" }, false},
		{[]string{"cancel_reason"}, func(t *cribbage.Table) { t.CancelReason = "bored" }, false},
	}
	known := map[string]bool{}
	for _, c := range cases {
		for _, col := range c.columns {
			known[col] = true
		}
	}
	set, _, _ := strings.Cut(strings.TrimPrefix(saveRowSQL, "UPDATE tables SET "), "WHERE")
	for _, assign := range strings.Split(set, ",") {
		if col := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(assign), "= ?")); !known[col] {
			t.Errorf("saveRow sets %s, which no case here changes: teach moveOnly and this test about it", col)
		}
	}
	s, _ := MustOpen(t)
	cur := startGame(t, s, newLobby("g", "a", "b"))
	for _, c := range cases {
		t.Run(strings.Join(c.columns, ","), func(t *testing.T) {
			next := cur.Clone()
			c.change(next)
			row, err := encodeTable(next)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := moveOnly(cur, next, row); err != nil || got != c.move {
				t.Errorf("moveOnly = %v, %v; want %v", got, err, c.move)
			}
		})
	}

	// A move saved as one reads back as saved.
	saved, err := step(t, s, cur.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	back := mustTable(t, s, cur.ID)
	if back.Version != saved.Version || millis(back.LastActionAt) != millis(saved.LastActionAt) || millis(back.WaitingSince) != millis(saved.WaitingSince) ||
		!reflect.DeepEqual(back.State, saved.State) {
		t.Errorf("the move read back: version %d, last action %v, waiting since %v; saved %d, %v, %v (or its game differs)",
			back.Version, back.LastActionAt, back.WaitingSince, saved.Version, saved.LastActionAt, saved.WaitingSince)
	}
}

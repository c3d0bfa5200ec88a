package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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
	if _, err := s.CreateTable(ctx, newLobby("g", "a", "b"), "", nil); err != nil {
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

func TestTableRoundTrip(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	lobby := newLobby("g1", "alice", "bob", "carol", "dan")
	lobby.Options = engine.Options{Players: 4, Partners: true, Target: 61, ManualCounting: true, Muggins: true}
	lobby.Computer = "expert"
	lobby.FourColour = true
	lobby.Seats[3] = cribbage.Seat{Computer: "expert", Name: "Computer"}
	created, err := s.CreateTable(ctx, lobby, "i-1", []cribbage.Outbound{{ChannelID: "c1", Kind: "table", Payload: "{}"}})
	if err != nil {
		t.Fatal(err)
	}
	if created.ID == 0 || created.Version != 1 || created.CreatedAt.IsZero() {
		t.Fatalf("created %+v", created)
	}
	if err := s.SetMessages(ctx, created.ID, "m1", "th1"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordBoard(ctx, created.ID, "board-key"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Table(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneTable(created)
	want.MessageID, want.ThreadID, want.Board = "m1", "th1", "board-key"
	want.CreatedAt, want.LastActionAt = got.CreatedAt, got.LastActionAt // stored at millisecond precision
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip\n got %+v\nwant %+v", got, want)
	}

	started := startGame(t, s, newLobby("g1", "x", "y"))
	for i := 0; i < 5; i++ {
		if started, err = step(t, s, started.ID, fmt.Sprintf("step-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := s.Table(ctx, started.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(loaded.State)
	b, _ := json.Marshal(started.State)
	if string(a) != string(b) || *loaded.CutSeed != *started.CutSeed || loaded.Version != started.Version || loaded.StartedAt.IsZero() {
		t.Errorf("game did not round-trip")
	}
	actions, err := s.Actions(ctx, started.ID)
	if err != nil || len(actions) != 5 {
		t.Fatalf("actions %v, %v", actions, err)
	}
	// The log replays to the saved state.
	g, _, _ := engine.New(loaded.Options, *loaded.CutSeed)
	for _, la := range actions {
		if g, _, err = g.Apply(la.Action); err != nil {
			t.Fatal(err)
		}
	}
	if c, _ := json.Marshal(g); string(c) != string(a) {
		t.Errorf("replaying the log gives another state")
	}
}

func TestUpdateIsAllOrNothing(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	pending, _ := s.PendingOutbox(ctx, 100)
	_, err := s.Update(ctx, tb.ID, "will-fail", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return nil, engine.ErrNotYourTurn
	})
	if !errors.Is(err, engine.ErrNotYourTurn) {
		t.Fatalf("error %v", err)
	}
	after, _ := s.Table(ctx, tb.ID)
	if after.Version != tb.Version {
		t.Error("a failed update changed the version")
	}
	if again, _ := s.PendingOutbox(ctx, 100); len(again) != len(pending) {
		t.Error("a failed update queued announcements")
	}
	// The failed interaction was not recorded: a retry may succeed.
	if _, err := step(t, s, tb.ID, "will-fail"); err != nil {
		t.Errorf("retry of a failed interaction: %v", err)
	}
}

func TestDuplicateInteractionsApplyOnce(t *testing.T) {
	s, _ := MustOpen(t)
	tb := startGame(t, s, newLobby("g", "a", "b"))
	if _, err := step(t, s, tb.ID, "same"); err != nil {
		t.Fatal(err)
	}
	if _, err := step(t, s, tb.ID, "same"); !errors.Is(err, cribbage.ErrDuplicate) {
		t.Errorf("second application: %v, want ErrDuplicate", err)
	}
	if _, err := s.CreateTable(context.Background(), newLobby("g", "a", "b"), "same", nil); !errors.Is(err, cribbage.ErrDuplicate) {
		t.Errorf("create with a used interaction: %v, want ErrDuplicate", err)
	}
}

// TestConcurrentActionsApplyOnce fires many goroutines at the same version:
// exactly one applies, every other is told the table is stale.
func TestConcurrentActionsApplyOnce(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	const workers = 32
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			_, errs[w] = s.Update(ctx, tb.ID, fmt.Sprintf("click-%d", w), func(cur *cribbage.Table) (*cribbage.Change, error) {
				// Each click was made on the version the player saw.
				if cur.Version != tb.Version {
					return nil, cribbage.ErrStale
				}
				g, _, err := cur.State.Apply(nextAction(cur.State, engine.SeedFromUint64(1)))
				if err != nil {
					return nil, err
				}
				cur.State = g
				return &cribbage.Change{Table: cur}, nil
			})
		}(w)
	}
	wg.Wait()
	applied := 0
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case !errors.Is(err, cribbage.ErrStale):
			t.Errorf("unexpected error %v", err)
		}
	}
	final, _ := s.Table(ctx, tb.ID)
	if applied != 1 || final.Version != tb.Version+1 {
		t.Errorf("%d applied, version %d → %d", applied, tb.Version, final.Version)
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

func TestOpenAndPlayerTables(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	a := startGame(t, s, newLobby("g1", "alice", "bob"))
	if _, err := s.CreateTable(ctx, newLobby("g1", "alice", "carol"), "", nil); err != nil {
		t.Fatal(err)
	}
	startGame(t, s, newLobby("g2", "alice", "bob"))
	_, err := s.Update(ctx, a.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 0})
		cur.State, cur.Status = g, cribbage.StatusFinished
		return &cribbage.Change{Table: cur}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	open, _ := s.OpenTables(ctx)
	mine, _ := s.PlayerTables(ctx, "g1", "alice")
	bobs, _ := s.PlayerTables(ctx, "g1", "bob")
	if len(open) != 2 || len(mine) != 1 || len(bobs) != 0 {
		t.Errorf("open %d, alice's in g1 %d, bob's in g1 %d", len(open), len(mine), len(bobs))
	}
	if finished, _ := s.Table(ctx, a.ID); finished.FinishedAt.IsZero() {
		t.Error("finished time not set")
	}
}

func TestOutboxOrderAndRetries(t *testing.T) {
	s, _, items := threeMoves(t)
	ctx := context.Background()
	for i := 1; i < len(items); i++ {
		if items[i].ID <= items[i-1].ID {
			t.Fatalf("outbox out of order")
		}
	}
	first := items[0]
	if err := s.MarkFailed(ctx, first.ID, first.CreatedAt.Add(5e9)); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkDelivered(ctx, items[1].ID); err != nil {
		t.Fatal(err)
	}
	again, _ := s.PendingOutbox(ctx, 100)
	if len(again) != len(items)-1 || again[0].ID != first.ID || again[0].Attempts != 1 || again[0].NextAttemptAt.IsZero() {
		t.Errorf("after a failure and a delivery: %+v", again[:2])
	}
	// One table's queue is its undelivered announcements, in order.
	mine, err := s.TablePending(ctx, first.TableID)
	if err != nil || len(mine) != len(again) {
		t.Fatalf("TablePending: %d items, %v; want %d", len(mine), err, len(again))
	}
	for i := range mine {
		if mine[i].ID != again[i].ID {
			t.Errorf("TablePending[%d] = %d, want %d", i, mine[i].ID, again[i].ID)
		}
	}
	if none, err := s.TablePending(ctx, first.TableID+1000); err != nil || len(none) != 0 {
		t.Errorf("another table's queue: %d items, %v", len(none), err)
	}
}

// TestUpdateKeepsMessagesSetMeanwhile: recording the table's message and
// thread while an update is under way must survive the update, though it
// changes no version.
func TestUpdateKeepsMessagesSetMeanwhile(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	_, err := s.Update(ctx, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		// The update has read the table; now the thread is recorded.
		if err := s.SetMessages(ctx, tb.ID, "msg-1", "thread-1"); err != nil {
			return nil, err
		}
		g, _, err := cur.State.Apply(nextAction(cur.State, engine.SeedFromUint64(1)))
		cur.State = g
		return &cribbage.Change{Table: cur}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Table(ctx, tb.ID); got.MessageID != "msg-1" || got.ThreadID != "thread-1" {
		t.Errorf("after the update: message %q, thread %q", got.MessageID, got.ThreadID)
	}
}

func TestAssistedGamesAreMarked(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	if err := s.MarkAssisted(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	_, err := s.Update(ctx, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		if !cur.Assisted {
			t.Error("the table does not show it was assisted")
		}
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 1})
		cur.State, cur.Status = g, cribbage.StatusFinished
		return &cribbage.Change{Table: cur}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := s.Assisted(ctx, tb.ID); err != nil || !a {
		t.Errorf("result assisted %v, %v", a, err)
	}
	other := startGame(t, s, newLobby("g", "a", "b"))
	s.Update(ctx, other.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		g, _, err := cur.State.Apply(engine.Action{Kind: engine.ActResign, Seat: 1})
		cur.State, cur.Status = g, cribbage.StatusFinished
		return &cribbage.Change{Table: cur}, err
	})
	if a, _ := s.Assisted(ctx, other.ID); a {
		t.Error("a game without hints is marked assisted")
	}
}

func TestTimersFireOnce(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	defer s.Close()
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	lobby, _ := s.CreateTable(ctx, newLobby("g", "c", "d"), "", nil)
	c.t = c.t.Add(13 * time.Hour)
	idle, err := s.IdleTables(ctx, c.t.Add(-12*time.Hour), c.t.Add(-24*time.Hour))
	if err != nil || len(idle) != 2 {
		t.Fatalf("idle %d, %v", len(idle), err)
	}
	if idle, _ := s.IdleTables(ctx, c.t.Add(-14*time.Hour), c.t.Add(-24*time.Hour)); len(idle) != 0 {
		t.Errorf("%d tables idle for 14 hours", len(idle))
	}
	out := []cribbage.Outbound{{ChannelID: "c", Kind: "post", Payload: "{}"}}
	first, err1 := s.MarkReminded(ctx, tb.ID, time.Time{}, c.t, out)
	second, err2 := s.MarkReminded(ctx, tb.ID, time.Time{}, c.t, out)
	if err1 != nil || err2 != nil || !first || second {
		t.Errorf("reminded %v then %v (%v, %v)", first, second, err1, err2)
	}
	pending, _ := s.PendingOutbox(ctx, 100)
	if len(pending) != 1 {
		t.Errorf("%d reminders queued, want 1", len(pending))
	}
	if got, _ := s.Table(ctx, tb.ID); !got.RemindedAt.Equal(c.t) || got.Version != tb.Version {
		t.Errorf("reminded at %v, version %d → %d", got.RemindedAt, tb.Version, got.Version)
	}
	_ = lobby
}

// TestSealOnce: an announcement is sealed once, with the last line merged
// into it; sealing again, or sealing one delivered, is refused.
func TestSealOnce(t *testing.T) {
	s, tb, items := threeMoves(t)
	ctx := context.Background()
	head, last := items[0], items[2]
	if err := s.Seal(ctx, head.ID, last.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(ctx, head.ID, last.ID+1); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("sealed twice: %v, want ErrStale", err)
	}
	again, _ := s.PendingOutbox(ctx, 100)
	if again[0].SealedThrough != last.ID || again[1].SealedThrough != 0 {
		t.Errorf("sealed through %d and %d, want %d and 0", again[0].SealedThrough, again[1].SealedThrough, last.ID)
	}
	if err := s.MarkDelivered(ctx, items[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(ctx, items[1].ID, items[1].ID); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("sealed a delivered announcement: %v, want ErrStale", err)
	}
	all, err := s.TableOutbox(ctx, tb.ID)
	if err != nil || len(all) != len(items) {
		t.Errorf("TableOutbox: %d of %d, %v", len(all), len(items), err)
	}
}

// TestUpdateRecordsTheTableMessageOnce: a change may record the table
// message when none is known, and never replaces one that is.
func TestUpdateRecordsTheTableMessageOnce(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	save := func(id string) {
		t.Helper()
		if _, err := s.Update(ctx, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			cur.MessageID = id
			return &cribbage.Change{Table: cur}, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	save("from-a-click")
	if got := mustTable(t, s, tb.ID).MessageID; got != "from-a-click" {
		t.Fatalf("message %q after a change recorded it", got)
	}
	save("another")
	if err := s.RecordTableMessage(ctx, tb.ID, "from-the-answer"); err != nil {
		t.Fatal(err)
	}
	if got := mustTable(t, s, tb.ID).MessageID; got != "from-a-click" {
		t.Errorf("message %q, want the first one recorded", got)
	}
}

// TestEditTokensKeepTheNewest: of two tokens that can edit the table
// message, recorded in either order (two replicas answering two clicks),
// the table keeps the newer, which lives longer; a game change leaves it.
func TestEditTokensKeepTheNewest(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	tb := startGame(t, s, newLobby("g", "a", "b"))
	at := time.UnixMilli(1_700_000_000_000)
	older := cribbage.MessageToken{MessageID: "m1", Token: "older", At: at}
	newer := cribbage.MessageToken{MessageID: "m1", Token: "newer", At: at.Add(time.Minute)}
	for _, tok := range []cribbage.MessageToken{newer, older} {
		if err := s.RecordEditToken(ctx, tb.ID, tok); err != nil {
			t.Fatal(err)
		}
	}
	same := func(a, b cribbage.MessageToken) bool {
		return a.MessageID == b.MessageID && a.Token == b.Token && a.At.Equal(b.At)
	}
	if got := mustTable(t, s, tb.ID).EditToken; !same(got, newer) {
		t.Errorf("token %+v after newer then older, want %+v", got, newer)
	}
	if _, err := s.Update(ctx, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.Assisted = true
		return &cribbage.Change{Table: cur}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := mustTable(t, s, tb.ID).EditToken; !same(got, newer) {
		t.Errorf("token %+v after a change, want %+v", got, newer)
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

// TestRematchIsMadeOnce: eight simultaneous rematches of one table make
// one table; the others get it back with ErrRematched.
func TestRematchIsMadeOnce(t *testing.T) {
	s, _ := MustOpen(t)
	ctx := context.Background()
	prev := startGame(t, s, newLobby("g", "a", "b"))
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, refused := map[int64]int{}, 0
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next, err := s.Rematch(ctx, prev.ID, fmt.Sprint("click-", k), func(p, next *cribbage.Table) (*cribbage.Change, error) {
				next.GuildID, next.ChannelID, next.HostID, next.Options, next.Status = p.GuildID, p.ChannelID, p.HostID, p.Options, cribbage.StatusLobby
				next.Seats = p.Seats
				return &cribbage.Change{Table: next, Outbox: []cribbage.Outbound{{ChannelID: p.ChannelID, Kind: "post", Payload: "rematch"}}}, nil
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				made[next.ID]++
			case errors.Is(err, cribbage.ErrRematched) && next != nil:
				refused++
				made[next.ID] += 0
			default:
				t.Errorf("rematch: %v", err)
			}
		}()
	}
	wg.Wait()
	if len(made) != 1 || refused != 7 {
		t.Fatalf("tables %v, %d refused; want one table and 7 refusals", made, refused)
	}
	for id := range made {
		if got := mustTable(t, s, prev.ID).RematchID; got != id {
			t.Errorf("the table records rematch %d, want %d", got, id)
		}
		if tb := mustTable(t, s, id); len(tb.Seats) != 2 || tb.Version != 1 {
			t.Errorf("rematch table %+v", tb)
		}
	}
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

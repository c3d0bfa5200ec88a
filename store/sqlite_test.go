package store

import (
	"context"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// alongOf is the SQLite dialect of s, whose writes that can wait wait up
// to wait for another's batch.
func alongOf(t *testing.T, s *Store, wait time.Duration) *sqlite {
	t.Helper()
	d, ok := s.db.d.(*sqlite)
	if !ok {
		t.Fatalf("the store's dialect is %s", s.db.d.name())
	}
	d.along = wait
	return d
}

// queued waits until n writes are queued for the next batch.
func queued(t *testing.T, d *sqlite, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		d.pendingMu.Lock()
		got := len(d.pending)
		d.pendingMu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// recordingTable opens a SQLite store with one table whose message and
// views the tests record, and its dialect, whose writes that can wait
// wait up to wait for another's batch.
func recordingTable(t *testing.T, wait time.Duration) (*Store, *sqlite, int64) {
	t.Helper()
	skipOnPostgres(t, "SQLite's batches")
	s, _ := MustOpen(t)
	created, err := s.CreateTable(context.Background(), newLobby("g", "a", "b"), "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	return s, alongOf(t, s, wait), created.ID
}

// TestARecordOfWhatDiscordShowsGoesWithTheNextWrite: a record of what a
// table message shows waits for the next write and is committed in its
// batch, at no commit of its own.
func TestARecordOfWhatDiscordShowsGoesWithTheNextWrite(t *testing.T) {
	// Only the next write takes it: a batch has just begun, and the
	// record would wait an hour before going on its own.
	s, d, id := recordingTable(t, time.Hour)
	ctx := context.Background()
	d.lastBatch.Store(time.Now().UnixNano())
	before := d.batches.Load()
	recorded := make(chan error, 1)
	go func() { recorded <- s.RecordShown(ctx, id, "sum-1") }()
	queued(t, d, 1)
	if err := s.RecordBoard(ctx, id, "board-1"); err != nil {
		t.Fatal(err)
	}
	if err := <-recorded; err != nil {
		t.Fatal(err)
	}
	if n := d.batches.Load() - before; n != 1 {
		t.Errorf("the record and the write took %d batches, want 1", n)
	}
	m, err := s.TableMessage(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Shown != "sum-1" || m.Board != "board-1" {
		t.Errorf("recorded shown %q and board %q, want sum-1 and board-1", m.Shown, m.Board)
	}
}

// TestARecordOfWhatDiscordShowsGoesAloneWhenNothingElseDoes: on a quiet
// server, no batch under way and none begun for longer than its wait, a
// record of what a hand view shows waits for no other write: it is
// committed at once, on its own.
func TestARecordOfWhatDiscordShowsGoesAloneWhenNothingElseDoes(t *testing.T) {
	// Were it to wait, it would wait an hour.
	s, d, id := recordingTable(t, time.Hour)
	ctx := context.Background()
	tok := cribbage.MessageToken{Token: "tok", MessageID: "view", At: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	if err := s.RecordHandView(ctx, id, cribbage.HandView{Seat: 1, Version: 1, Token: tok, Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	d.lastBatch.Store(time.Now().Add(-2 * time.Hour).UnixNano())
	before := d.batches.Load()
	recorded := make(chan error, 1)
	go func() { recorded <- s.RecordHandViewShown(ctx, id, 1, tok, 2, "sum-2") }()
	select {
	case err := <-recorded:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a record on a quiet server waited for another write")
	}
	if n := d.batches.Load() - before; n != 1 {
		t.Errorf("the record alone took %d batches, want 1", n)
	}
	views, err := s.HandViews(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 || views[0].Version != 2 || views[0].Shown != "sum-2" {
		t.Errorf("hand views recorded %+v, want seat 1 showing version 2 as sum-2", views)
	}
}

package servicetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// post is an announcement in channel c1.
func post(payload string) cribbage.Outbound {
	return cribbage.Outbound{ChannelID: "c1", Kind: "post", Payload: payload}
}

// queued queues announcements at a table with a change that saves it as
// it is.
func (h *harness) queued(t *testing.T, id int64, out ...cribbage.Outbound) {
	t.Helper()
	if _, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur, Outbox: out}, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// twoTables queues a1, b1, a2, a3 (waiting for a later one), b2 and a4
// at two tables, a minute apart, in that order, and returns the tables.
func twoTables(t *testing.T, h *harness) (a, b *cribbage.Table) {
	a = h.create(t, lobby("g", "a"), "", post("a1"))
	h.advance(time.Minute)
	b = h.create(t, lobby("g", "b"), "", post("b1"))
	h.advance(time.Minute)
	waits := post("a3")
	waits.Waits = true
	h.queued(t, a.ID, post("a2"), waits)
	h.advance(time.Minute)
	h.queued(t, b.ID, post("b2"))
	h.advance(time.Minute)
	if ok, err := h.s.MarkReminded(ctx, a.ID, time.Time{}, h.now(), []cribbage.Outbound{post("a4")}); !ok || err != nil {
		t.Fatalf("reminded: %v, %v", ok, err)
	}
	return a, b
}

// testOutboxOrder: announcements are claimed in the order queued, across
// tables, passing over those that wait for a later one, only of the
// tables with one after a given one if asked; a table's pending
// announcements include those; the depth counts what is claimable.
func testOutboxOrder(t *testing.T, h *harness) {
	if n, oldest, err := h.s.OutboxDepth(ctx); n != 0 || !oldest.IsZero() || err != nil {
		t.Errorf("an empty outbox's depth: %d, %v, %v", n, oldest, err)
	}
	if got := h.claim(t, "me"); len(got) != 0 {
		t.Errorf("claimed %q from an empty outbox", payloads(got))
	}
	a, b := twoTables(t, h)
	claimed := h.claim(t, "me")
	if got := fmt.Sprint(payloads(claimed)); got != "[a1 b1 a2 b2 a4]" {
		t.Errorf("claimed %s, want [a1 b1 a2 b2 a4]", got)
	}
	for i := 1; i < len(claimed); i++ {
		if claimed[i].ID <= claimed[i-1].ID {
			t.Errorf("ids out of order: %v", itemIDs(claimed))
		}
	}
	if got := fmt.Sprint(payloads(h.pending(t, a.ID))); got != "[a1 a2 a3 a4]" {
		t.Errorf("table a's pending %s, want [a1 a2 a3 a4]", got)
	}
	if got := fmt.Sprint(payloads(h.pending(t, b.ID))); got != "[b1 b2]" {
		t.Errorf("table b's pending %s, want [b1 b2]", got)
	}
	if n, oldest, err := h.s.OutboxDepth(ctx); n != 5 || !oldest.Equal(start) || err != nil {
		t.Errorf("depth %d, oldest %v (%v); want 5 and %v", n, oldest, err, start)
	}
	if got, err := h.s.ClaimOutbox(ctx, "me", 0, 2, lease); err != nil || fmt.Sprint(payloads(got)) != "[a1 b1]" {
		t.Errorf("claimed two: %q, %v", payloads(got), err)
	}
	// A sender that has read up to b2 reads the tables with something
	// after it, from their first: table a, not b.
	if got, err := h.s.ClaimOutbox(ctx, "me", claimed[3].ID, 100, lease); err != nil || fmt.Sprint(payloads(got)) != "[a1 a2 a4]" {
		t.Errorf("claimed after b2: %q, %v", payloads(got), err)
	}
	if got, err := h.s.ClaimOutbox(ctx, "me", claimed[4].ID, 100, lease); err != nil || len(got) != 0 {
		t.Errorf("claimed after the last: %q, %v", payloads(got), err)
	}
}

// testOutboxDelivery: delivered announcements are done with; a failed one
// counts its attempt and says when to try again, and stays first in its
// table's queue, so its sender holds the table's later ones back.
func testOutboxDelivery(t *testing.T, h *harness) {
	a, b := twoTables(t, h)
	items := h.pending(t, a.ID)
	if err := h.s.MarkDelivered(ctx, items[0].ID, items[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := h.s.MarkDelivered(ctx); err != nil {
		t.Errorf("delivering nothing: %v", err)
	}
	if got := fmt.Sprint(payloads(h.pending(t, a.ID))); got != "[a3 a4]" {
		t.Errorf("table a's pending after delivering a1 and a2: %s", got)
	}
	if got := fmt.Sprint(payloads(h.claim(t, "me"))); got != "[b1 b2 a4]" {
		t.Errorf("claimed %s after delivering a1 and a2", got)
	}

	b1 := h.pending(t, b.ID)[0]
	retry := h.now().Add(time.Minute)
	for range 2 {
		if err := h.s.MarkFailed(ctx, b1.ID, retry); err != nil {
			t.Fatal(err)
		}
	}
	got := h.claim(t, "me")
	if len(got) != 3 || got[0].ID != b1.ID || got[0].Attempts != 2 || !got[0].NextAttemptAt.Equal(retry) {
		t.Errorf("claimed %+v after b1 failed twice; want b1 first, 2 attempts, next at %v", got, retry)
	}
	if n, _, err := h.s.OutboxDepth(ctx); n != 3 || err != nil {
		t.Errorf("depth %d (%v), want 3", n, err)
	}
}

// testSeal: an announcement is sealed once, with the last one merged into
// it; sealing it again, or one delivered or missing, is ErrStale.
func testSeal(t *testing.T, h *harness) {
	a, _ := twoTables(t, h)
	items := h.pending(t, a.ID)
	head, merged := items[0], items[2]
	if err := h.s.Seal(ctx, head.ID, merged.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.s.Seal(ctx, head.ID, merged.ID+1); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("sealed twice: %v, want ErrStale", err)
	}
	again := h.pending(t, a.ID)
	if again[0].SealedThrough != merged.ID || again[1].SealedThrough != 0 {
		t.Errorf("sealed through %d and %d, want %d and 0", again[0].SealedThrough, again[1].SealedThrough, merged.ID)
	}
	if err := h.s.MarkDelivered(ctx, items[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := h.s.Seal(ctx, items[1].ID, items[1].ID); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("sealed a delivered announcement: %v, want ErrStale", err)
	}
	if err := h.s.Seal(ctx, 999, 999); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("sealed a missing announcement: %v, want ErrStale", err)
	}
}

// testOutboxLeases: two owners (two processes' senders) claim the
// outbox. A table's announcements go to one of them only; the holder keeps
// the table by claiming again; a lease left to lapse (a dead process)
// passes to the other, and a released one passes at once.
func testOutboxLeases(t *testing.T, h *harness) {
	var tables []int64
	for i := range 4 {
		tb := h.create(t, lobby("g", "p"), fmt.Sprint("i-", i), post(fmt.Sprint(i, "-1")), post(fmt.Sprint(i, "-2")))
		tables = append(tables, tb.ID)
	}
	owners := func(items []cribbage.OutboxItem) map[int64]int {
		out := map[int64]int{}
		for _, it := range items {
			out[it.TableID]++
		}
		return out
	}
	if got := h.claim(t, "A"); len(owners(got)) != 4 || len(got) != 8 {
		t.Fatalf("A's first claim: %v", owners(got))
	}
	if got := h.claim(t, "B"); len(got) != 0 {
		t.Fatalf("B took %v from A's live leases", owners(got))
	}
	// A renews at 20 s; at 40 s its leases still hold.
	h.advance(20 * time.Second)
	h.claim(t, "A")
	h.advance(20 * time.Second)
	if got := h.claim(t, "B"); len(got) != 0 {
		t.Fatalf("B took a renewed lease: %v", owners(got))
	}
	// A dies: after its lease, B has every table.
	h.advance(lease + time.Second)
	if got := h.claim(t, "B"); len(owners(got)) != 4 {
		t.Fatalf("B after A's leases lapsed: %v", owners(got))
	}
	if got := h.claim(t, "A"); len(got) != 0 {
		t.Fatalf("A, back, took B's tables: %v", owners(got))
	}
	// B releases on shutdown: A takes over at once.
	if err := h.s.ReleaseOutbox(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	got := h.claim(t, "A")
	if len(owners(got)) != 4 {
		t.Fatalf("A after B released: %v", owners(got))
	}
	// Delivered tables drop out of the claim.
	var done []int64
	for _, it := range got {
		if it.TableID == tables[0] {
			done = append(done, it.ID)
		}
	}
	if err := h.s.MarkDelivered(ctx, done...); err != nil {
		t.Fatal(err)
	}
	if got := h.claim(t, "A"); owners(got)[tables[0]] != 0 || len(owners(got)) != 3 {
		t.Errorf("after delivering table %d: %v", tables[0], owners(got))
	}
	if err := h.s.ReleaseOutbox(ctx, "nobody"); err != nil {
		t.Errorf("releasing no leases: %v", err)
	}
}

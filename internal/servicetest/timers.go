package servicetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// testIdleTables: the open tables waiting since a time or earlier (by
// WaitingSince, or the last move where that is unset), and the lobbies
// opened by a time, boundaries included.
func testIdleTables(t *testing.T, h *harness) {
	waiting := h.create(t, lobby("g", "a", "b"), "")
	movedAt := h.startGame(t, lobby("g", "c", "d"))
	h.finish(t, h.startGame(t, lobby("g", "e", "f")).ID)
	h.advance(2 * time.Hour)
	waitingSince := h.startGame(t, lobby("g", "x", "y"))
	if _, err := Update(ctx, h.s, waitingSince.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.WaitingSince = start.Add(time.Hour)
		return &cribbage.Change{Table: cur}, nil
	}); err != nil {
		t.Fatal(err)
	}
	h.advance(time.Hour)
	tests := []struct {
		name                    string
		idleSince, openedBefore time.Time
		want                    []*cribbage.Table
	}{
		{"none", start.Add(-time.Minute), start.Add(-time.Minute), nil},
		{"since the start", start, start.Add(-time.Minute), []*cribbage.Table{waiting, movedAt}},
		{"waiting since an hour in", start.Add(time.Hour), start.Add(-time.Minute), []*cribbage.Table{waiting, movedAt, waitingSince}},
		{"lobbies opened by the start", start.Add(-time.Minute), start, []*cribbage.Table{waiting}},
	}
	for _, tt := range tests {
		got, err := h.s.IdleTables(ctx, tt.idleSince, tt.openedBefore)
		if err != nil {
			t.Fatal(err)
		}
		sameIDs(t, tt.name, ids(got), ids(tt.want))
	}
}

// testLapsedOffers: the finished tables whose rematch offer was made by a
// time, the boundary included, while the offer is open: not once it is
// answered, nor once the rematch is made.
func testLapsedOffers(t *testing.T, h *harness) {
	offer := func(id int64, at time.Time) {
		t.Helper()
		if _, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			cur.Offer = &cribbage.RematchOffer{By: "a", At: at, Accepted: []string{"a"}}
			return &cribbage.Change{Table: cur}, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	early := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
	offer(early.ID, start)
	late := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
	offer(late.ID, start.Add(time.Hour))
	answered := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
	offer(answered.ID, start)
	if _, err := Update(ctx, h.s, answered.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.Offer = nil
		return &cribbage.Change{Table: cur}, nil
	}); err != nil {
		t.Fatal(err)
	}
	made := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
	if _, err := Update(ctx, h.s, made.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) { return offered(cur, "a"), nil }); err != nil {
		t.Fatal(err)
	}
	h.startGame(t, lobby("g", "a", "b"))
	for _, tt := range []struct {
		name string
		at   time.Time
		want []*cribbage.Table
	}{
		{"before any", start.Add(-time.Millisecond), nil},
		{"at the first", start, []*cribbage.Table{early}},
		{"an hour on", start.Add(time.Hour), []*cribbage.Table{early, late}},
	} {
		got, err := h.s.LapsedOffers(ctx, tt.at)
		if err != nil {
			t.Fatal(err)
		}
		sameIDs(t, tt.name, ids(got), ids(tt.want))
		for _, tb := range got {
			if tb.Offer == nil || tb.Offer.By != "a" {
				t.Errorf("%s: table %d read with offer %+v", tt.name, tb.ID, tb.Offer)
			}
		}
	}
}

// testTimersFireOnce: a timer moves from the time it was last fired to
// now and queues its announcement, together, once: of callers racing from
// one time only one fires it, and it changes no version.
func testTimersFireOnce(t *testing.T, h *harness) {
	type mark func(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error)
	tests := []struct {
		name  string
		mark  mark
		field func(tb *cribbage.Table) time.Time
	}{
		{"MarkReminded", h.s.MarkReminded, func(tb *cribbage.Table) time.Time { return tb.RemindedAt }},
		{"MarkForfeitOffered", h.s.MarkForfeitOffered, func(tb *cribbage.Table) time.Time { return tb.ForfeitOfferedAt }},
	}
	out := []cribbage.Outbound{{ChannelID: "c1", Kind: "post", Payload: "wake up"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := h.startGame(t, lobby("g", "a", "b"))
			first := h.now()
			if ok, err := tt.mark(ctx, tb.ID, time.Time{}, first, out); !ok || err != nil {
				t.Fatalf("first: %v, %v", ok, err)
			}
			if ok, err := tt.mark(ctx, tb.ID, time.Time{}, first, out); ok || err != nil {
				t.Errorf("again from the zero time: %v, %v", ok, err)
			}
			got := h.table(t, tb.ID)
			if !tt.field(got).Equal(first) || got.Version != tb.Version {
				t.Errorf("fired at %v, version %d → %d", tt.field(got), tb.Version, got.Version)
			}
			if n := len(h.pending(t, tb.ID)); n != 1 {
				t.Errorf("%d announcements queued, want 1", n)
			}

			h.advance(time.Hour)
			var fired atomic.Int32
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ok, err := tt.mark(ctx, tb.ID, first, h.now(), out)
					if err != nil {
						t.Error(err)
					}
					if ok {
						fired.Add(1)
					}
				}()
			}
			wg.Wait()
			if fired.Load() != 1 || !tt.field(h.table(t, tb.ID)).Equal(h.now()) {
				t.Errorf("%d of 8 racing calls fired the timer, now at %v", fired.Load(), tt.field(h.table(t, tb.ID)))
			}
			if n := len(h.pending(t, tb.ID)); n != 2 {
				t.Errorf("%d announcements queued, want 2", n)
			}
			if ok, err := tt.mark(ctx, 999, time.Time{}, h.now(), out); ok || err != nil {
				t.Errorf("a missing table's timer: %v, %v", ok, err)
			}
		})
	}
}

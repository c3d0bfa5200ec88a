package servicetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// testCancelledTablesAreOver: a cancelled table, a lobby or a game, keeps
// who cancelled it and why, is finished at the cancel, and is no longer
// among the open tables anywhere; it is not cancelled twice.
func testCancelledTablesAreOver(t *testing.T, h *harness) {
	game := h.startGame(t, lobby("g", "alice", "bob"))
	waiting := h.create(t, lobby("g", "carol"), "")
	h.advance(time.Hour)
	for _, id := range []int64{game.ID, waiting.ID} {
		if _, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			return &cribbage.Change{Table: cur}, cur.Cancel("admin", "spam")
		}); err != nil {
			t.Fatal(err)
		}
		got := h.table(t, id)
		if got.Status != cribbage.StatusCancelled || got.CancelledBy != "admin" || got.CancelReason != "spam" || !got.FinishedAt.Equal(h.now()) {
			t.Errorf("table %d: %s by %q (%q), finished %v", id, got.Status, got.CancelledBy, got.CancelReason, got.FinishedAt)
		}
	}
	for name, find := range map[string]func() ([]*cribbage.Table, error){
		"open":    func() ([]*cribbage.Table, error) { return h.s.OpenTables(ctx) },
		"alice's": func() ([]*cribbage.Table, error) { return h.s.PlayerTables(ctx, "g", "alice") },
		"c1's":    func() ([]*cribbage.Table, error) { return h.s.ChannelTables(ctx, "c1") },
		"idle":    func() ([]*cribbage.Table, error) { return h.s.IdleTables(ctx, h.now(), h.now()) },
	} {
		if got, err := find(); err != nil || len(got) != 0 {
			t.Errorf("%s tables: %v, %v", name, ids(got), err)
		}
	}
	_, err := Update(ctx, h.s, game.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur}, cur.Cancel("other", "")
	})
	if !errors.Is(err, cribbage.ErrNotOpen) || h.table(t, game.ID).CancelledBy != "admin" {
		t.Errorf("cancelled twice: %v", err)
	}
}

// testGuildSettings: a server's settings come back as saved, a duration
// turned off stays off (not unset), a failing change saves nothing, and
// every server that set any is listed.
func testGuildSettings(t *testing.T, h *harness) {
	gs, err := h.s.GuildSettings(ctx, "g1")
	if err != nil || !reflect.DeepEqual(gs, cribbage.GuildSettings{GuildID: "g1"}) {
		t.Fatalf("a server with no settings: %+v, %v", gs, err)
	}
	twoHours, off := 2*time.Hour, time.Duration(0)
	saved, err := h.s.UpdateGuildSettings(ctx, "g1", func(gs *cribbage.GuildSettings) error {
		gs.ReminderAfter, gs.ForfeitAfter = &twoHours, &off
		gs.DefaultPoints, gs.GamesChannel, gs.MaxOpenTables, gs.CancelRole, gs.Language, gs.UpdatedBy = 61, "c9", 3, "r7", "pt-BR", "admin"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := cribbage.GuildSettings{GuildID: "g1", ReminderAfter: &twoHours, ForfeitAfter: &off, DefaultPoints: 61, GamesChannel: "c9",
		MaxOpenTables: 3, CancelRole: "r7", Language: "pt-BR", UpdatedBy: "admin", UpdatedAt: h.now()}
	got, err := h.s.GuildSettings(ctx, "g1")
	if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(saved, want) {
		t.Errorf("round trip\n  got %+v (%v)\nsaved %+v\n want %+v", got, err, saved, want)
	}
	if got.Forfeit(7*24*time.Hour) != 0 || got.Reminder(12*time.Hour) != twoHours {
		t.Errorf("timers %v, %v", got.Forfeit(7*24*time.Hour), got.Reminder(12*time.Hour))
	}
	// What the caller changes afterwards is not the stored settings'.
	*got.ReminderAfter = time.Minute
	if again, _ := h.s.GuildSettings(ctx, "g1"); *again.ReminderAfter != twoHours {
		t.Errorf("the stored reminder changed with a copy: %v", *again.ReminderAfter)
	}
	boom := errors.New("boom")
	if _, err := h.s.UpdateGuildSettings(ctx, "g1", func(gs *cribbage.GuildSettings) error { gs.DefaultPoints = 121; return boom }); !errors.Is(err, boom) {
		t.Errorf("failing change: %v", err)
	}
	if got, _ := h.s.GuildSettings(ctx, "g1"); got.DefaultPoints != 61 {
		t.Errorf("a failed change was saved: %d points", got.DefaultPoints)
	}
	for _, d := range []*time.Duration{&twoHours, nil} {
		if _, err := h.s.UpdateGuildSettings(ctx, "g2", func(gs *cribbage.GuildSettings) error { gs.ReminderAfter = d; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	all, err := h.s.AllGuildSettings(ctx)
	if err != nil || len(all) != 2 || all[0].GuildID != "g1" || all[1].GuildID != "g2" || all[1].ReminderAfter != nil {
		t.Errorf("all settings: %+v, %v", all, err)
	}
}

// testGuildSettingsChangesAtOnceAreKept: admins changing settings at the
// same moment each see the other's change, and none is lost.
func testGuildSettingsChangesAtOnceAreKept(t *testing.T, h *harness) {
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := h.s.UpdateGuildSettings(ctx, "g", func(gs *cribbage.GuildSettings) error {
				gs.MaxOpenTables++
				return nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if gs, _ := h.s.GuildSettings(ctx, "g"); gs.MaxOpenTables != n {
		t.Errorf("%d changes kept of %d", gs.MaxOpenTables, n)
	}
}

// testServerLocale: a server's locale is that of its newest table that
// has one; a server with none has none.
func testServerLocale(t *testing.T, h *harness) {
	if got, err := h.s.ServerLocale(ctx, "quebec"); err != nil || got != "" {
		t.Fatalf("a server without tables: %q, %v", got, err)
	}
	for _, locale := range []string{"en-US", "fr", ""} {
		tb := lobby("quebec", "u1")
		tb.Locale = locale
		h.create(t, tb, "")
	}
	other := lobby("elsewhere", "u2")
	other.Locale = "es-ES"
	h.create(t, other, "")
	if got, err := h.s.ServerLocale(ctx, "quebec"); err != nil || got != "fr" {
		t.Errorf("ServerLocale = %q, %v; want fr, its newest table's with one", got, err)
	}
}

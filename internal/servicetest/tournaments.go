package servicetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// openTournament saves a tournament of n people signed up in guild g.
func (h *harness) openTournament(t *testing.T, n int) *cribbage.Tournament {
	t.Helper()
	tr, err := cribbage.NewTournament("Club open", 1, 3, 121)
	if err != nil {
		t.Fatal(err)
	}
	tr.GuildID, tr.ChannelID, tr.HostID = "g", "c1", "admin"
	for i := 1; i <= n; i++ {
		if err := tr.SignUp(cribbage.Entrant{UserID: fmt.Sprint("p", i), Name: fmt.Sprint("P", i)}); err != nil {
			t.Fatal(err)
		}
	}
	made, err := h.s.CreateTournament(ctx, tr, "open-1")
	if err != nil {
		t.Fatal(err)
	}
	return made
}

// tournamentEnv deals from fixed seeds; no computer sits at these tables.
func tournamentEnv() cribbage.Env {
	n := uint64(0)
	return cribbage.Env{Now: start, Seeds: func() engine.Seed { n++; return engine.SeedFromUint64(n) }}
}

// advance is the bot's step: start if asked, then open what Advance says.
func advance(start bool) func(tr *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
	return func(tr *cribbage.Tournament, tables []*cribbage.Table) (*cribbage.TournamentChange, error) {
		if start {
			if err := tr.Start(); err != nil {
				return nil, err
			}
		}
		specs, err := tr.Advance(tables)
		if err != nil || (!start && len(specs) == 0) {
			return nil, err
		}
		ch := &cribbage.TournamentChange{Tournament: tr}
		for _, s := range specs {
			open, err := tr.OpenTable(s, tournamentEnv())
			if err != nil {
				return nil, err
			}
			ch.Open = append(ch.Open, open)
		}
		return ch, nil
	}
}

func testTournaments(t *testing.T, h *harness) {
	tr := h.openTournament(t, 5)
	if tr.ID == 0 || tr.Version != 1 || !tr.CreatedAt.Equal(start) {
		t.Fatalf("created %+v", tr)
	}
	if _, err := h.s.Tournament(ctx, tr.ID+100); !errors.Is(err, cribbage.ErrTournamentNotFound) {
		t.Errorf("a missing tournament: %v", err)
	}
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "open-1", advance(true)); !errors.Is(err, cribbage.ErrDuplicate) {
		t.Errorf("an interaction seen before: %v", err)
	}
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "", func(*cribbage.Tournament, []*cribbage.Table) (*cribbage.TournamentChange, error) {
		return nil, cribbage.ErrFewEntrants
	}); !errors.Is(err, cribbage.ErrFewEntrants) {
		t.Errorf("fn's error: %v", err)
	}
	saved, err := UpdateTournament(ctx, h.s, tr.ID, "start-1", advance(true))
	if err != nil {
		t.Fatal(err)
	}
	if saved.Version != 2 || saved.Status != cribbage.TournamentQualifying || saved.Round != 1 || len(saved.Pairings) != 3 {
		t.Fatalf("started %+v", saved)
	}
	tables, err := h.s.TournamentTables(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2", len(tables))
	}
	for i, tb := range tables {
		l := tb.Tournament
		if l == nil || l.ID != tr.ID || l.Round != 1 || l.Pairing != i || l.Game != 1 || tb.Status != cribbage.StatusPlaying || tb.GuildID != "g" {
			t.Errorf("table %d: %+v link %+v", i, tb, l)
		}
		if got := h.table(t, tb.ID); got.Tournament == nil || *got.Tournament != *l {
			t.Errorf("table %d reads back with link %+v", tb.ID, got.Tournament)
		}
	}
	got, err := h.s.Tournament(ctx, tr.ID)
	if err != nil || got.Round != 1 || len(got.Entrants) != 5 || got.Pairings[2].B != "" || got.Version != 2 {
		t.Errorf("reads back %+v, %v", got, err)
	}
	if list, _ := h.s.ChannelTournaments(ctx, "c1"); len(list) != 1 || list[0].ID != tr.ID {
		t.Errorf("channel tournaments %v", list)
	}
	if list, _ := h.s.OpenTournaments(ctx); len(list) != 1 {
		t.Errorf("open tournaments %v", list)
	}
}

// Replicas advancing a tournament at once open its tables once.
func testTournamentRacesOpenOnce(t *testing.T, h *harness) {
	tr := h.openTournament(t, 8)
	var wg sync.WaitGroup
	for k := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := UpdateTournament(ctx, h.s, tr.ID, fmt.Sprint("start-", k), advance(true))
			if err != nil && !errors.Is(err, cribbage.ErrSignupClosed) && !errors.Is(err, cribbage.ErrStale) {
				t.Errorf("start %d: %v", k, err)
			}
		}()
	}
	wg.Wait()
	tables, err := h.s.TournamentTables(ctx, tr.ID)
	if err != nil || len(tables) != 4 {
		t.Fatalf("%d tables, %v; want 4", len(tables), err)
	}
	if saved, err := UpdateTournament(ctx, h.s, tr.ID, "", advance(false)); saved != nil || err != nil {
		t.Errorf("advancing with nothing to do saved %+v, %v", saved, err)
	}
}

// The standings message is behind until marked shown, and marking keeps
// the first message and the newest version; a change to the tournament
// leaves the message as it is. No tournament has no message.
func testTournamentShown(t *testing.T, h *harness) {
	tr := h.openTournament(t, 4)
	if list, _ := h.s.TournamentsToShow(ctx); len(list) != 1 {
		t.Fatalf("to show %v", list)
	}
	if m, err := h.s.TournamentMessage(ctx, tr.ID); m != "" || err != nil {
		t.Errorf("message before one is posted: %q, %v", m, err)
	}
	if _, err := h.s.TournamentMessage(ctx, 999); !errors.Is(err, cribbage.ErrTournamentNotFound) {
		t.Errorf("no tournament's message: %v, want ErrTournamentNotFound", err)
	}
	if err := h.s.MarkTournamentShown(ctx, tr.ID, "m1", 1); err != nil {
		t.Fatal(err)
	}
	if list, _ := h.s.TournamentsToShow(ctx); len(list) != 0 {
		t.Errorf("to show after marking %v", list)
	}
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "", advance(true)); err != nil {
		t.Fatal(err)
	}
	if list, _ := h.s.TournamentsToShow(ctx); len(list) != 1 {
		t.Errorf("to show after a change %v", list)
	}
	if m, err := h.s.TournamentMessage(ctx, tr.ID); m != "m1" || err != nil {
		t.Errorf("message after a change: %q, %v", m, err)
	}
	if err := h.s.MarkTournamentShown(ctx, tr.ID, "m2", 2); err != nil {
		t.Fatal(err)
	}
	if err := h.s.MarkTournamentShown(ctx, tr.ID, "m2", 1); err != nil {
		t.Fatal(err)
	}
	got, _ := h.s.TournamentMessage(ctx, tr.ID)
	if list, _ := h.s.TournamentsToShow(ctx); len(list) != 0 || got != "m1" {
		t.Errorf("to show %v, message %q", list, got)
	}
}

// A cancelled tournament's open games are found until each is cancelled;
// an open tournament's are not.
func testCancelledTournamentTables(t *testing.T, h *harness) {
	tr := h.openTournament(t, 4)
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "", advance(true)); err != nil {
		t.Fatal(err)
	}
	if tables, err := h.s.CancelledTournamentTables(ctx); err != nil || len(tables) != 0 {
		t.Fatalf("an open tournament's games: %d, %v", len(tables), err)
	}
	if _, err := UpdateTournament(ctx, h.s, tr.ID, "", func(cur *cribbage.Tournament, _ []*cribbage.Table) (*cribbage.TournamentChange, error) {
		return &cribbage.TournamentChange{Tournament: cur}, cur.Cancel("admin")
	}); err != nil {
		t.Fatal(err)
	}
	tables, err := h.s.CancelledTournamentTables(ctx)
	if err != nil || len(tables) != 2 {
		t.Fatalf("a cancelled tournament's open games: %d, %v", len(tables), err)
	}
	if _, err := Update(ctx, h.s, tables[0].ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur}, cur.Cancel("admin", "the tournament was cancelled")
	}); err != nil {
		t.Fatal(err)
	}
	if left, err := h.s.CancelledTournamentTables(ctx); err != nil || len(left) != 1 || left[0].ID != tables[1].ID {
		t.Errorf("after one is cancelled: %v, %v", left, err)
	}
}

// testSaveTournamentComparesAndSwaps: a tournament's change is saved only
// over the version it was decided on: a second change decided on the same
// read is refused with ErrStale, and neither it nor its tables are saved.
func testSaveTournamentComparesAndSwaps(t *testing.T, h *harness) {
	made := h.openTournament(t, 4)
	decide := func() *cribbage.TournamentChange {
		ch, err := advance(true)(made.Clone(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	if _, err := h.s.SaveTournament(ctx, made, decide(), "start"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.SaveTournament(ctx, made, decide(), "start-again"); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("a change decided on an old read: %v, want ErrStale", err)
	}
	if _, err := h.s.SaveTournament(ctx, made, decide(), "start"); !errors.Is(err, cribbage.ErrDuplicate) && !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("the start again: %v, want a refusal", err)
	}
	got, err := h.s.Tournament(ctx, made.ID)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := h.s.TournamentTables(ctx, made.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != made.Version+1 || len(tables) != 2 {
		t.Errorf("version %d with %d tables, want %d with one round's 2", got.Version, len(tables), made.Version+1)
	}
}

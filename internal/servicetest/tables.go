package servicetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// testCreateTable: a new table gets an id of its own, version 1 and the
// time; it reads back as made, its announcements are queued in order, and
// its interaction is recorded.
func testCreateTable(t *testing.T, h *harness) {
	tb := lobby("g", "alice", "bob", "carol", "dan")
	tb.Options = engine.Options{Players: 4, Partners: true, Target: 61, ManualCounting: true, Muggins: true}
	tb.Computer, tb.FourColour, tb.TokenOnly, tb.Locale = "expert", true, true, "fr"
	tb.Seats[3] = cribbage.Seat{Computer: "expert", Name: "Computer"}
	tb.Match = &cribbage.Match{BestOf: 5, Game: 1}
	tb.Challenge = &cribbage.Challenge{UserID: "eve", Name: "Eve", Outcome: cribbage.ChallengeDeclined}
	out := []cribbage.Outbound{{ChannelID: "c1", Kind: "table", Payload: "{}"}, {ChannelID: "c1", Kind: "post", Payload: "hello", Waits: true}}
	made := h.create(t, tb, "i-1", out...)
	if made.ID == 0 || made.Version != 1 || !made.CreatedAt.Equal(h.now()) || !made.LastActionAt.Equal(h.now()) {
		t.Errorf("made id %d, version %d, created %v, last action %v; want an id, 1 and %v", made.ID, made.Version, made.CreatedAt, made.LastActionAt, h.now())
	}
	want := *tb
	want.ID, want.Version, want.CreatedAt, want.LastActionAt = made.ID, 1, h.now(), h.now()
	sameTable(t, "returned", made, &want)
	sameTable(t, "read back", h.table(t, made.ID), &want)

	items := h.pending(t, made.ID)
	if len(items) != 2 {
		t.Fatalf("%d announcements queued, want 2", len(items))
	}
	for i, it := range items {
		o := out[i]
		if it.TableID != made.ID || it.ChannelID != o.ChannelID || it.Kind != o.Kind || it.Payload != o.Payload || it.Waits != o.Waits ||
			it.Attempts != 0 || it.SealedThrough != 0 || !it.NextAttemptAt.IsZero() || !it.CreatedAt.Equal(h.now()) {
			t.Errorf("announcement %d: %+v, from %+v", i, it, o)
		}
	}
	if items[1].ID <= items[0].ID {
		t.Errorf("announcement ids %d then %d", items[0].ID, items[1].ID)
	}

	if _, err := h.s.CreateTable(ctx, lobby("g", "x"), "i-1", nil, cribbage.Hold{}); !errors.Is(err, cribbage.ErrDuplicate) {
		t.Errorf("a second table for one interaction: %v, want ErrDuplicate", err)
	}
	other := h.create(t, lobby("g", "x"), "i-2")
	if other.ID == made.ID {
		t.Errorf("two tables have id %d", made.ID)
	}
	open, err := h.s.OpenTables(ctx)
	if err != nil || len(open) != 2 {
		t.Errorf("%d tables after a refused and a made one, want 2 (%v)", len(open), err)
	}
}

// testNotFound: a table that does not exist is ErrNotFound.
func testNotFound(t *testing.T, h *harness) {
	h.create(t, lobby("g", "a"), "")
	const missing = 999
	never := func(*cribbage.Table) (*cribbage.Change, error) {
		t.Error("fn ran for a missing table")
		return nil, nil
	}
	tests := []struct {
		name string
		call func() error
	}{
		{"Table", func() error { _, err := h.s.Table(ctx, missing); return err }},
		{"Update", func() error { _, err := Update(ctx, h.s, missing, "i-1", never); return err }},
	}
	for _, tt := range tests {
		if err := tt.call(); !errors.Is(err, cribbage.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", tt.name, err)
		}
	}
}

// testUpdateSavesAChange: a change is the game's whole state — the host,
// seats, status, cut seed, game and wait — saved at the next version with
// its actions and announcements, and the times of the start and the end.
func testUpdateSavesAChange(t *testing.T, h *harness) {
	tb := lobby("g", "alice", "bob")
	tb.Seats = tb.Seats[:1]
	tb = h.create(t, tb, "")
	h.advance(time.Minute)
	seed := engine.SeedFromUint64(7)
	g, _, err := engine.New(tb.Options, seed)
	if err != nil {
		t.Fatal(err)
	}
	deal := engine.Action{Kind: engine.ActDeal, Seat: g.Dealer, Seed: &seed}
	dealt, _, err := g.Apply(deal)
	if err != nil {
		t.Fatal(err)
	}
	waiting := h.now().Add(-time.Second)
	var want *cribbage.Table
	saved, err := Update(ctx, h.s, tb.ID, "join", func(cur *cribbage.Table) (*cribbage.Change, error) {
		// Bob joins and takes over as host; the game starts and is dealt.
		cur.Seats = append(cur.Seats, cribbage.Seat{UserID: "bob", Name: "Bob"})
		cur.HostID, cur.Status, cur.CutSeed, cur.State, cur.WaitingSince = "bob", cribbage.StatusPlaying, &seed, dealt, waiting
		want = cur.Clone()
		return &cribbage.Change{Table: cur, Actions: []cribbage.LoggedAction{{Action: deal}},
			Outbox: []cribbage.Outbound{{ChannelID: "c1", Kind: "post", Payload: "joined"}, {ChannelID: "c1", Kind: "table"}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want.Version, want.LastActionAt, want.StartedAt = 2, h.now(), h.now()
	sameTable(t, "returned", saved, want)
	sameTable(t, "read back", h.table(t, tb.ID), want)
	if got := payloads(h.pending(t, tb.ID)); fmt.Sprint(got) != "[joined ]" {
		t.Errorf("announcements %q, want joined and the table", got)
	}
	if got, err := h.s.Actions(ctx, tb.ID); err != nil || actionsText(got) != actionsText([]cribbage.LoggedAction{{Action: deal}}) {
		t.Errorf("log %v (%v), want the deal", got, err)
	}

	h.advance(time.Minute)
	over := h.finish(t, tb.ID)
	want.Version, want.LastActionAt, want.FinishedAt, want.Status, want.State = 3, h.now(), h.now(), cribbage.StatusFinished, over.State
	sameTable(t, "finished", h.table(t, tb.ID), want)
}

// testUpdateRefusesADuplicate: an interaction already applied, by Update
// or CreateTable, is refused with ErrDuplicate before fn runs.
func testUpdateRefusesADuplicate(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	h.create(t, lobby("g", "c"), "made-a-table")
	if _, err := h.step(tb.ID, "moved"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"moved", "made-a-table"} {
		_, err := Update(ctx, h.s, tb.ID, id, func(cur *cribbage.Table) (*cribbage.Change, error) {
			t.Errorf("fn ran for interaction %s, seen before", id)
			return move(cur)
		})
		if !errors.Is(err, cribbage.ErrDuplicate) {
			t.Errorf("interaction %s again: %v, want ErrDuplicate", id, err)
		}
	}
	if got := h.table(t, tb.ID).Version; got != tb.Version+1 {
		t.Errorf("version %d, want %d", got, tb.Version+1)
	}
}

// testUpdateErrorSavesNothing: fn's error reaches the caller and nothing
// is saved, the interaction included, so it may be tried again.
func testUpdateErrorSavesNothing(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	_, err := Update(ctx, h.s, tb.ID, "refused", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.HostID = "changed, then given up"
		return nil, engine.ErrNotYourTurn
	})
	if !errors.Is(err, engine.ErrNotYourTurn) {
		t.Fatalf("error %v, want fn's", err)
	}
	unchanged(t, h, tb)
	if got := h.table(t, tb.ID).HostID; got != tb.HostID {
		t.Errorf("host %q", got)
	}
	if _, err := h.step(tb.ID, "refused"); err != nil {
		t.Errorf("the refused interaction tried again: %v", err)
	}
}

// testUpdateNilChangeSavesNothing: fn deciding on no change (or a change
// without a table) saves nothing and records no interaction.
func testUpdateNilChangeSavesNothing(t *testing.T, h *harness) {
	tests := []struct {
		name   string
		change *cribbage.Change
	}{
		{"no change", nil},
		{"a change without a table", &cribbage.Change{Outbox: []cribbage.Outbound{{ChannelID: "c1", Kind: "post"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := h.startGame(t, lobby("g", "a", "b"))
			if _, err := Update(ctx, h.s, tb.ID, "nothing-"+tt.name, func(*cribbage.Table) (*cribbage.Change, error) { return tt.change, nil }); err != nil {
				t.Fatal(err)
			}
			unchanged(t, h, tb)
			if _, err := h.step(tb.ID, "nothing-"+tt.name); err != nil {
				t.Errorf("the interaction that changed nothing, again: %v", err)
			}
		})
	}
}

// unchanged reports a change to tb since it was read: a version, an
// action or an announcement.
func unchanged(t *testing.T, h *harness, tb *cribbage.Table) {
	t.Helper()
	if got := h.table(t, tb.ID); got.Version != tb.Version {
		t.Errorf("version %d, want %d", got.Version, tb.Version)
	}
	if got := h.pending(t, tb.ID); len(got) != 0 {
		t.Errorf("%d announcements queued", len(got))
	}
	if got, err := h.s.Actions(ctx, tb.ID); err != nil || len(got) != 0 {
		t.Errorf("%d actions logged (%v)", len(got), err)
	}
}

// testUpdateNeverSavesOverANewerVersion: a change saved while fn decided
// is never overwritten. fn is run again on the newer table; if the table
// keeps changing, Update gives up with ErrStale after UpdateTries runs.
func testUpdateNeverSavesOverANewerVersion(t *testing.T, h *harness) {
	t.Run("changed once", func(t *testing.T) {
		tb := h.startGame(t, lobby("g", "a", "b"))
		var saw []int64
		saved, err := Update(ctx, h.s, tb.ID, "mine", func(cur *cribbage.Table) (*cribbage.Change, error) {
			saw = append(saw, cur.Version)
			if len(saw) == 1 {
				// Another move lands after this one read the table.
				if _, err := h.step(tb.ID, "theirs"); err != nil {
					return nil, err
				}
			}
			return move(cur)
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(saw) != fmt.Sprint([]int64{tb.Version, tb.Version + 1}) || saved.Version != tb.Version+2 {
			t.Errorf("fn saw versions %v and the change saved %d; want %d, %d and %d", saw, saved.Version, tb.Version, tb.Version+1, tb.Version+2)
		}
		if got, _ := h.s.Actions(ctx, tb.ID); len(got) != 2 {
			t.Errorf("%d actions, want the other move's and this one's", len(got))
		}
	})
	t.Run("changing", func(t *testing.T) {
		tb := h.startGame(t, lobby("g", "a", "b"))
		runs := 0
		_, err := Update(ctx, h.s, tb.ID, "mine-too", func(cur *cribbage.Table) (*cribbage.Change, error) {
			runs++
			if _, err := h.step(tb.ID, fmt.Sprint("theirs-", runs)); err != nil {
				return nil, err
			}
			cur.HostID = "mine"
			return &cribbage.Change{Table: cur}, nil
		})
		if !errors.Is(err, cribbage.ErrStale) || runs != cribbage.UpdateTries {
			t.Fatalf("after %d runs: %v, want ErrStale after %d", runs, err, cribbage.UpdateTries)
		}
		if got := h.table(t, tb.ID); got.Version != tb.Version+int64(runs) || got.HostID == "mine" {
			t.Errorf("version %d and host %q, want the %d other moves only", got.Version, got.HostID, runs)
		}
	})
}

// testUpdateConcurrentClicksApplyOnce: many clicks made on one version
// arrive at once; one applies, and every other is told the table moved on.
func testUpdateConcurrentClicksApplyOnce(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	const clicks = 16
	errs := make([]error, clicks)
	var wg sync.WaitGroup
	for i := range clicks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Update(ctx, h.s, tb.ID, fmt.Sprint("click-", i), func(cur *cribbage.Table) (*cribbage.Change, error) {
				if cur.Version != tb.Version {
					return nil, cribbage.ErrStale // the click was on the version the player saw
				}
				return move(cur)
			})
		}()
	}
	wg.Wait()
	applied := 0
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case !errors.Is(err, cribbage.ErrStale):
			t.Errorf("a click: %v", err)
		}
	}
	if got := h.table(t, tb.ID).Version; applied != 1 || got != tb.Version+1 {
		t.Errorf("%d clicks applied, version %d → %d", applied, tb.Version, got)
	}
}

// testUpdateKeepsWhatIsRecordedMeanwhile: what is recorded without a new
// version — the messages, the board, the edit token, the coach's use and
// the timers — while a change is decided on survives it: none of it is
// the change's to undo.
func testUpdateKeepsWhatIsRecordedMeanwhile(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	at := h.now()
	token := cribbage.MessageToken{MessageID: "m1", Token: "tok", At: at}
	_, err := Update(ctx, h.s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		errs := []error{
			h.s.SetMessages(ctx, tb.ID, "m1", "th1"),
			h.s.RecordBoard(ctx, tb.ID, "board-1"),
			h.s.RecordEditToken(ctx, tb.ID, token),
			h.s.MarkAssisted(ctx, tb.ID),
		}
		for _, mark := range []func(context.Context, int64, time.Time, time.Time, []cribbage.Outbound) (bool, error){h.s.MarkReminded, h.s.MarkForfeitOffered} {
			_, err := mark(ctx, tb.ID, time.Time{}, at, nil)
			errs = append(errs, err)
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		return move(cur)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, m := h.table(t, tb.ID), h.message(t, tb.ID)
	if m.MessageID != "m1" || m.ThreadID != "th1" || m.Board != "board-1" || !sameToken(m.EditToken, token) || !got.Assisted ||
		!got.RemindedAt.Equal(at) || !got.ForfeitOfferedAt.Equal(at) {
		t.Errorf("after the change: %+v, %+v", got, m)
	}
}

// rematchOf is a Change.Next: the next table seats prev's players and
// begins a match's next game, with an announcement. It has no id.
func rematchOf(prev *cribbage.Table) *cribbage.Change {
	next := &cribbage.Table{GuildID: prev.GuildID, ChannelID: prev.ChannelID, HostID: prev.HostID, Options: prev.Options, Seats: prev.Seats}
	g, err := engine.Rematch(prev.State)
	if err != nil {
		panic(err) // prev is a finished game
	}
	next.State, next.Status = g, cribbage.StatusPlaying
	next.Match = &cribbage.Match{ID: prev.ID, BestOf: 3, Game: 2, Games: []cribbage.MatchGame{{Table: prev.ID, Winner: 1, Reason: engine.ReasonResigned, Points: 2}}}
	return &cribbage.Change{Table: next, Outbox: []cribbage.Outbound{{ChannelID: prev.ChannelID, Kind: "post", Payload: "rematch"}}}
}

// offered is a change that records a rematch offer on cur and makes its
// next table (the last yes to a rematch does).
func offered(cur *cribbage.Table, by string) *cribbage.Change {
	cur.Offer = &cribbage.RematchOffer{By: by, At: cur.FinishedAt, Accepted: []string{"a", "b"}}
	return &cribbage.Change{Table: cur, Next: rematchOf(cur)}
}

// testNextTable: a change that makes its table's next table (Change.Next)
// makes it in one transaction with the change and its interaction: the
// next table gets its id (and a match it begins, the same), version and
// times as it is saved, and the
// table records it as its rematch at the change's version. A second next
// table is refused with ErrRematched, and so is a next table that is not
// a game begun (one already over, or one that makes another): the change
// is saved with neither.
func testNextTable(t *testing.T, h *harness) {
	prev := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
	h.advance(time.Minute)
	var want *cribbage.Table
	saved, err := Update(ctx, h.s, prev.ID, "rematch-1", func(cur *cribbage.Table) (*cribbage.Change, error) {
		ch := offered(cur, "b")
		// A new match, known by its first game: this table, once saved.
		ch.Next.Table.Match = &cribbage.Match{BestOf: 3, Game: 1}
		want = ch.Next.Table.Clone()
		return ch, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if saved.RematchID == 0 || saved.RematchID == prev.ID || saved.Version != prev.Version+1 || saved.Offer == nil || saved.Offer.By != "b" {
		t.Fatalf("saved %+v", saved)
	}
	want.AssignID(saved.RematchID)
	want.Version = 1
	want.CreatedAt, want.StartedAt, want.LastActionAt = h.now(), h.now(), h.now()
	sameTable(t, "the next table read back", h.table(t, want.ID), want)
	if got := payloads(h.pending(t, want.ID)); fmt.Sprint(got) != "[rematch]" {
		t.Errorf("the next table's announcements: %q", got)
	}
	if got := h.table(t, prev.ID); got.RematchID != want.ID || got.Version != prev.Version+1 || got.Offer == nil || !got.Offer.At.Equal(prev.FinishedAt) {
		t.Errorf("the finished table records rematch %d at version %d with offer %+v", got.RematchID, got.Version, got.Offer)
	}

	// The store refuses a second next table, whatever the change decides.
	_, err = Update(ctx, h.s, prev.ID, "rematch-2", func(cur *cribbage.Table) (*cribbage.Change, error) { return offered(cur, "a"), nil })
	if !errors.Is(err, cribbage.ErrRematched) {
		t.Errorf("a second next table: %v, want ErrRematched", err)
	}
	if got := h.table(t, prev.ID); got.Version != prev.Version+1 || got.Offer.By != "b" {
		t.Errorf("the refused change saved: version %d, offer %+v", got.Version, got.Offer)
	}

	other := h.finish(t, h.startGame(t, lobby("g", "c", "d")).ID)
	if _, err := Update(ctx, h.s, other.ID, "rematch-1", func(cur *cribbage.Table) (*cribbage.Change, error) { return offered(cur, "c"), nil }); !errors.Is(err, cribbage.ErrDuplicate) {
		t.Errorf("a next table for a used interaction: %v, want ErrDuplicate", err)
	}
	played := []struct {
		name string
		make func(next *cribbage.Change)
	}{
		{"over", func(next *cribbage.Change) { next.Table.Status = cribbage.StatusFinished }},
		{"making another", func(next *cribbage.Change) { next.Next = rematchOf(other) }},
	}
	for _, p := range played {
		_, err = Update(ctx, h.s, other.ID, "refused", func(cur *cribbage.Table) (*cribbage.Change, error) {
			ch := offered(cur, "c")
			ch.Outbox = []cribbage.Outbound{post("offer")}
			p.make(ch.Next)
			return ch, nil
		})
		if err == nil {
			t.Errorf("a next table %s was saved", p.name)
		}
		unchanged(t, h, other)
	}
	if _, err := Update(ctx, h.s, other.ID, "refused", func(cur *cribbage.Table) (*cribbage.Change, error) { return nil, nil }); err != nil {
		t.Errorf("the refused change's interaction was recorded: %v", err)
	}
	if open, _ := h.s.OpenTables(ctx); len(open) != 1 {
		t.Errorf("%d open tables, want the one next table", len(open))
	}
}

// testNextTableRacesMakeOne: eight changes at once that each make the
// table's next table make one; the others, decided again on the table that
// has it, are refused as the domain refuses them.
func testNextTableRacesMakeOne(t *testing.T, h *harness) {
	prev := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, refused := map[int64]int{}, 0
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			saved, err := Update(ctx, h.s, prev.ID, fmt.Sprint("click-", k), func(cur *cribbage.Table) (*cribbage.Change, error) {
				if cur.RematchID != 0 {
					return nil, cribbage.ErrRematched
				}
				return offered(cur, fmt.Sprint("clicked-", k)), nil
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				made[saved.RematchID]++
			case errors.Is(err, cribbage.ErrRematched):
				refused++
			default:
				t.Errorf("a next table: %v", err)
			}
		}()
	}
	wg.Wait()
	if len(made) != 1 || refused != 7 {
		t.Fatalf("tables %v, %d refused; want one table and 7 refusals", made, refused)
	}
	for id := range made {
		if got := h.table(t, prev.ID); got.RematchID != id || got.Version != prev.Version+1 {
			t.Errorf("the table records rematch %d at version %d, want %d at %d", got.RematchID, got.Version, id, prev.Version+1)
		}
		if got := h.table(t, id); len(got.Seats) != 2 || got.Version != 1 || got.Match == nil || got.Match.Game != 2 {
			t.Errorf("the next table: %+v", got)
		}
	}
}

// testFindTables: the open tables, a player's in a server (a computer's
// seat is nobody's) and a channel's (its thread's included), by id.
func testFindTables(t *testing.T, h *harness) {
	waiting := h.create(t, lobby("g1", "alice", "carol"), "")
	playing := h.startGame(t, lobby("g1", "alice", "bob"))
	elsewhere := lobby("g2", "alice", "bob")
	elsewhere.ChannelID = "c2"
	elsewhere = h.startGame(t, elsewhere)
	if err := h.s.SetMessages(ctx, elsewhere.ID, "m", "thread-2"); err != nil {
		t.Fatal(err)
	}
	h.finish(t, h.startGame(t, lobby("g1", "alice", "bob")).ID)
	closed := h.create(t, lobby("g1", "alice", "bob"), "")
	if _, err := Update(ctx, h.s, closed.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.Status = cribbage.StatusClosed
		return &cribbage.Change{Table: cur}, nil
	}); err != nil {
		t.Fatal(err)
	}
	computer := lobby("g1", "alice", "")
	computer.ChannelID, computer.Seats[1] = "c3", cribbage.Seat{Computer: "expert", Name: "Computer"}
	computer = h.startGame(t, computer)

	tests := []struct {
		name string
		find func() ([]*cribbage.Table, error)
		want []*cribbage.Table
	}{
		{"open", func() ([]*cribbage.Table, error) { return h.s.OpenTables(ctx) }, []*cribbage.Table{waiting, playing, elsewhere, computer}},
		{"alice in g1", func() ([]*cribbage.Table, error) { return h.s.PlayerTables(ctx, "g1", "alice") }, []*cribbage.Table{waiting, playing, computer}},
		{"bob in g1", func() ([]*cribbage.Table, error) { return h.s.PlayerTables(ctx, "g1", "bob") }, []*cribbage.Table{playing}},
		{"alice in g2", func() ([]*cribbage.Table, error) { return h.s.PlayerTables(ctx, "g2", "alice") }, []*cribbage.Table{elsewhere}},
		{"nobody in g1", func() ([]*cribbage.Table, error) { return h.s.PlayerTables(ctx, "g1", "") }, nil},
		{"a stranger in g1", func() ([]*cribbage.Table, error) { return h.s.PlayerTables(ctx, "g1", "zed") }, nil},
		{"channel c1", func() ([]*cribbage.Table, error) { return h.s.ChannelTables(ctx, "c1") }, []*cribbage.Table{waiting, playing}},
		{"channel c2", func() ([]*cribbage.Table, error) { return h.s.ChannelTables(ctx, "c2") }, []*cribbage.Table{elsewhere}},
		{"a table's thread", func() ([]*cribbage.Table, error) { return h.s.ChannelTables(ctx, "thread-2") }, []*cribbage.Table{elsewhere}},
		{"channel c3", func() ([]*cribbage.Table, error) { return h.s.ChannelTables(ctx, "c3") }, []*cribbage.Table{computer}},
		{"another channel", func() ([]*cribbage.Table, error) { return h.s.ChannelTables(ctx, "c9") }, nil},
	}
	for _, tt := range tests {
		got, err := tt.find()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		sameIDs(t, tt.name, ids(got), ids(tt.want))
		for _, tb := range got {
			if len(tb.Seats) != 2 {
				t.Errorf("%s: table %d read with seats %v", tt.name, tb.ID, tb.Seats)
			}
		}
	}
	if n, err := h.s.GamesInProgress(ctx); err != nil || n != 3 {
		t.Errorf("%d games in progress, want 3 (%v)", n, err)
	}
}

// testThreadTable: a table's thread finds it whatever its status — on,
// over or cancelled — and a channel that is no table's thread finds none.
func testThreadTable(t *testing.T, h *harness) {
	finished := h.finish(t, h.startGame(t, lobby("g", "alice", "bob")).ID)
	cancelled := h.startGame(t, lobby("g", "alice", "bob"))
	if _, err := Update(ctx, h.s, cancelled.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.Status, cur.CancelledBy = cribbage.StatusCancelled, "ada"
		return &cribbage.Change{Table: cur}, nil
	}); err != nil {
		t.Fatal(err)
	}
	playing := h.startGame(t, lobby("g", "alice", "bob"))
	threads := map[string]*cribbage.Table{"thread-f": finished, "thread-c": cancelled, "thread-p": playing}
	for thread, tb := range threads {
		if err := h.s.SetMessages(ctx, tb.ID, "m-"+thread, thread); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		channel string
		want    int64
		status  cribbage.Status
	}{
		{"thread-f", finished.ID, cribbage.StatusFinished},
		{"thread-c", cancelled.ID, cribbage.StatusCancelled},
		{"thread-p", playing.ID, cribbage.StatusPlaying},
		{"c1", 0, ""},
		{"", 0, ""},
	}
	for _, tt := range tests {
		got, err := h.s.ThreadTable(ctx, tt.channel)
		switch {
		case tt.want == 0 && !errors.Is(err, cribbage.ErrNotFound):
			t.Errorf("channel %q: %v, %v; want ErrNotFound", tt.channel, got, err)
		case tt.want != 0 && (err != nil || got.ID != tt.want || got.Status != tt.status || len(got.Seats) != 2):
			t.Errorf("channel %q: %+v, %v; want table %d, %s", tt.channel, got, err, tt.want, tt.status)
		}
	}
}

// testActions: a table's log is its actions in the order of the changes
// and, within one, the order given; a table with none has an empty log.
func testActions(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	var want []cribbage.LoggedAction
	for i := range 3 {
		_, err := Update(ctx, h.s, tb.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
			var logged []cribbage.LoggedAction
			for j := range i + 1 {
				ch, err := move(cur)
				if err != nil {
					return nil, err
				}
				la := ch.Actions[0]
				la.UserID = fmt.Sprint(i, "-", j)
				logged = append(logged, la)
			}
			want = append(want, logged...)
			return &cribbage.Change{Table: cur, Actions: logged}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := h.s.Actions(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := actionsText(got), actionsText(want); g != w {
		t.Errorf("log\n got %s\nwant %s", g, w)
	}
	other := h.create(t, lobby("g", "c"), "")
	if got, err := h.s.Actions(ctx, other.ID); err != nil || len(got) != 0 {
		t.Errorf("a new table's log: %v, %v", got, err)
	}
}

func actionsText(log []cribbage.LoggedAction) string {
	b, _ := json.Marshal(log)
	return string(b)
}

// testAwaitingAnswer: what waits on a person's answer is an open challenge
// to them and an open rematch offer they have still to accept, in their
// server; not a challenge answered or their own (it waits on the other),
// not an offer they made or accepted, one taken up by its rematch, or one
// in another server.
func testAwaitingAnswer(t *testing.T, h *harness) {
	challenge := func(guild, from, to string) *cribbage.Table {
		c := lobby(guild, from)
		c.Options.Players, c.Challenge = 2, &cribbage.Challenge{UserID: to, Name: to}
		return h.create(t, c, "")
	}
	toBob := challenge("g", "a", "b")
	bobs := challenge("g", "b", "c")
	challenge("other", "a", "b") // another server
	declined := challenge("g", "c", "b")
	h.update(t, declined.ID, func(cur *cribbage.Table) {
		cur.Challenge.Outcome, cur.Status = cribbage.ChallengeDeclined, cribbage.StatusClosed
	})
	offer := func(by string, accepted ...string) *cribbage.Table {
		f := h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID)
		return h.update(t, f.ID, func(cur *cribbage.Table) {
			cur.Offer = &cribbage.RematchOffer{By: by, At: cur.FinishedAt, Accepted: accepted}
		})
	}
	byAlice := offer("a", "a")
	byBob := offer("b", "b")
	offer("a", "a", "b") // both said yes (its rematch not made here)
	taken := offer("a", "a")
	if _, err := Update(ctx, h.s, taken.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		return &cribbage.Change{Table: cur, Next: rematchOf(cur)}, nil
	}); err != nil {
		t.Fatal(err)
	}
	h.finish(t, h.startGame(t, lobby("g", "a", "b")).ID) // no offer

	tests := []struct {
		guild, user string
		want        []*cribbage.Table
	}{
		{"g", "b", []*cribbage.Table{toBob, byAlice}},
		{"g", "a", []*cribbage.Table{byBob}},
		{"g", "c", []*cribbage.Table{bobs}},
		{"g", "zed", nil},
	}
	for _, tt := range tests {
		got, err := h.s.AwaitingAnswer(ctx, tt.guild, tt.user)
		if err != nil {
			t.Fatal(err)
		}
		sameIDs(t, "awaiting "+tt.user+" in "+tt.guild, ids(got), ids(tt.want))
	}
}

// update saves what change makes of a table, failing the test if it
// cannot.
func (h *harness) update(t *testing.T, id int64, change func(cur *cribbage.Table)) *cribbage.Table {
	t.Helper()
	saved, err := Update(ctx, h.s, id, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		change(cur)
		return &cribbage.Change{Table: cur}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

// testSaveComparesAndSwaps: Save writes a change only over the version it
// was decided on: a second change decided on the same read is refused with
// ErrStale and saves nothing; an interaction once saved is Seen (and
// TableToChange refuses to read for it), and a change carrying it again is
// refused with ErrDuplicate.
func testSaveComparesAndSwaps(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	from := h.table(t, tb.ID)
	first, err := move(from.Clone())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.Save(ctx, from, first, "first"); err != nil {
		t.Fatal(err)
	}
	second, err := move(from.Clone())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.Save(ctx, from, second, "second"); !errors.Is(err, cribbage.ErrStale) {
		t.Errorf("a change decided on an old read: %v, want ErrStale", err)
	}
	if got := h.table(t, tb.ID).Version; got != from.Version+1 {
		t.Errorf("version %d, want %d: the stale change was saved", got, from.Version+1)
	}
	for _, c := range []struct {
		id   string
		want error
	}{{"first", cribbage.ErrDuplicate}, {"second", nil}, {"", nil}} {
		if err := h.s.Seen(ctx, c.id); !errors.Is(err, c.want) {
			t.Errorf("Seen(%q) = %v, want %v", c.id, err, c.want)
		}
		got, err := h.s.TableToChange(ctx, tb.ID, c.id)
		switch {
		case !errors.Is(err, c.want):
			t.Errorf("TableToChange(%q) = %v, want %v", c.id, err, c.want)
		case err == nil && got.From.Version != from.Version+1:
			t.Errorf("TableToChange(%q) read version %d, want %d", c.id, got.From.Version, from.Version+1)
		}
	}
	if _, err := h.s.TableToChange(ctx, tb.ID+1000, "third"); !errors.Is(err, cribbage.ErrNotFound) {
		t.Errorf("TableToChange of no table: %v, want ErrNotFound", err)
	}
	cur := h.table(t, tb.ID)
	again, err := move(cur.Clone())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.Save(ctx, cur, again, "first"); !errors.Is(err, cribbage.ErrDuplicate) {
		t.Errorf("the first interaction saved again: %v, want ErrDuplicate", err)
	}
	if saved, err := h.s.Save(ctx, cur, nil, "nothing"); saved != nil || err != nil {
		t.Errorf("a nil change: %v, %v", saved, err)
	}
	if got := h.table(t, tb.ID).Version; got != cur.Version {
		t.Errorf("version %d, want %d: a refused or empty change was saved", got, cur.Version)
	}
}

// testTableVersion: TableVersion is the version Table reads, as each
// change moves it on; a table that is not there is ErrNotFound.
func testTableVersion(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	if v, err := h.s.TableVersion(ctx, tb.ID); err != nil || v != tb.Version {
		t.Errorf("TableVersion = %d, %v; want %d", v, err, tb.Version)
	}
	moved, err := h.step(tb.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := h.s.TableVersion(ctx, tb.ID); err != nil || v != moved.Version || v == tb.Version {
		t.Errorf("after a move: %d, %v; want %d", v, err, moved.Version)
	}
	if _, err := h.s.TableVersion(ctx, 999); !errors.Is(err, cribbage.ErrNotFound) {
		t.Errorf("no table: %v, want ErrNotFound", err)
	}
}

// testTableToChangeReadsWhatAChangeNeeds: TableToChange reads the table
// twice over (the copy a change makes its own shares nothing with the
// table as read, which Save compares against), with its message and its
// server's settings; a table outside a server has unset settings.
func testTableToChangeReadsWhatAChangeNeeds(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	hour := time.Hour
	set, err := h.s.UpdateGuildSettings(ctx, "g", func(gs *cribbage.GuildSettings) error {
		gs.Language, gs.ReminderAfter, gs.DefaultPoints, gs.UpdatedBy = "fr", &hour, 61, "admin"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetMessages(ctx, tb.ID, "m1", "th1"); err != nil {
		t.Fatal(err)
	}
	got, err := h.s.TableToChange(ctx, tb.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.From == nil || got.Table == nil || got.From == got.Table {
		t.Fatalf("from %p, table %p: want two tables", got.From, got.Table)
	}
	if got.Table.Version != got.From.Version || got.Table.ID != tb.ID {
		t.Errorf("the copy is table %d version %d, want %d version %d", got.Table.ID, got.Table.Version, tb.ID, got.From.Version)
	}
	got.Table.Seats[0].UserID = "someone else"
	got.Table.State.Scores[0] = 99
	if got.From.Seats[0].UserID == "someone else" || got.From.State.Scores[0] == 99 {
		t.Error("changing the copy changed the table as read")
	}
	if got.Message.TableID != tb.ID || got.Message.MessageID != "m1" || got.Message.ThreadID != "th1" {
		t.Errorf("message %+v, want m1 in thread th1", got.Message)
	}
	if !reflect.DeepEqual(got.Settings, set) {
		t.Errorf("settings %+v, want %+v", got.Settings, set)
	}
	unset := h.startGame(t, lobby("h", "a", "b"))
	if got, err := h.s.TableToChange(ctx, unset.ID, ""); err != nil || got.Settings != (cribbage.GuildSettings{GuildID: "h"}) {
		t.Errorf("a server with no settings: %+v, %v; want them unset", got.Settings, err)
	}
	dm := lobby("", "a", "b")
	dm.ChannelID = "dm"
	away := h.startGame(t, dm)
	got, err = h.s.TableToChange(ctx, away.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Settings != (cribbage.GuildSettings{}) || got.Message.TableID != away.ID || got.Message.MessageID != "" {
		t.Errorf("a table outside a server: settings %+v, message %+v; want none", got.Settings, got.Message)
	}
}

// testTableToShowReadsWhatAPassShows: TableToShow reads the table as
// Table does, with its message, its server's settings and its hand views
// by seat, as the MessageBook's own reads return them.
func testTableToShowReadsWhatAPassShows(t *testing.T, h *harness) {
	tb := h.startGame(t, lobby("g", "a", "b"))
	if _, err := h.s.UpdateGuildSettings(ctx, "g", func(gs *cribbage.GuildSettings) error {
		gs.Language = "de"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetMessages(ctx, tb.ID, "m1", "th1"); err != nil {
		t.Fatal(err)
	}
	if err := h.s.RecordBoard(ctx, tb.ID, "board-1"); err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1_700_000_000_000)
	for _, seat := range []int{1, 0} {
		v := cribbage.HandView{Seat: seat, Version: tb.Version, Token: cribbage.MessageToken{Token: fmt.Sprint("tok", seat), MessageID: fmt.Sprint("view", seat), At: at}, Lang: "fr", Shown: "sum"}
		if err := h.s.RecordHandView(ctx, tb.ID, v); err != nil {
			t.Fatal(err)
		}
	}
	got, err := h.s.TableToShow(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	table, _ := h.s.Table(ctx, tb.ID)
	if !reflect.DeepEqual(got.Table, table) {
		t.Errorf("table %+v, want %+v", got.Table, table)
	}
	msg, _ := h.s.TableMessage(ctx, tb.ID)
	if got.Message != msg || msg.MessageID != "m1" || msg.Board != "board-1" {
		t.Errorf("message %+v, want %+v with m1 and its board", got.Message, msg)
	}
	settings, _ := h.s.GuildSettings(ctx, "g")
	if !reflect.DeepEqual(got.Settings, settings) || got.Settings.Language != "de" {
		t.Errorf("settings %+v, want %+v", got.Settings, settings)
	}
	views, _ := h.s.HandViews(ctx, tb.ID)
	if !reflect.DeepEqual(got.Views, views) || len(views) != 2 || views[0].Seat != 0 {
		t.Errorf("views %+v, want %+v, seat 0 first", got.Views, views)
	}
	if _, err := h.s.TableToShow(ctx, 999); !errors.Is(err, cribbage.ErrNotFound) {
		t.Errorf("no table: %v, want ErrNotFound", err)
	}
}

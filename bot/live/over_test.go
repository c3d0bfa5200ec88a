package live

import (
	"slices"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// TestAFinishedTable: the change that ends a game is shown, on the table
// message and every open view; later touches (the outbox's last refresh,
// a timer) and a click on a view send nothing, and nothing is left to do.
func TestAFinishedTable(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	tok := r.editToken()
	views := []string{r.openView(0), r.openView(1)}
	resigner := r.table().State.Turn

	mark := r.mark()
	tb, note := r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Move(t, engine.Action{Kind: engine.ActResign, Seat: resigner}, r.env())
	})
	if tb.Status != cribbage.StatusFinished {
		t.Fatalf("the table is %s after a resignation", tb.Status)
	}
	r.s.Moved(tb, note)
	r.settle()
	reqs := r.requests(mark)
	edits := through(reqs, tok)
	if len(edits) != 1 {
		t.Fatalf("%d edits of the table message through its token, want 1", len(edits))
	}
	checkShows(t, edits[0], tb, render.Table(lang.English, r.table(), r.message().Board))
	if len(edits[0].Uploads()) == 0 {
		t.Error("the finished game's board (its winner's star) did not go with the edit")
	}
	for seat, v := range views {
		edits := through(reqs, v)
		if len(edits) != 1 {
			t.Fatalf("seat %d: %d edits of its view, want 1", seat, len(edits))
		}
		checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
	}

	mark = r.mark()
	r.s.Touch(r.id) // the last refresh the change queued in the outbox
	r.settle()
	r.advance(time.Minute)
	r.s.Touch(r.id) // a timer
	r.settle()
	if m, _, ok := r.fake.Original(views[0]); ok {
		r.clickView(0, m.ID) // Refresh on a view
	} else {
		t.Error("the view has no message")
	}
	r.advance(time.Minute)
	if reqs := surfaceOnly(r.requests(mark)); len(reqs) != 0 {
		t.Errorf("touches of a finished table made %d requests, the first %s %s", len(reqs), reqs[0].Method, reqs[0].Route)
	}
	if r.s.Pending() != 0 || len(r.clock.Waits()) != 0 {
		t.Errorf("%d passes or touches left, timers in %v", r.s.Pending(), r.clock.Waits())
	}
	r.checkCalm()
}

// TestOverIsKeptForOverKeep: what is remembered of a table that is over
// goes once overKeep has passed since it was last shown over, when
// another table's end sweeps it; a table shown over again is kept from
// then.
func TestOverIsKeptForOverKeep(t *testing.T) {
	l := newLive()
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		table int64
		after time.Duration
		want  []int64
	}{
		{1, 0, nil},
		{2, time.Second, nil},
		{1, overKeep - time.Second, nil}, // shown over again: kept from now
		{3, overKeep + time.Second, []int64{2}},
		{3, 2*overKeep - time.Second, []int64{1}},
		{4, 3 * overKeep, []int64{3}},
	} {
		got := l.ended(c.table, at.Add(c.after))
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("table %d over at +%v: forgets %v, want %v", c.table, c.after, got, c.want)
		}
	}
}

// TestAStoppingBotLeavesTheRest: once the bot is stopping, a change
// starts no pass and an edit put off on the clock is not made when its
// time comes; nothing is left pending (the next start shows every open
// table).
func TestAStoppingBotLeavesTheRest(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	tok := r.editToken()
	r.settle()
	mark := r.mark()
	r.move(r.table().State.Turn)
	r.settle()
	r.move(r.table().State.Turn) // put off for the token's spacing
	r.settle()
	if len(r.clock.Waits()) == 0 {
		t.Fatal("the second edit was not put off")
	}
	r.stopping.Store(true)
	r.move(r.table().State.Turn)
	r.advance(tokenEditGap)
	if n := len(through(r.requests(mark), tok)); n != 1 {
		t.Errorf("%d edits through the token, want only the first, made before the bot was stopping", n)
	}
	if r.s.Pending() != 0 || len(r.clock.Waits()) != 0 {
		t.Errorf("%d passes or touches left, timers in %v", r.s.Pending(), r.clock.Waits())
	}
}

// TestAFinishedTableLongAfter: touches of a finished table long after its
// end (a rematch offer lapsing a day later, and its closing refresh) send
// nothing while it shows what it did: it is remembered from its last
// showing, not forgotten in the pass that showed it.
func TestAFinishedTableLongAfter(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	tb, note := r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Move(t, engine.Action{Kind: engine.ActResign, Seat: t.State.Turn}, r.env())
	})
	r.s.Moved(tb, note)
	r.settle()
	r.advance(24 * time.Hour)
	mark := r.mark()
	for range 3 {
		r.s.Touch(r.id)
		r.settle()
		r.advance(tableEditGap)
	}
	if reqs := surfaceOnly(r.requests(mark)); len(reqs) != 0 {
		t.Errorf("touches of a finished table a day on made %d requests, the first %s %s", len(reqs), reqs[0].Method, reqs[0].Route)
	}
}

// TestAChangeThatLeavesAViewAsItIsDoesNotEditIt: after a game's end, a
// rematch offer changes the table (its message says so) but not the
// players' hand views, which are not edited to what they show.
func TestAChangeThatLeavesAViewAsItIsDoesNotEditIt(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	views := []string{r.openView(0), r.openView(1)}
	tb, note := r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Move(t, engine.Action{Kind: engine.ActResign, Seat: t.State.Turn}, r.env())
	})
	r.s.Moved(tb, note)
	r.settle()
	r.advance(tableEditGap)
	mark := r.mark()
	tb, _ = r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		ch, err := cribbage.OfferRematch(t, userID(0), r.env())
		return ch, nil, err
	})
	r.s.Moved(tb, nil)
	r.settle()
	r.advance(tableEditGap) // the table message's bot-token spacing
	reqs := surfaceOnly(r.requests(mark))
	for seat, v := range views {
		if n := len(through(reqs, v)); n != 0 {
			t.Errorf("seat %d's view was edited %d times by a rematch offer", seat, n)
		}
	}
	if len(reqs) != 1 {
		t.Errorf("%d requests, want the table message's edit alone", len(reqs))
	}
}

package live

import (
	"net/http"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// TestHandViewFollowsAnotherSeatsMove: a seat whose hand view is recorded
// sees another seat's move on it, through its own token, with the move in
// words above its cards; once, however often the table is touched.
func TestHandViewFollowsAnotherSeatsMove(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	mover := r.table().State.Turn
	seat := 1 - mover
	tok := r.openView(seat)

	mark := r.mark()
	tb, note := r.move(mover)
	r.settle()
	edits := through(r.requests(mark), tok)
	if len(edits) != 1 {
		t.Fatalf("%d edits of the view after another seat's move, want 1", len(edits))
	}
	checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))

	mark = r.mark()
	for range 2 { // within the token's spacing, and past it
		r.s.Touch(r.id)
		r.settle()
		r.advance(tokenEditGap)
	}
	if n := len(through(r.requests(mark), tok)); n != 0 {
		t.Errorf("the view was edited %d times more with nothing new", n)
	}
	r.checkCalm()
}

// TestTheDiscardLeavesAChoosingSeatAlone: while a seat is choosing its
// cards for the crib, another seat's throw leaves its view (and the cards
// it has toggled) alone, since what it decides on has not changed; once
// it has thrown, the other's throw is shown on its view.
func TestTheDiscardLeavesAChoosingSeatAlone(t *testing.T) {
	for _, c := range []struct {
		name      string
		thrown    bool // the seat has thrown before the other
		wantEdits int
	}{
		{"choosing", false, 0},
		{"thrown", true, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, 2)
			const seat, other = 1, 0
			if c.thrown {
				r.move(seat)
				r.settle()
				r.advance(tableEditGap) // the table message's bot-token spacing
			}
			tok := r.openView(seat)
			mark := r.mark()
			tb, note := r.move(other)
			r.settle()
			edits := through(r.requests(mark), tok)
			if len(edits) != c.wantEdits {
				t.Fatalf("%d edits of the view after the other seat's throw, want %d", len(edits), c.wantEdits)
			}
			if len(edits) > 0 {
				checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
			}
			if n := len(botEdits(r.requests(mark))); n != 1 {
				t.Errorf("the table message was edited %d times, want once", n)
			}
		})
	}
}

// TestASupersededViewIsLeftAlone: a seat that opened its hand view twice
// has the newer view kept current; the older one, which the player has
// moved on from, is not edited, whichever answer was recorded last.
func TestASupersededViewIsLeftAlone(t *testing.T) {
	for _, olderLast := range []bool{false, true} {
		name := "in order"
		if olderLast {
			name = "the older answer recorded last"
		}
		t.Run(name, func(t *testing.T) {
			r := newRig(t, 2)
			r.playUntil(inPlay)
			mover := r.table().State.Turn
			seat := 1 - mover
			older, newer := r.openTwice(seat, olderLast)

			mark := r.mark()
			tb, note := r.move(mover)
			r.settle()
			reqs := r.requests(mark)
			if n := len(through(reqs, older)); n != 0 {
				t.Errorf("the superseded view was edited %d times", n)
			}
			edits := through(reqs, newer)
			if len(edits) != 1 {
				t.Fatalf("%d edits of the newer view, want 1", len(edits))
			}
			checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
		})
	}
}

// TestAnEditOfTheOlderViewIsNotCountedForTheNewer: a seat opens a new
// hand view while a pass is about to edit its older one: the older view's
// edit, which lands after the new view's answer, does not count as showing
// the new view the table, so the new view is brought up to date too.
func TestAnEditOfTheOlderViewIsNotCountedForTheNewer(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	mover := r.table().State.Turn
	seat := 1 - mover
	older := r.openView(seat)
	r.clock.Advance(time.Second)

	// The new view is answered with the table before the move; its answer
	// is noted once the move's pass has read the older view as the seat's.
	newer := r.interaction(seat, handClick(r.id))
	before, at := r.table(), r.clock.Now()
	r.answerView(newer, seat)
	noted := func() {
		r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: before.Version, View: click.SeatView(before.State, seat),
			Token: cribbage.MessageToken{Token: newer.Token, At: at}})
	}
	r.afterRead.Store(&noted)
	mark := r.mark()
	tb, note := r.move(mover)
	r.settle()
	r.advance(tokenEditGap)
	reqs := r.requests(mark)
	if n := len(through(reqs, older)); n > 1 {
		t.Errorf("the older view was edited %d times", n)
	}
	edits := through(reqs, newer.Token)
	if len(edits) != 1 {
		t.Fatalf("%d edits of the newer view, want 1", len(edits))
	}
	checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
}

// openTwice opens seat's view twice, a second apart, and records the
// answers in order or the older last; it returns the two tokens.
func (r *rig) openTwice(seat int, olderLast bool) (older, newer string) {
	r.t.Helper()
	if !olderLast {
		older = r.openView(seat)
		r.clock.Advance(time.Second)
		return older, r.openView(seat)
	}
	// The second click's answer is recorded before the first's: both
	// interactions came, a second apart, before either was recorded.
	first, at := r.interaction(seat, handClick(r.id)), r.clock.Now()
	r.answerView(first, seat)
	r.clock.Advance(time.Second)
	second := r.interaction(seat, handClick(r.id))
	r.answerView(second, seat)
	r.record(second, seat, r.clock.Now())
	r.record(first, seat, at)
	r.settle()
	return first.Token, second.Token
}

// TestAGoneViewIsNotTriedAgain: a view Discord no longer has (the player
// dismissed it: Unknown Message) is tried once; later moves do not spend
// a request on it each, until the seat opens a new one, which is kept
// current.
func TestAGoneViewIsNotTriedAgain(t *testing.T) {
	r := newRig(t, 3)
	r.playUntil(inPlay)
	seat := (r.table().State.Turn + 2) % 3 // the next two moves are the others'
	tok := r.openView(seat)
	m, _, ok := r.fake.Original(tok)
	if !ok {
		t.Fatal("the view has no message")
	}
	r.fake.DeleteMessage(m.ID)

	mark := r.mark()
	r.move(r.table().State.Turn)
	r.settle()
	if n := len(through(r.requests(mark), tok)); n != 1 {
		t.Fatalf("the gone view was tried %d times after the first move, want once", n)
	}
	r.advance(tableEditGap)
	r.move(r.table().State.Turn)
	r.settle()
	r.advance(liveRetry)
	if n := len(through(r.requests(mark), tok)); n != 1 {
		t.Errorf("the gone view was tried %d times in all, want once", n)
	}

	if r.table().State.Turn != seat {
		t.Fatal("the seat is not to play")
	}
	fresh := r.openView(seat)
	mark = r.mark()
	r.advance(tableEditGap)
	r.move(seat)
	tb, note := r.move(r.table().State.Turn)
	r.settle()
	r.advance(tokenEditGap)
	edits := through(r.requests(mark), fresh)
	if len(edits) == 0 {
		t.Fatal("the seat's new view was not edited")
	}
	checkShows(t, edits[len(edits)-1], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
}

// TestAnExpiredViewIsNotEdited: a hand view is edited through its token
// only while the token is usable; past that nothing is sent for it (the
// player's next click opens a fresh view).
func TestAnExpiredViewIsNotEdited(t *testing.T) {
	for _, c := range []struct {
		name  string
		age   time.Duration
		edits int
	}{
		{"a second short of its use", rest.TokenUsable - time.Second, 1},
		{"past its use", rest.TokenUsable, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, 2)
			r.playUntil(inPlay)
			mover := r.table().State.Turn
			tok := r.openView(1 - mover)
			r.advance(c.age)
			mark := r.mark()
			r.move(mover)
			r.settle()
			if n := len(through(r.requests(mark), tok)); n != c.edits {
				t.Errorf("%d edits through the view's token, want %d", n, c.edits)
			}
		})
	}
}

// TestAClickRenewsARefusedView: a click on a view whose recorded token
// Discord refused records the click's token, though the recorded one is
// young (a click on the same view otherwise keeps it), so the view is kept
// current again.
func TestAClickRenewsARefusedView(t *testing.T) {
	r := newRig(t, 3)
	r.playUntil(inPlay)
	seat := (r.table().State.Turn + 2) % 3 // the next two moves are the others'
	view, _, ok := r.fake.Original(r.openView(seat))
	if !ok {
		t.Fatal("the view has no message")
	}
	recorded := r.clickView(seat, view.ID) // the view's own token from now on
	r.fake.FailNext("PATCH", "/"+recorded+"/", http.StatusUnauthorized, 1)
	mark := r.mark()
	r.move(r.table().State.Turn)
	r.settle()
	if n := len(through(r.requests(mark), recorded)); n != 1 {
		t.Fatalf("%d edits through the view's token, want the one refused", n)
	}

	r.clock.Advance(time.Second)
	fresh := r.clickView(seat, view.ID)
	r.advance(tableEditGap)
	mark = r.mark()
	tb, note := r.move(r.table().State.Turn)
	r.settle()
	edits := through(r.requests(mark), fresh)
	if len(edits) != 1 {
		t.Fatalf("%d edits through the click's token, want 1", len(edits))
	}
	checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
}

// TestAViewsOwnTokenCountsAtAnyPrecision: a view recorded by a click that
// came between two milliseconds is edited once for a move, and not again:
// the pass reads the view's token back from the store, which keeps its
// time to the millisecond, and its edit still counts as the seat's own.
// (Counted by time alone, the token looked older than itself, and every
// touch edited the view again with the same content.)
func TestAViewsOwnTokenCountsAtAnyPrecision(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	r.advance(time.Millisecond / 3)
	mover := r.table().State.Turn
	seat := 1 - mover
	tok := r.openView(seat)
	mark := r.mark()
	r.move(mover)
	r.settle()
	if n := len(through(r.requests(mark), tok)); n != 1 {
		t.Fatalf("%d edits of the view after another seat's move, want 1", n)
	}
	mark = r.mark()
	for range 2 {
		r.s.Touch(r.id)
		r.settle()
		r.advance(tokenEditGap)
	}
	if n := len(through(r.requests(mark), tok)); n != 0 {
		t.Errorf("the view was edited %d times more with nothing new", n)
	}
}

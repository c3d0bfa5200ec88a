package live

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// restart is the process starting again (after a kill) on the same store
// and clock: it remembers nothing of what it showed, and knows only what
// the store recorded.
func (r *rig) restart() {
	r.t.Helper()
	r.settle()
	r.s = New(r.s.opts)
}

// openViewShowing is openView as the bot answers it, with what the
// answer showed (Shown.Shows); it returns the view's token.
func (r *rig) openViewShowing(seat int) string {
	r.t.Helper()
	i := r.interaction(seat, handClick(r.id))
	t := r.table()
	shows := render.Hand(lang.English, t, seat, 0, "")
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: shows.Response(true)})
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: t.Version, View: click.SeatView(t.State, seat),
		Token: cribbage.MessageToken{Token: i.Token, At: r.clock.Now()}, Shows: &shows})
	r.settle()
	return i.Token
}

// refreshShowing is seat's Refresh on its view, with nothing new to show:
// answered by leaving the view as it is (a deferred update), and recorded
// with the view's message.
func (r *rig) refreshShowing(seat int, view discordtest.Message) {
	r.t.Helper()
	i := r.clickOnView(seat, view.ID)
	t := r.table()
	shows := render.Hand(lang.English, t, seat, 0, "")
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: t.Version, View: click.SeatView(t.State, seat),
		Token: cribbage.MessageToken{MessageID: view.ID, Token: i.Token, At: r.clock.Now()}, Clicked: render.TextOf(&view.Message), Shows: &shows})
	r.settle()
}

// checkStartSendsNothing restarts the process and checks that its first
// pass over the table sends nothing: the table message and every view
// show the table as it is.
func (r *rig) checkStartSendsNothing() {
	r.t.Helper()
	r.restart()
	mark := r.mark()
	r.s.Touch(r.id)
	r.settle()
	if reqs := surfaceOnly(r.requests(mark)); len(reqs) != 0 {
		r.t.Errorf("the first pass after a start made %d requests, the first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
}

// TestAStartRepeatsNoEditOfAHandView: a process that starts knows what
// each hand view shows by what the store recorded with the view (the
// table version and a digest of what it was last made to show), so its
// first pass edits no view that shows the table already. Without it, each
// view the table had moved on from since its token was recorded was
// edited once more at every start, to what it showed.
func TestAStartRepeatsNoEditOfAHandView(t *testing.T) {
	t.Run("a view kept current by an edit", func(t *testing.T) {
		r := newRig(t, 2)
		r.playUntil(inPlay)
		mover := r.table().State.Turn
		seat := 1 - mover
		tok := r.openView(seat)
		mark := r.mark()
		r.move(mover)
		r.settle()
		if n := len(through(r.requests(mark), tok)); n != 1 {
			t.Fatalf("%d edits of the view after the other seat's move, want 1", n)
		}
		r.advance(boardGap) // the move's board, put off, goes on the table message
		r.checkStartSendsNothing()

		// A change after the start is still shown on the view.
		r.advance(tokenEditGap)
		mark = r.mark()
		tb, note := r.move(r.table().State.Waiting()[0])
		r.settle()
		edits := through(r.requests(mark), tok)
		if len(edits) != 1 {
			t.Fatalf("%d edits of the view after a move after the start, want 1", len(edits))
		}
		checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb)))
	})

	t.Run("a play answered on the view", func(t *testing.T) {
		// The play's token is not recorded (the view's own, recorded by
		// a Refresh on it, lives long enough): what its answer showed
		// is, with the view.
		r := newRig(t, 2)
		r.playUntil(inPlay)
		r.editToken()
		mover := r.table().State.Turn
		tok := r.openViewShowing(mover)
		view := r.viewOf(tok)
		r.refreshShowing(mover, view)
		r.advance(tokenEditGap)
		i := r.clickOnView(mover, view.ID)
		r.s.Answering(i.ID, r.id, mover)
		tb, note := r.move(mover)
		r.settle()
		shows := render.Hand(lang.English, tb, mover, 0, note.Text(lang.English, tb))
		r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: shows.Response(true)})
		r.s.Answered(r.ctx, Shown{Table: r.id, Seat: mover, Version: tb.Version, View: click.SeatView(tb.State, mover),
			Token: cribbage.MessageToken{MessageID: view.ID, Token: i.Token, At: r.clock.Now()}, Clicked: render.TextOf(&view.Message), Shows: &shows})
		r.s.Released(i.ID)
		r.settle()
		r.checkStartSendsNothing()
	})

	t.Run("a change the view does not show", func(t *testing.T) {
		// Views opened on a finished game, then a rematch offer: the
		// table moved on, and its views show what they showed; the start
		// knows it by the digest.
		r := newRig(t, 2)
		r.playUntil(inPlay)
		tb, note := r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
			return cribbage.Move(t, engine.Action{Kind: engine.ActResign, Seat: t.State.Turn}, r.env())
		})
		r.s.Moved(tb, note)
		r.settle()
		r.advance(tableEditGap)
		views := []string{r.openViewShowing(0), r.openViewShowing(1)}
		r.restart()
		r.advance(tableEditGap)
		mark := r.mark()
		tb, _ = r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
			ch, err := cribbage.OfferRematch(t, userID(0), r.env())
			return ch, nil, err
		})
		r.s.Moved(tb, nil)
		r.settle()
		reqs := surfaceOnly(r.requests(mark))
		for seat, v := range views {
			if n := len(through(reqs, v)); n != 0 {
				t.Errorf("seat %d's view was edited %d times after a start, to what it showed", seat, n)
			}
		}
		if len(reqs) != 1 {
			t.Errorf("%d requests, want the table message's edit alone", len(reqs))
		}
	})
}

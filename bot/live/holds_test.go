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

// viewOf is the message of the view a token's answer posted.
func (r *rig) viewOf(token string) discordtest.Message {
	r.t.Helper()
	m, _, ok := r.fake.Original(token)
	if !ok {
		r.t.Fatal("the view has no message")
	}
	return m
}

// clickOnView is seat's click on a button of its view viewID, which
// Discord has sent to the bot.
func (r *rig) clickOnView(seat int, viewID string) *discordgo.Interaction {
	r.t.Helper()
	i := r.fake.Prepare(discordtest.Click(guild, channel, discordtest.User{ID: userID(seat), Name: "p"}, viewID,
		click.ID{Action: click.Refresh, Table: r.id}.String()))
	if _, err := r.fake.Send(r.ctx, i); err == nil {
		r.t.Fatal("an interaction was delivered with no bot connected")
	}
	return i
}

// TestAPlayIsShownOnTheViewByItsAnswerAlone: a seat plays from its view;
// the change's pass edits the table message and the other seat's view,
// and leaves the player's own view to the click's answer, which shows
// the play: once it is sent and recorded, nothing more is sent. Without
// the hold, the pass edited the player's view to what the answer showed.
func TestAPlayIsShownOnTheViewByItsAnswerAlone(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	tableTok := r.editToken()
	mover := r.table().State.Turn
	views := map[int]string{mover: r.openView(mover), 1 - mover: r.openView(1 - mover)}
	view := r.viewOf(views[mover])
	r.advance(tokenEditGap)

	i := r.clickOnView(mover, view.ID)
	mark := r.mark()
	r.s.Answering(i.ID, r.id, mover)
	tb, note := r.move(mover)
	r.settle()
	reqs := r.requests(mark)
	if n := len(through(reqs, views[mover])); n != 0 {
		t.Errorf("the player's own view was edited %d times before its answer", n)
	}
	if n := len(through(reqs, views[1-mover])); n != 1 {
		t.Errorf("the other seat's view was edited %d times, want 1", n)
	}
	if n := len(through(reqs, tableTok)); n != 1 {
		t.Errorf("the table message was edited %d times, want 1", n)
	}

	mark = r.mark()
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: render.Hand(lang.English, tb, mover, 0, note.Text(lang.English, tb)).Response(true)})
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: mover, Version: tb.Version, View: click.SeatView(tb.State, mover),
		Token: cribbage.MessageToken{MessageID: view.ID, Token: i.Token, At: r.clock.Now()}, Clicked: render.TextOf(&view.Message)})
	r.s.Released(i.ID)
	r.settle()
	r.advance(tokenEditGap)
	if reqs := surfaceOnly(r.requests(mark)); len(reqs) != 0 {
		t.Errorf("after the answer, %d requests; the first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
	r.checkCalm()
}

// TestARefusedClickLeavesTheViewToThePass: a click whose answer is not
// the view after all (a refusal in a message of its own) leaves nothing
// held once it is sent: the view the pass left is edited then, once.
func TestARefusedClickLeavesTheViewToThePass(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	mover := r.table().State.Turn
	tok := r.openView(mover)
	view := r.viewOf(tok)
	r.advance(tokenEditGap)

	i := r.clickOnView(mover, view.ID)
	mark := r.mark()
	r.s.Answering(i.ID, r.id, mover)
	tb, note := r.move(mover) // made, say, by the other process's click
	r.settle()
	if n := len(through(r.requests(mark), tok)); n != 0 {
		t.Fatalf("the view was edited %d times while its click's answer was to come", n)
	}
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "No.", Flags: discordgo.MessageFlagsEphemeral}})
	r.s.Released(i.ID)
	r.settle()
	edits := through(r.requests(mark), tok)
	if len(edits) != 1 {
		t.Fatalf("the view was edited %d times once the refusal was sent, want 1", len(edits))
	}
	checkShows(t, edits[0], tb, render.Hand(lang.English, tb, mover, 0, note.Text(lang.English, tb)))
}

// TestAClickOnTheTableMessageIsShownByItsAnswer: a change made by a click
// on the table message (Join, Rematch, Claim the win) is shown there by
// the click's answer, which updates it: the pass leaves the message to
// it, and once the answer is recorded (TableAnswered) nothing edits the
// message to that again.
func TestAClickOnTheTableMessageIsShownByItsAnswer(t *testing.T) {
	r := newRig(t, 2)
	tableTok := r.editToken()
	r.advance(tokenEditGap)

	i := r.interaction(0, click.ID{Action: click.Refresh, Table: r.id})
	mark := r.mark()
	r.s.Answering(i.ID, r.id, -1)
	tb, _ := r.move(0) // a throw: the board stays as it is
	r.settle()
	if n := len(through(r.requests(mark), tableTok)) + len(botEdits(r.requests(mark))); n != 0 {
		t.Fatalf("the table message was edited %d times while the click's answer was to come", n)
	}
	shown := render.Table(lang.English, tb, r.message().Board)
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: shown.Response(false)})
	r.s.TableAnswered(tb, shown)
	r.s.Released(i.ID)
	r.settle()
	r.advance(tokenEditGap)
	r.s.Touch(r.id)
	r.settle()
	if reqs := surfaceOnly(r.requests(mark)); len(reqs) != 0 {
		t.Errorf("%d requests after the answer; the first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
}

// TestTheFirstBoardIsOneEdit: a table message that shows no board yet
// gets one with the next edit, and that edit is what it shows: a touch
// after it sends nothing. (The edit recorded the message's text without
// the board's picture in it, so the next pass took the message for
// behind and edited it to what it showed.)
func TestTheFirstBoardIsOneEdit(t *testing.T) {
	r := newRig(t, 2)
	if err := r.store.RecordBoard(r.ctx, r.id, ""); err != nil {
		t.Fatal(err)
	}
	r.s.edits.forget(r.id)
	mark := r.mark()
	r.s.Touch(r.id)
	r.settle()
	reqs := surfaceOnly(r.requests(mark))
	if len(reqs) != 1 || len(reqs[0].Uploads()) == 0 {
		t.Fatalf("%d requests, want one edit with the board", len(reqs))
	}
	mark = r.mark()
	r.advance(boardGap)
	r.s.Touch(r.id)
	r.settle()
	if reqs := surfaceOnly(r.requests(mark)); len(reqs) != 0 {
		t.Errorf("a touch after the first board made %d requests", len(reqs))
	}
}

// TestAViewIsNotEditedToWhatItsAnswerShowed: the view a seat's last click
// was answered with is what it shows: a later change that leaves it as it
// is (a rematch offer after the game the click ended) does not edit it.
func TestAViewIsNotEditedToWhatItsAnswerShowed(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	seat := r.table().State.Turn
	opened := r.openView(seat)
	view := r.viewOf(opened)
	r.advance(tokenEditGap)

	i := r.clickOnView(seat, view.ID)
	r.s.Answering(i.ID, r.id, seat)
	tb, note := r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Move(t, engine.Action{Kind: engine.ActResign, Seat: seat}, r.env())
	})
	r.s.Moved(tb, note)
	r.settle()
	shows := render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb))
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: shows.Response(true)})
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: tb.Version, View: click.SeatView(tb.State, seat),
		Token: cribbage.MessageToken{MessageID: view.ID, Token: i.Token, At: r.clock.Now()}, Clicked: render.TextOf(&view.Message), Shows: &shows})
	r.s.Released(i.ID)
	r.settle()
	r.advance(tableEditGap)

	mark := r.mark()
	tb, _ = r.update(func(t *cribbage.Table) (*cribbage.Change, []engine.Event, error) {
		ch, err := cribbage.OfferRematch(t, userID(1-seat), r.env())
		return ch, nil, err
	})
	r.s.Moved(tb, nil)
	r.settle()
	r.advance(tableEditGap)
	if n := len(through(r.requests(mark), i.Token)) + len(through(r.requests(mark), opened)); n != 0 {
		t.Errorf("the view was edited %d times to what its answer showed", n)
	}
}

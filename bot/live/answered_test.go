package live

import (
	"fmt"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestAnOlderAnswerLandingLastIsShownAgain: a player's click is answered
// with the view of version 13 after a live edit of version 14 (another
// player's move) has landed on the same view: the view shows 13 now, so
// the next pass must edit it to 14, not take it for current. (Two players
// throwing at once left a held view saying "Waiting for Bob to throw" on
// its player's turn to play, until Refresh.)
func TestAnOlderAnswerLandingLastIsShownAgain(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	l.writing(k, cribbage.MessageToken{Token: "t", MessageID: "m"}, "v14 text")
	l.wrote(k, 14, "v14", [32]byte{}, true)
	l.answered(k, clickOn(13, "v13", ""), nil)
	if l.viewCurrent(k, 0, 14) {
		t.Error("the view is taken for showing version 14 after an answer of 13 landed last")
	}
	// A newer answer still counts as shown.
	l.answered(k, clickOn(15, "v15", ""), nil)
	if !l.viewCurrent(k, 0, 15) {
		t.Error("an answer of version 15 is not taken for showing it")
	}
}

// TestAnAnswerAfterEveryEditLandedIsWhatTheViewShows: an answer that
// clobbered a live edit under way leaves the view to be written again; a
// later answer, with no edit under way, landed after every edit, so the
// view shows what it showed and no pass edits it to that again.
func TestAnAnswerAfterEveryEditLandedIsWhatTheViewShows(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	l.writing(k, cribbage.MessageToken{Token: "t", MessageID: "m"}, "v14 text")
	if !l.answered(k, clickOn(14, "v14", ""), nil) {
		t.Fatal("an answer while an edit was under way did not clobber it")
	}
	l.wrote(k, 14, "v14", [32]byte{}, true)
	if l.viewCurrent(k, 0, 14) {
		t.Fatal("a clobbered view is taken for current")
	}
	if l.answered(k, clickOn(15, "v15", ""), nil) {
		t.Error("an answer with no edit under way is taken for clobbered")
	}
	if !l.viewCurrent(k, 0, 15) {
		t.Error("an answer with no edit under way is not taken for what the view shows")
	}
}

// TestAClickOnTheEditUnderWayDoesNotClobberIt: a player clicks on their
// view the moment it shows the other seat's move, while the bot still
// waits on that edit's reply. The clicked view shows the edit, so it
// landed before the click and before the answer: the answer is what the
// view shows, and the edit's reply, coming after, does not undo that.
func TestAClickOnTheEditUnderWayDoesNotClobberIt(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	l.writing(k, cribbage.MessageToken{Token: "t", MessageID: "m"}, "Bob plays 9♣")
	if l.answered(k, clickOn(15, "v15", "Bob plays 9♣"), nil) {
		t.Error("an answer to a click on the edit under way clobbered it")
	}
	l.wrote(k, 14, "v14", [32]byte{}, true)
	if !l.viewCurrent(k, 0, 15) {
		t.Error("the edit's reply, after the answer, undid it")
	}
	// A click on what the view showed before the edit proves nothing.
	l.writing(k, cribbage.MessageToken{Token: "t", MessageID: "m"}, "Alice plays 5♣")
	if !l.answered(k, clickOn(16, "v16", "Bob plays 9♣"), nil) {
		t.Error("an answer to a click on the view before the edit under way did not clobber it")
	}
}

// clickOn is an answer to a click on a view whose text was clicked,
// showing version and view.
func clickOn(version int64, view, clicked string) Shown {
	return Shown{Table: 1, Seat: 0, Version: version, View: view, Clicked: clicked,
		Token: cribbage.MessageToken{Token: "c" + view, MessageID: "m"}}
}

// TestANewViewClobbersNothing: a player opens a new view while a live edit
// of their older one is under way: the new view shows what its answer
// showed, whichever lands last, so nothing is written again, and the
// older view's edit does not count for the new one.
func TestANewViewClobbersNothing(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	l.writing(k, cribbage.MessageToken{Token: "old", MessageID: "m", At: time.Unix(10, 0)}, "Bob plays 9♣")
	answer := Shown{Table: 1, Seat: 0, Version: 14, View: "v14", Token: cribbage.MessageToken{Token: "new", At: time.Unix(20, 0)}}
	if l.answered(k, answer, nil) {
		t.Error("a new view was taken for clobbered by an edit of the older one")
	}
	l.record(k, answer.Token, answer.Version)
	l.wrote(k, 13, "v13", [32]byte{}, true)
	if !l.viewCurrent(k, 0, 14) {
		t.Error("the new view is not taken for showing its answer")
	}
}

// TestAnEditOfASupersededViewClobbersNothing: a pass edits a seat's older
// view while the player opens a new one and plays from it at once: the
// play's answer updates the new view, which the edit under way does not
// touch, so the new view is not written again to what the answer showed.
func TestAnEditOfASupersededViewClobbersNothing(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	l.record(k, cribbage.MessageToken{Token: "old", At: time.Unix(10, 0)}, 12)
	l.writing(k, cribbage.MessageToken{Token: "old", At: time.Unix(10, 0)}, "Bob plays 9♣")
	opened := Shown{Table: 1, Seat: 0, Version: 13, View: "v13", Token: cribbage.MessageToken{Token: "new", At: time.Unix(20, 0)}}
	l.answered(k, opened, nil)
	l.record(k, opened.Token, opened.Version)
	played := Shown{Table: 1, Seat: 0, Version: 14, View: "v14", Token: cribbage.MessageToken{Token: "play", MessageID: "m", At: time.Unix(21, 0)}}
	if l.answered(k, played, nil) {
		t.Error("an edit of the superseded view clobbered the answer to a click on the new one")
	}
	l.wrote(k, 13, "v13", [32]byte{}, true)
	if !l.viewCurrent(k, 0, 14) {
		t.Error("the play's answer is not taken for what the new view shows")
	}
}

// TestAnEditOfASupersededViewLeavesTheNewOneCurrent: while a pass's edit
// of a view the player has moved on from is under way, the view they
// play from, which its answer shows, is current: no pass edits it to
// that again.
func TestAnEditOfASupersededViewLeavesTheNewOneCurrent(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	old := cribbage.MessageToken{Token: "old", MessageID: "m1", At: time.Unix(10, 0)}
	l.record(k, old, 12)
	l.writing(k, old, "Bob plays 9♣")
	played := Shown{Table: 1, Seat: 0, Version: 14, View: "v14", Token: cribbage.MessageToken{Token: "play", MessageID: "m2", At: time.Unix(21, 0)}}
	l.answered(k, played, nil)
	l.record(k, played.Token, played.Version)
	if !l.viewCurrent(k, 0, 14) {
		t.Error("the view played from is taken for behind while its older view is edited")
	}
	l.writing(k, played.Token, "Bob plays 10♣")
	if l.viewCurrent(k, 0, 14) {
		t.Error("the view played from is taken for current while an edit of it is under way")
	}
}

// TestAnEarlierClicksAnswerNotedLateChangesNothing: two clicks on one
// view (a toggle, then Confirm at once), the first one's answer noted and
// recorded after the second's: the second answer landed last and is what
// the view shows, so the view is not taken for behind.
func TestAnEarlierClicksAnswerNotedLateChangesNothing(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	toggle := Shown{Table: 1, Seat: 0, Version: 53, View: "v53", Token: cribbage.MessageToken{Token: "toggle", MessageID: "m", At: time.Unix(10, 0)}}
	confirm := Shown{Table: 1, Seat: 0, Version: 54, View: "v54", Token: cribbage.MessageToken{Token: "confirm", MessageID: "m", At: time.Unix(11, 0)}}
	l.answered(k, confirm, nil)
	l.record(k, confirm.Token, confirm.Version)
	l.answered(k, toggle, nil)
	l.record(k, toggle.Token, toggle.Version)
	if !l.viewCurrent(k, 0, 54) {
		t.Error("the view is taken for behind after an earlier click's answer was noted late")
	}
}

// TestAnEditThroughTheOpenersTokenReachesItsView: a pass edits a view
// through the token of the click that opened it (a new private message,
// whose id the bot is not told) while the player clicks on that view
// twice: the first click records a token that names the view's message.
// The edit under way edits that message too, and may land after the
// second answer; taken for an edit of another message, it left the view
// showing an older table, with nothing sent until the next change.
func TestAnEditThroughTheOpenersTokenReachesItsView(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	opener := cribbage.MessageToken{Token: "open", At: time.Unix(10, 0)}
	l.record(k, opener, 12)
	l.writing(k, opener, "Bob plays 9♣")
	toggle := Shown{Table: 1, Seat: 0, Version: 12, View: "v12", Clicked: "Alice plays 5♣",
		Token: cribbage.MessageToken{Token: "toggle", MessageID: "m", At: time.Unix(11, 0)}}
	if !l.answered(k, toggle, nil) {
		t.Fatal("an answer on the view while an edit of it was under way did not clobber it")
	}
	l.record(k, toggle.Token, toggle.Version)
	played := Shown{Table: 1, Seat: 0, Version: 14, View: "v14", Clicked: "Alice chose 5♣",
		Token: cribbage.MessageToken{Token: "play", MessageID: "m", At: time.Unix(12, 0)}}
	if !l.answered(k, played, nil) {
		t.Error("the second answer on the view took the edit under way for one of another message")
	}
	l.wrote(k, 13, "v13", [32]byte{}, true)
	if l.viewCurrent(k, 0, 14) {
		t.Error("the view is taken for showing the play, though the edit through its opener's token may have landed last")
	}

	// A view opened since is another message: an edit through the older
	// opener's token leaves it as its answers showed it.
	l.record(k, cribbage.MessageToken{Token: "open-again", At: time.Unix(13, 0)}, 14)
	l.writing(k, opener, "Bob plays 10♣")
	again := Shown{Table: 1, Seat: 0, Version: 15, View: "v15",
		Token: cribbage.MessageToken{Token: "play-again", MessageID: "m2", At: time.Unix(14, 0)}}
	l.answered(k, again, nil)
	l.record(k, again.Token, again.Version)
	if l.answered(k, Shown{Table: 1, Seat: 0, Version: 15, View: "v15",
		Token: cribbage.MessageToken{Token: "toggle-again", MessageID: "m2", At: time.Unix(15, 0)}}, nil) {
		t.Error("an edit of the view opened before clobbered the one opened since")
	}
}

// TestClicksAfterOneOnTheEditAreShown: while a pass's edit of a view is
// under way (its reply not yet back), the player clicks on what it
// showed, then clicks twice more (two toggles and Confirm, at once): the
// edit landed before the first click, so each answer after it is what the
// view shows. Taken for clobbered, the view was edited once more to what
// the last answer had just shown.
func TestClicksAfterOneOnTheEditAreShown(t *testing.T) {
	l := newLive()
	k := seatKey{table: 1, seat: 0}
	opener := cribbage.MessageToken{Token: "open", At: time.Unix(10, 0)}
	l.record(k, opener, 12)
	l.writing(k, opener, "hand 3: choose two cards")
	for i, c := range []Shown{clickOn(13, "v13", "hand 3: choose two cards"), clickOn(13, "v13", "hand 3: 4♣ chosen"), clickOn(14, "v14", "hand 3: 4♣ 6♦ chosen")} {
		c.Token.Token, c.Token.At = fmt.Sprint("click-", i), time.Unix(int64(11+i), 0)
		if l.answered(k, c, nil) {
			t.Errorf("click %d's answer was taken for clobbered by an edit that landed before the first click", i)
		}
		l.record(k, c.Token, c.Version)
	}
	l.wrote(k, 13, "v13", [32]byte{}, true)
	if !l.viewCurrent(k, 0, 14) {
		t.Error("the view is not taken for showing the last answer")
	}
}

// TestAPassDuringASaveLeavesTheViewsToItsNote: a pass that reads the
// table between a change's save and its note (Moved) — one a click's
// answer started, say — leaves the hand views alone: shown then, they
// lacked the note's lines ("Bob plays 8♦ — 19."), and were edited again
// a moment later, or, with the player clicking at once, never showed
// them. The pass Moved brings shows each view once, with the note. When
// no note comes (the save failed after all, the change said nothing),
// the views are shown once the save is done.
func TestAPassDuringASaveLeavesTheViewsToItsNote(t *testing.T) {
	for _, noted := range []bool{true, false} {
		t.Run(fmt.Sprintf("noted %v", noted), func(t *testing.T) {
			r := newRig(t, 2)
			r.playUntil(inPlay)
			mover := r.table().State.Turn
			seat := 1 - mover
			tok := r.openView(seat)
			// The table message's and the view's last edits are long past:
			// a pass edits them at once.
			r.advance(time.Minute)

			mark := r.mark()
			done := r.s.Saving(r.id)
			tb, note := r.act(mover)
			r.s.Touch(r.id)
			r.settle()
			if n := len(through(r.requests(mark), tok)); n != 0 {
				t.Fatalf("a pass between the save and its note edited the view %d times", n)
			}
			if r.s.l.behind(r.id, tb.Version) {
				// The table message, which shows no note, is not held up.
				t.Error("the table message does not show the move saved")
			}
			want := ""
			if noted {
				r.s.Moved(tb, note)
				want = note.Text(lang.English, tb)
			}
			done()
			r.settle()
			edits := through(r.requests(mark), tok)
			if len(edits) != 1 {
				t.Fatalf("%d edits of the view, want 1", len(edits))
			}
			checkShows(t, edits[0], tb, render.Hand(lang.English, tb, seat, 0, want))
		})
	}
}

// TestAnAnswerWaitsForTheEditItWouldRace: whether an answer about to
// update a view waits for a live edit under way (landing), and that the
// edit's reply ends the wait.
func TestAnAnswerWaitsForTheEditItWouldRace(t *testing.T) {
	opener := cribbage.MessageToken{Token: "open", At: time.Unix(10, 0)}
	for _, tc := range []struct {
		name    string
		editing cribbage.MessageToken
		// recorded, if set, is the seat's view recorded before the edit.
		recorded *cribbage.MessageToken
		message  string
		clicked  string
		wait     bool
	}{
		{"an edit of the clicked view", cribbage.MessageToken{Token: "t", MessageID: "m"}, nil, "m", "Alice plays 5♣", true},
		{"a click on what the edit shows", cribbage.MessageToken{Token: "t", MessageID: "m"}, nil, "m", "Bob plays 9♣", false},
		{"an edit of another view", cribbage.MessageToken{Token: "t", MessageID: "m1"}, nil, "m2", "Alice plays 5♣", false},
		{"a new view", cribbage.MessageToken{Token: "t", MessageID: "m"}, nil, "", "", false},
		{"an edit through the recorded view's opener", opener, &opener, "m", "Alice plays 5♣", true},
		{"an edit through a superseded opener", opener, &cribbage.MessageToken{Token: "open-again", At: time.Unix(13, 0)}, "m", "Alice plays 5♣", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLive()
			k := seatKey{table: 1, seat: 0}
			if tc.recorded != nil {
				l.record(k, *tc.recorded, 12)
			}
			l.writing(k, tc.editing, "Bob plays 9♣")
			landed := l.landing(k, tc.message, tc.clicked)
			if got := landed != nil; got != tc.wait {
				t.Fatalf("waits = %v, want %v", got, tc.wait)
			}
			l.wrote(k, 13, "v13", [32]byte{}, true)
			if landed != nil {
				select {
				case <-landed:
				default:
					t.Error("the edit's reply did not end the wait")
				}
			}
			if l.landing(k, tc.message, tc.clicked) != nil {
				t.Error("an answer waits with no edit under way")
			}
		})
	}
}

// TestATableAnswerWaitsForTheEditsUnderWay: an answer that updates the
// table message in place waits while edits of it are under way, until
// the last has had its reply, and then takes what it shows for known.
func TestATableAnswerWaitsForTheEditsUnderWay(t *testing.T) {
	var c shownSums
	if c.underWay(1) != nil {
		t.Fatal("an answer waits with no edit under way")
	}
	c.editing(1)
	c.editing(1)
	landed := c.underWay(1)
	if landed == nil {
		t.Fatal("an answer does not wait for the edits under way")
	}
	c.edited(1, render.Message{Content: "v1"}, true)
	select {
	case <-landed:
		t.Fatal("the wait ended with an edit still under way")
	default:
	}
	c.edited(1, render.Message{Content: "v2"}, true)
	select {
	case <-landed:
	default:
		t.Fatal("the last edit's reply did not end the wait")
	}
	if !c.answered(1, render.Message{Content: "v3"}) {
		t.Error("an answer after every edit landed is not taken for what the message shows")
	}
}

// TestAnAnswerDuringThePassShowingItsMoveStartsNoOther: a click's answer
// noted while the pass that shows its move is under way finds the table
// message behind, since that pass has not edited it yet. That pass shows
// the move, so the answer starts no second pass, which would only read
// the table again and find nothing to do (0.4 of the moves at 900 tables
// had one).
func TestAnAnswerDuringThePassShowingItsMoveStartsNoOther(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	seat := r.table().State.Waiting()[0]
	view := r.openView(seat)
	orig, _, ok := r.fake.Original(view)
	if !ok {
		t.Fatal("no view opened")
	}
	viewID := orig.ID
	// The table message's last edit is long past: the pass edits it at
	// once.
	r.advance(time.Minute)
	read, release := make(chan struct{}), make(chan struct{})
	hold := func() { close(read); <-release }
	r.afterRead.Store(&hold)
	before := r.reads.Load()

	i := r.fake.Prepare(discordtest.Click(guild, channel, discordtest.User{ID: userID(seat), Name: "p"}, viewID,
		click.ID{Action: click.Refresh, Table: r.id}.String()))
	if _, err := r.fake.Send(r.ctx, i); err == nil {
		t.Fatal("an interaction was delivered with no bot connected")
	}
	moved, note := r.act(seat)
	r.s.Moved(moved, note)
	<-read
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: render.Hand(lang.English, moved, seat, 0, note.Text(lang.English, moved)).Response(false)})
	r.s.Answered(r.ctx, Shown{Table: r.id, Seat: seat, Version: moved.Version, View: click.SeatView(moved.State, seat),
		Token: cribbage.MessageToken{MessageID: viewID, Token: i.Token, At: r.clock.Now()}})
	close(release)
	r.settle()

	if n := r.reads.Load() - before; n != 1 {
		t.Errorf("the move and its answer made %d passes, want 1", n)
	}
	if r.s.l.behind(r.id, moved.Version) {
		t.Error("the table message does not show the move")
	}
}

// TestOnlyAPassThatShowsTheAnswersVersionStandsInForItsOwn: an answer
// that finds the table message behind starts no pass of its own only
// when a pass under way shows the answer's version: it read that
// version or a later one, or has its read still to come, or another
// pass is to follow it. A pass that read an older version (another
// process changed the table just after the pass looked for the last
// time) leaves the answer's version to a pass of its own.
func TestOnlyAPassThatShowsTheAnswersVersionStandsInForItsOwn(t *testing.T) {
	for _, tc := range []struct {
		name    string
		running bool
		read    int64
		dirty   bool
		want    bool
	}{
		{"no pass", false, 0, false, false},
		{"a pass yet to read", true, toRead, false, true},
		{"a pass that read the answer's version", true, 7, false, true},
		{"a pass that read a later one", true, 8, false, true},
		{"a pass that read an older one", true, 6, false, false},
		{"a pass that read an older one, another to follow", true, 6, true, true},
		{"a pass whose read failed", true, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLive()
			l.running[1], l.dirty[1] = tc.running, tc.dirty
			l.read(1, tc.read)
			if got := l.passing(1, 7); got != tc.want {
				t.Errorf("passing = %v, want %v", got, tc.want)
			}
		})
	}
}

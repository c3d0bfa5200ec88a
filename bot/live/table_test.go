package live

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/engine"
)

// TestAChangeIsShownOnce: a move at a table whose message has a live edit
// token is one edit of the message, through the token, showing the table
// as it is; a touch with nothing new sends nothing.
func TestAChangeIsShownOnce(t *testing.T) {
	r := newRig(t, 2)
	tok := r.editToken()
	r.settle()

	mark := r.mark()
	r.move(r.table().State.Waiting()[0])
	r.settle()
	reqs := r.requests(mark)
	edits := through(reqs, tok)
	if len(reqs) != 1 || len(edits) != 1 {
		t.Fatalf("the move made %d requests, %d of them through the token; want one edit through it", len(reqs), len(edits))
	}
	tb := r.table()
	checkShows(t, edits[0], tb, render.Table(lang.English, tb, r.message().Board))

	mark = r.mark()
	for range 2 { // within the token's spacing, and past it
		r.s.Touch(r.id)
		r.settle()
		r.advance(tokenEditGap)
	}
	if reqs := r.requests(mark); len(reqs) != 0 {
		t.Errorf("a touch with nothing new made %d requests: %s %s", len(reqs), reqs[0].Method, reqs[0].Route)
	}
	r.checkCalm()
}

// TestAPassWhoseReadFailedIsTriedAgain: a pass that could not read the
// table (the database busy) shows nothing, and is tried again after
// liveRetry, not left for the table's next move.
func TestAPassWhoseReadFailedIsTriedAgain(t *testing.T) {
	r := newRig(t, 2)
	tok := r.editToken()
	r.settle()

	mark := r.mark()
	r.failReads.Store(1)
	r.move(r.table().State.Waiting()[0])
	r.s.Wait(5 * time.Second)
	if reqs := r.requests(mark); len(reqs) != 0 {
		t.Fatalf("a pass that could not read the table made %d requests", len(reqs))
	}
	r.advance(liveRetry)
	r.checkRetryShowed(mark, tok, "after the retry")
}

// TestAnExpiredTokenIsNotUsed: the table message is edited through its
// token only while the token is usable and is the message's own; else the
// bot token edits it, and nothing is sent with the token.
func TestAnExpiredTokenIsNotUsed(t *testing.T) {
	for _, c := range []struct {
		name      string
		age       time.Duration
		otherMsg  bool
		wantToken bool
	}{
		{"fresh", 0, false, true},
		{"a second short of its use", rest.TokenUsable - time.Second, false, true},
		{"past its use", rest.TokenUsable, false, false},
		{"near its end", rest.TokenLife - time.Second, false, false},
		{"another message's", 0, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, 2)
			tok := r.editToken()
			if c.otherMsg {
				r.s.EditToken(r.ctx, r.id, cribbage.MessageToken{MessageID: "500000000000000099", Token: tok, At: r.clock.Now().Add(time.Millisecond)})
				if m := r.message(); m.EditToken.MessageID == m.MessageID {
					t.Fatal("the other message's token was not recorded")
				}
			}
			r.advance(c.age)
			mark := r.mark()
			r.move(r.table().State.Waiting()[0])
			r.settle()
			reqs := r.requests(mark)
			viaToken, viaBot := through(reqs, tok), botEdits(reqs)
			if len(reqs) != 1 || (len(viaToken) == 1) != c.wantToken || (len(viaBot) == 1) == c.wantToken {
				t.Fatalf("%d requests: %d through the token, %d with the bot token; want one, through the token %v",
					len(reqs), len(viaToken), len(viaBot), c.wantToken)
			}
			tb, msg := r.table(), r.message()
			want := render.Table(lang.English, tb, msg.Board)
			checkShows(t, reqs[0], tb, want)
			if m, _ := r.fake.Message(msg.MessageID); m.Content != want.Content {
				t.Errorf("the table message shows\n%s\nwant\n%s", m.Content, want.Content)
			}
		})
	}
}

// TestARefusedTableTokenIsNotTriedAgain: when Discord refuses the table
// message's token though the bot's clock says it is usable (Discord's
// clock ahead of the bot's, or the token revoked), the bot token edits
// the message instead, within its own spacing, and the refused token is
// not tried again; a newer token is.
func TestARefusedTableTokenIsNotTriedAgain(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	r.advance(tableEditGap)
	mark := r.mark()
	r.move(r.table().State.Turn) // edited with the bot token: no token yet
	r.settle()
	if n := len(botEdits(r.requests(mark))); n != 1 {
		t.Fatalf("%d bot-token edits, want 1", n)
	}
	tok := r.editToken()
	r.settle()
	r.fake.Advance(rest.TokenLife + time.Minute) // Discord's clock: the token is over

	r.move(r.table().State.Turn)
	r.settle()
	reqs := r.requests(mark)
	if len(through(reqs, tok)) != 1 || len(botEdits(reqs)) != 1 {
		t.Fatalf("%d requests through the refused token, %d bot-token edits; want 1 and the second bot-token edit put off",
			len(through(reqs, tok)), len(botEdits(reqs)))
	}
	if waits := r.clock.Waits(); len(waits) == 0 || waits[0] != tableEditGap {
		t.Fatalf("put off for %v, want the table's bot-token spacing %v", waits, tableEditGap)
	}
	r.advance(tableEditGap)
	for range 2 {
		r.move(r.table().State.Turn)
		r.settle()
		r.advance(tableEditGap)
	}
	reqs = r.requests(mark)
	if n, bot := len(through(reqs, tok)), len(botEdits(reqs)); n != 1 || bot != 4 {
		t.Errorf("%d requests through the refused token, %d bot-token edits; want 1 and 4", n, bot)
	}
	tb := r.table()
	checkShows(t, reqs[len(reqs)-1], tb, render.Table(lang.English, tb, r.message().Board))

	fresh := r.editToken()
	mark = r.mark()
	r.move(r.table().State.Turn)
	r.settle()
	if reqs := r.requests(mark); len(reqs) != 1 || len(through(reqs, fresh)) != 1 {
		t.Errorf("%d requests, %d through the new token; want one through it", len(reqs), len(through(reqs, fresh)))
	}
	r.checkCalm()
}

// TestTheTableMessageIsPostedOnlyWhenNoAnswerCanBe: a table with no
// message recorded is left to the answer that posts it while that answer's
// token may still come; after that the surface posts the message itself,
// once.
func TestTheTableMessageIsPostedOnlyWhenNoAnswerCanBe(t *testing.T) {
	for _, c := range []struct {
		name  string
		age   time.Duration
		posts int
	}{
		{"young", rest.TokenLife - time.Second, 0},
		{"old", rest.TokenLife, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, 2)
			if err := r.store.SetMessages(r.ctx, r.id, "", ""); err != nil {
				t.Fatal(err)
			}
			r.advance(c.age)
			mark := r.mark()
			for range 2 {
				r.s.Touch(r.id)
				r.settle()
			}
			var posts int
			for _, q := range r.requests(mark) {
				if q.Method == http.MethodPost && strings.HasSuffix(q.Path, "/messages") {
					posts++
				}
			}
			if posts != c.posts {
				t.Errorf("%d posts, want %d", posts, c.posts)
			}
			if got := r.message().MessageID != ""; got != (c.posts > 0) {
				t.Errorf("a message recorded: %v", got)
			}
		})
	}
}

// TestANewBoardWaitsForItsGap: a move that changes the board uploads a
// new one with its edit; another within boardGap shows its text at once
// and its board when the gap is over, on the clock.
func TestANewBoardWaitsForItsGap(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	tok := r.editToken()
	r.settle()
	var first time.Time // when the first new board went
	for moves := 0; ; moves++ {
		if moves > 20 || r.table().State.Phase != engine.PhasePlay {
			t.Fatal("the hand's play changed the board fewer than twice")
		}
		r.advance(tokenEditGap)
		before := render.BoardKey(lang.English, r.table())
		mark := r.mark()
		tb, _ := r.move(r.table().State.Turn)
		r.settle()
		edits := through(r.requests(mark), tok)
		if len(edits) != 1 {
			t.Fatalf("%d edits after a move, want 1", len(edits))
		}
		checkShows(t, edits[0], tb, render.Table(lang.English, tb, r.message().Board))
		uploaded := len(edits[0].Uploads()) > 0
		if render.BoardKey(lang.English, tb) == before {
			if uploaded {
				t.Fatal("a board uploaded though it did not change")
			}
			continue
		}
		if first.IsZero() {
			if !uploaded {
				t.Fatal("the first new board did not go with its move")
			}
			first = r.clock.Now()
			continue
		}
		since := r.clock.Now().Sub(first)
		if since >= boardGap {
			t.Fatalf("the second new board came %v after the first, not within boardGap", since)
		}
		if uploaded {
			t.Fatalf("a new board went %v after the last, within boardGap", since)
		}
		if waits := r.clock.Waits(); len(waits) != 1 || waits[0] != boardGap-since {
			t.Fatalf("the board put off for %v, want %v", waits, boardGap-since)
		}
		mark = r.mark()
		r.advance(boardGap - since)
		edits = through(r.requests(mark), tok)
		if len(edits) != 1 || len(edits[0].Uploads()) == 0 {
			t.Fatalf("%d edits once the gap was over, want one with the board", len(edits))
		}
		checkShows(t, edits[0], tb, render.Table(lang.English, tb, r.message().Board))
		if got := r.message().Board; got != render.BoardKey(lang.English, tb) {
			t.Errorf("the board recorded is %q, want %q", got, render.BoardKey(lang.English, tb))
		}
		break
	}
	r.checkCalm()
}

// TestAQuickTable: moves faster than a token may be used are coalesced,
// within the token's limit (no 429), and the message ends showing the
// last of them.
func TestAQuickTable(t *testing.T) {
	r := newRig(t, 2)
	r.playUntil(inPlay)
	tok := r.editToken()
	r.settle()
	mark := r.mark()
	start := r.clock.Now()
	for range 6 {
		if r.table().State.Phase != engine.PhasePlay {
			break
		}
		r.move(r.table().State.Turn)
		r.advance(100 * time.Millisecond)
	}
	for range 50 {
		if len(r.clock.Waits()) == 0 {
			break
		}
		r.advance(r.clock.Waits()[0])
	}
	edits := through(r.requests(mark), tok)
	elapsed := r.clock.Now().Sub(start)
	if max := 1 + int(elapsed/tokenEditGap); len(edits) == 0 || len(edits) > max {
		t.Errorf("%d edits through the token in %v, want 1 to %d", len(edits), elapsed, max)
	}
	tb, msg := r.table(), r.message()
	if m, _ := r.fake.Message(msg.MessageID); m.Content != render.Table(lang.English, tb, msg.Board).Content {
		t.Errorf("the table message ends showing\n%s\nwant\n%s", m.Content, render.Table(lang.English, tb, msg.Board).Content)
	}
	r.checkCalm()
}

// TestAPostedMessageCatchesUpWithTheTable: a table message posted from a
// read the table has since moved on from (a computer's first moves at a
// table the bot opened itself, made while the post was queued) is brought
// up to the table as it is now by the pass the post starts, with nobody
// clicking.
func TestAPostedMessageCatchesUpWithTheTable(t *testing.T) {
	r := newRig(t, 2)
	read := r.table()
	// The table moves on after the read, and no pass shows it: a table the
	// bot opened has no message to edit until the post.
	r.act(read.State.Waiting()[0])
	if err := r.store.SetMessages(r.ctx, r.id, "", ""); err != nil {
		t.Fatal(err)
	}
	if err := r.s.PostTableMessage(r.ctx, read, "", "open"); err != nil {
		t.Fatal(err)
	}
	r.settle()
	r.advance(tokenEditGap)
	r.settle()
	m, ok := r.fake.Message(r.messageID())
	if !ok {
		t.Fatal("no table message recorded")
	}
	now := r.table()
	want := render.Table(lang.English, now, r.message().Board)
	if m.Text() != want.Text() {
		t.Errorf("the message shows\n%s\nwant the table as it is now\n%s", m.Text(), want.Text())
	}
}

// TestAPassAsTheMessageIsPostedSendsNothing: a pass that reads the table
// the moment its posted message is recorded (a computer's move touched
// it) finds the message with its board, as posted, and sends nothing: it
// does not take the board for missing and upload it again.
func TestAPassAsTheMessageIsPostedSendsNothing(t *testing.T) {
	r := newRig(t, 2)
	if err := r.store.SetMessages(r.ctx, r.id, "", ""); err != nil {
		t.Fatal(err)
	}
	if err := r.store.RecordBoard(r.ctx, r.id, ""); err != nil {
		t.Fatal(err)
	}
	pass := func() {
		r.s.Touch(r.id)
		r.s.Wait(10 * time.Second)
	}
	r.afterSetMessages.Store(&pass)
	mark := r.mark()
	if err := r.s.PostTableMessage(r.ctx, r.table(), "", ""); err != nil {
		t.Fatal(err)
	}
	r.settle()
	if reqs := r.requests(mark); len(reqs) != 1 {
		t.Errorf("%d requests, want the post alone; the last %s %s", len(reqs), reqs[len(reqs)-1].Method, reqs[len(reqs)-1].Route)
	}
}

// TestAStartDoesNotRepeatTheLastEdit: a process that starts (after a
// crash) knows what the table message shows by what the store recorded
// with it, so its first pass sends nothing when the table is as shown.
func TestAStartDoesNotRepeatTheLastEdit(t *testing.T) {
	r := newRig(t, 2)
	r.editToken()
	r.settle()
	r.move(r.table().State.Waiting()[0])
	r.settle()
	if r.message().Shown == "" {
		t.Fatal("the edit recorded nothing of what the message shows")
	}

	r.s = New(r.s.opts) // the process starts again
	mark := r.mark()
	r.s.Touch(r.id)
	r.settle()
	if reqs := r.requests(mark); len(reqs) != 0 {
		t.Errorf("the first pass after a start made %d requests: %s %s", len(reqs), reqs[0].Method, reqs[0].Route)
	}

	// A change after the start is still shown.
	r.advance(tokenEditGap)
	mark = r.mark()
	r.move(r.table().State.Waiting()[0])
	r.settle()
	if n := len(r.requests(mark)); n != 1 {
		t.Errorf("a move after the start made %d requests; want one edit", n)
	}
}

// TestAPassThatPanickedIsTriedAgainOnce: a pass that panics shows
// nothing, and is tried again after liveRetry, as one whose read failed;
// one that panics again is left for the table's next change, not tried
// every liveRetry for ever.
func TestAPassThatPanickedIsTriedAgainOnce(t *testing.T) {
	r := newRig(t, 2)
	tok := r.editToken()
	r.settle()

	for _, again := range []bool{false, true} {
		mark := r.mark()
		boom := func() { panic("injected") }
		r.afterRead.Store(&boom)
		r.move(r.table().State.Waiting()[0])
		r.s.Wait(5 * time.Second)
		if reqs := r.requests(mark); len(reqs) != 0 {
			t.Fatalf("a pass that panicked made %d requests", len(reqs))
		}
		if again {
			// The retry panics too: nothing more is tried.
			r.afterRead.Store(&boom)
			r.advance(liveRetry)
			r.s.Wait(5 * time.Second)
			if reqs := r.requests(mark); len(reqs) != 0 {
				t.Fatalf("a retry that panicked made %d requests", len(reqs))
			}
			if n := r.s.Pending(); n != 0 {
				t.Fatalf("%d passes or touches left after a second panic", n)
			}
			r.s.Touch(r.id) // the next change
			r.s.Wait(5 * time.Second)
		} else {
			r.advance(liveRetry)
		}
		r.checkRetryShowed(mark, tok, fmt.Sprintf("after the retry (again=%v)", again))
	}
}

// TestAPanicWhileLookingUpThePanicsVersionIsContained: a pass that
// panics while reading the table asks the store for the table's version
// (see panicVersion); a store that panics there too does not take the
// bot down with it, and the pass is tried again after liveRetry as any
// first panic is.
func TestAPanicWhileLookingUpThePanicsVersionIsContained(t *testing.T) {
	r := newRig(t, 2)
	tok := r.editToken()
	r.settle()
	mark := r.mark()
	boom := func() { panic("injected") }
	r.afterRead.Store(&boom)
	r.versionPanics.Store(true)
	r.move(r.table().State.Waiting()[0])
	r.s.Wait(5 * time.Second)
	r.versionPanics.Store(false)
	if n := len(through(r.requests(mark), tok)); n != 0 {
		t.Fatalf("%d edits went from a pass that panicked", n)
	}
	r.advance(liveRetry)
	r.s.Wait(5 * time.Second)
	r.checkRetryShowed(mark, tok, "after the retry")
}

// TestAPanicOverANewVersionIsTriedAgain: what a pass that panicked twice
// leaves is its version's mark. A pass over a later version that panics,
// whether while it reads the table or after (here, in the table
// message's edit), is tried again once, and shows that version; twice
// over the one version, as before, it is left for the next change.
func TestAPanicOverANewVersionIsTriedAgain(t *testing.T) {
	for _, where := range []string{"while reading", "after reading"} {
		t.Run(where, func(t *testing.T) {
			r := newRig(t, 2)
			tok := r.editToken()
			r.settle()
			// panicOnce makes the next pass panic where the case says;
			// panicked says whether it has.
			panicOnce := func() (panicked func() bool) {
				var armed atomic.Bool
				armed.Store(true)
				boom := func() {
					if armed.CompareAndSwap(true, false) {
						panic("injected")
					}
				}
				if where == "while reading" {
					r.afterRead.Store(&boom)
				} else {
					f := func(req *http.Request) {
						if strings.Contains(req.URL.Path, tok) {
							boom()
						}
					}
					r.beforeRequest.Store(&f)
				}
				return func() bool { return !armed.Load() }
			}
			mustPanic := func(panicked func() bool, which string) {
				t.Helper()
				if !panicked() {
					t.Fatalf("%s did not reach the panic", which)
				}
			}

			mark := r.mark()
			p := panicOnce()
			r.move(r.table().State.Waiting()[0])
			r.s.Wait(5 * time.Second)
			mustPanic(p, "the pass over the move")
			p = panicOnce()
			r.advance(liveRetry)
			r.s.Wait(5 * time.Second)
			mustPanic(p, "the retry")
			if n := r.s.Pending(); n != 0 {
				t.Fatalf("%d passes or touches left after a second panic over one version", n)
			}
			if n := len(through(r.requests(mark), tok)); n != 0 {
				t.Fatalf("%d edits went from passes that panicked", n)
			}

			r.advance(tokenEditGap)
			p = panicOnce()
			r.move(r.table().State.Waiting()[0])
			r.s.Wait(5 * time.Second)
			mustPanic(p, "the pass over the next move")
			if n := len(through(r.requests(mark), tok)); n != 0 {
				t.Fatalf("%d edits went from a pass that panicked", n)
			}
			r.advance(liveRetry)
			r.s.Wait(5 * time.Second)
			r.checkRetryShowed(mark, tok, "after a panic over a new version and its retry")
		})
	}
}

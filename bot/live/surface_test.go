package live

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
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
	checkShows(t, edits[0], tb, render.Table(tb))

	mark = r.mark()
	r.s.Touch(r.id)
	r.settle()
	if reqs := r.requests(mark); len(reqs) != 0 {
		t.Errorf("a touch with nothing new made %d requests: %s %s", len(reqs), reqs[0].Method, reqs[0].Route)
	}
	r.checkCalm()
}

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
	checkShows(t, edits[0], tb, render.Hand(tb, seat, 0, LastMoveNote(note)))

	mark = r.mark()
	r.s.Touch(r.id)
	r.settle()
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
				checkShows(t, edits[0], tb, render.Hand(tb, seat, 0, LastMoveNote(note)))
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
			checkShows(t, edits[0], tb, render.Hand(tb, seat, 0, LastMoveNote(note)))
		})
	}
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

// TestTokenPacing: two changes in quick succession through one token:
// the first is edited at once, the second waits for the token's spacing
// on the clock and goes when the clock passes it, without a 429.
func TestTokenPacing(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		// token opens the token to watch, and returns the render it should
		// show of a table.
		token func(r *rig) (string, func(tb *cribbage.Table, note []string) render.Message)
	}{
		{"the table message", 2, func(r *rig) (string, func(*cribbage.Table, []string) render.Message) {
			return r.editToken(), func(tb *cribbage.Table, _ []string) render.Message { return render.Table(tb) }
		}},
		{"a hand view", 3, func(r *rig) (string, func(*cribbage.Table, []string) render.Message) {
			// The seat the next two moves are not made by.
			seat := (r.table().State.Turn + 2) % 3
			return r.openView(seat), func(tb *cribbage.Table, note []string) render.Message {
				return render.Hand(tb, seat, 0, LastMoveNote(note))
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, c.players)
			r.playUntil(inPlay)
			tok, want := c.token(r)
			r.settle()

			mark := r.mark()
			r.move(r.table().State.Turn)
			r.settle()
			if n := len(through(r.requests(mark), tok)); n != 1 {
				t.Fatalf("%d edits through the token after the first move, want 1", n)
			}
			tb, note := r.move(r.table().State.Turn)
			r.settle()
			if n := len(through(r.requests(mark), tok)); n != 1 {
				t.Fatalf("%d edits through the token at once after the second move, want the second put off", n)
			}
			if waits := r.clock.Waits(); len(waits) == 0 || waits[0] != tokenEditGap {
				t.Fatalf("put off for %v, want the token's spacing %v", waits, tokenEditGap)
			}
			r.advance(tokenEditGap - time.Millisecond)
			if n := len(through(r.requests(mark), tok)); n != 1 {
				t.Fatalf("the second edit went %v early", time.Millisecond)
			}
			r.advance(time.Millisecond)
			edits := through(r.requests(mark), tok)
			if len(edits) != 2 {
				t.Fatalf("%d edits through the token once its spacing passed, want 2", len(edits))
			}
			checkShows(t, edits[1], tb, want(tb, note))
			r.advance(tableEditGap) // the table message's own bot-token spacing, if any
			if r.s.Pending() != 0 {
				t.Errorf("%d passes or touches left", r.s.Pending())
			}
			r.checkCalm()
		})
	}
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
				tb := r.table()
				r.s.EditToken(r.ctx, r.id, cribbage.MessageToken{MessageID: "500000000000000099", Token: tok, At: r.clock.Now().Add(time.Millisecond)})
				if r.table().EditToken.MessageID == tb.MessageID {
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
			tb := r.table()
			checkShows(t, reqs[0], tb, render.Table(tb))
			if m, _ := r.fake.Message(tb.MessageID); m.Content != render.Table(tb).Content {
				t.Errorf("the table message shows\n%s\nwant\n%s", m.Content, render.Table(tb).Content)
			}
		})
	}
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
	checkShows(t, edits[len(edits)-1], tb, render.Hand(tb, seat, 0, LastMoveNote(note)))
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
	tb := r.table()
	if m, _ := r.fake.Message(tb.MessageID); m.Content != render.Table(tb).Content {
		t.Errorf("the table message ends showing\n%s\nwant\n%s", m.Content, render.Table(tb).Content)
	}
	r.checkCalm()
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
			if got := r.table().MessageID != ""; got != (c.posts > 0) {
				t.Errorf("a message recorded: %v", got)
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
	checkShows(t, reqs[len(reqs)-1], tb, render.Table(tb))

	fresh := r.editToken()
	mark = r.mark()
	r.move(r.table().State.Turn)
	r.settle()
	if reqs := r.requests(mark); len(reqs) != 1 || len(through(reqs, fresh)) != 1 {
		t.Errorf("%d requests, %d through the new token; want one through it", len(reqs), len(through(reqs, fresh)))
	}
	r.checkCalm()
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
		before := render.BoardKey(r.table())
		mark := r.mark()
		tb, _ := r.move(r.table().State.Turn)
		r.settle()
		edits := through(r.requests(mark), tok)
		if len(edits) != 1 {
			t.Fatalf("%d edits after a move, want 1", len(edits))
		}
		checkShows(t, edits[0], tb, render.Table(tb))
		uploaded := len(edits[0].Uploads()) > 0
		if render.BoardKey(tb) == before {
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
		checkShows(t, edits[0], tb, render.Table(tb))
		if got := r.table().Board; got != render.BoardKey(tb) {
			t.Errorf("the board recorded is %q, want %q", got, render.BoardKey(tb))
		}
		break
	}
	r.checkCalm()
}

package live

import (
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// TestTokenEdits: a token edits its own message, and only until a minute
// before Discord lets it lapse.
func TestTokenEdits(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	tok := cribbage.MessageToken{MessageID: "m1", Token: "tok", At: at}
	for _, c := range []struct {
		name string
		tok  cribbage.MessageToken
		id   string
		now  time.Time
		want bool
	}{
		{"at once", tok, "m1", at, true},
		{"13m59s on", tok, "m1", at.Add(rest.TokenUsable - time.Second), true},
		{"14 minutes on", tok, "m1", at.Add(rest.TokenUsable), false},
		{"15 minutes on", tok, "m1", at.Add(rest.TokenLife), false},
		{"another message", tok, "m2", at, false},
		{"no message recorded", tok, "", at, false},
		{"no token", cribbage.MessageToken{MessageID: "m1", At: at}, "m1", at, false},
	} {
		if got := tokenEdits(c.tok, c.id, c.now); got != c.want {
			t.Errorf("%s: tokenEdits = %v, want %v", c.name, got, c.want)
		}
	}
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
		token func(r *rig) (string, func(tb *cribbage.Table, note render.Note) render.Message)
	}{
		{"the table message", 2, func(r *rig) (string, func(*cribbage.Table, render.Note) render.Message) {
			return r.editToken(), func(tb *cribbage.Table, _ render.Note) render.Message {
				return render.Table(lang.English, tb, r.message().Board)
			}
		}},
		{"a hand view", 3, func(r *rig) (string, func(*cribbage.Table, render.Note) render.Message) {
			// The seat the next two moves are not made by.
			seat := (r.table().State.Turn + 2) % 3
			return r.openView(seat), func(tb *cribbage.Table, note render.Note) render.Message {
				return render.Hand(lang.English, tb, seat, 0, note.Text(lang.English, tb))
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

package live

import (
	"context"
	"time"
)

// An answer that updates a message while a live edit of it is under way
// races that edit to Discord, and the bot cannot tell which landed last:
// it takes the message for unknown and shows it again (answered,
// shownSums.answered). When the answer landed last, as it mostly does,
// that edit changed nothing, and it cost the view's token a request;
// a click, say, on the view just as a pass edits it to add the last
// move. So an answer that would race an edit of its message waits for
// that edit's reply before it is sent (SettleView, SettleTable): it then
// lands last, and is what the message shows.

// settleFor bounds the wait. An edit through a token takes tens of
// milliseconds; one that takes longer (Discord slow, the connection lost)
// is raced as before rather than holding the answer, which Discord wants
// within 3 seconds. It is real time, as an answer's deadline is.
const settleFor = 500 * time.Millisecond

// SettleView waits until a live edit under way of seat's hand view has
// landed, if an answer about to update the view would race it: the
// answer updates messageID, the view the click was on, whose text as the
// click saw it was clicked. It returns at once if no such edit is under
// way, and after settleFor, or when ctx ends, whatever.
func (s *Surface) SettleView(ctx context.Context, table int64, seat int, messageID, clicked string) {
	settle(ctx, s.l.landing(seatKey{table, seat}, messageID, clicked))
}

// SettleTable waits until the live edits under way of table's message
// have landed, before an answer updates it in place (TableAnswered): as
// SettleView.
func (s *Surface) SettleTable(ctx context.Context, table int64) {
	settle(ctx, s.edits.underWay(table))
}

// settle waits for landed to close, at most settleFor or until ctx ends;
// nil is nothing to wait for.
func settle(ctx context.Context, landed <-chan struct{}) {
	if landed == nil {
		return
	}
	t := time.NewTimer(settleFor)
	defer t.Stop()
	select {
	case <-landed:
	case <-t.C:
	case <-ctx.Done():
	}
}

// landing returns a channel closed when the live edit under way of seat's
// view has had its reply, if an answer to a click on messageID, whose
// text was clicked, would race it (answered would take it for
// clobbered); nil otherwise.
func (l *live) landing(k seatKey, messageID, clicked string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	if !l.racing(k, w, messageID) || (clicked != "" && clicked == w.content) {
		return nil
	}
	return w.landed
}

// racing reports whether an answer updating messageID, seat's view w,
// may land before the live edit under way of it: an edit is under way,
// not known to have landed before an earlier answer (overtaken), and it
// edits that message, by its id or, when its token names none (the click
// that opened a view in a new private message), as the seat's recorded
// view. An answer that posts a new view (messageID "") races nothing.
// The caller holds l.mu.
func (l *live) racing(k seatKey, w viewWrite, messageID string) bool {
	switch {
	case !w.inFlight || w.overtaken || messageID == "":
		return false
	case w.writing.MessageID != "":
		return w.writing.MessageID == messageID
	}
	return l.editsView(k, w.writing)
}

package live

import (
	"context"
	"sync"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// A change made by a click is shown first by the click's own answer: a
// play or a throw updates the player's hand view, a Join or a Rematch the
// table message. The change's pass starts before that answer is sent (the
// other seats' views and the table message should not wait for it), and
// editing the message the answer updates, it showed the same thing twice,
// whichever landed last. So the bot says, as it saves a change made by a
// click, which message the click's answer will update (Answering); passes
// leave that message to the answer until the bot says the answer was sent
// and recorded what it showed (Released).

// holdFor is how long a message is left to an answer at most: an answer
// not released by then (a handler that panicked, say) holds nothing. An
// interaction is answered within 3 seconds or not at all. It is real time
// (time.Now), not the bot's clock, which a test may move on by a day
// while an answer is on its way.
const holdFor = 5 * time.Second

// tableSeat stands for the table message where a seat is named.
const tableSeat = -1

// holds are the messages left to interactions' answers, by interaction.
type holds struct {
	mu sync.Mutex
	by map[string]*hold
}

// hold is one interaction's answer to come: it updates the table message
// (seat tableSeat) or the seat's hand view, by until. skipped is the
// newest table version a pass would have shown on it, 0 if none, and
// board whether the pass would have sent a new board with it (which no
// answer carries).
type hold struct {
	table   int64
	seat    int
	until   time.Time
	skipped int64
	board   bool
}

// add leaves seat's message at table (tableSeat: the table message) to
// interaction id's answer until now+holdFor.
func (h *holds) add(id string, table int64, seat int, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.by == nil {
		h.by = map[string]*hold{}
	}
	for k, o := range h.by {
		if now.After(o.until) {
			delete(h.by, k) // never released: it holds nothing now
		}
	}
	h.by[id] = &hold{table: table, seat: seat, until: now.Add(holdFor)}
}

// leave reports whether a pass at now is to leave seat's message at table
// to an answer, and notes that the pass would have shown version on it,
// with a new board if board.
func (h *holds) leave(table int64, seat int, version int64, board bool, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	held := false
	for _, o := range h.by {
		if o.table == table && o.seat == seat && !now.After(o.until) {
			o.skipped = max(o.skipped, version)
			o.board = o.board || board
			held = true
		}
	}
	return held
}

// release ends interaction id's hold and returns it, or false if it had
// none.
func (h *holds) release(id string) (hold, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	o, ok := h.by[id]
	if !ok {
		return hold{}, false
	}
	delete(h.by, id)
	return *o, true
}

// Answering says that the answer to interaction id will update seat's
// hand view at table (seat < 0: the table message): passes leave it to
// the answer until Released(id).
func (s *Surface) Answering(id string, table int64, seat int) {
	if id == "" || table == 0 {
		return
	}
	seat = max(seat, tableSeat)
	s.holds.add(id, table, seat, time.Now())
}

// Released says that the answer to interaction id has been sent, and what
// it showed recorded (Answered, TableAnswered). A message a pass left to
// it that it did not show as the pass would have (the answer was a
// refusal, or the table moved on, or has a new board) is brought up to
// date now.
func (s *Surface) Released(id string) {
	o, ok := s.holds.release(id)
	if !ok || o.skipped == 0 {
		return
	}
	if o.seat == tableSeat {
		if o.board || s.l.behind(o.table, o.skipped) {
			s.Touch(o.table)
		}
		return
	}
	if !s.l.viewCurrent(seatKey{o.table, o.seat}, 0, o.skipped) {
		s.Touch(o.table)
	}
}

// TableAnswered records that an interaction's answer updated t's table
// message in place to r (render.Table): no pass edits it to that
// again. An edit of the message under way may land after the answer, so
// then the message is taken to show neither, and the next pass shows it.
func (s *Surface) TableAnswered(t *cribbage.Table, r render.Message) {
	if s.edits.answered(t.ID, r) {
		s.l.showed(t.ID, t.Version)
		// Recorded too, as an edit's is (showTable), for a process that
		// starts after this one.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.opts.Store.RecordShown(ctx, t.ID, SumString(renderSum(r))); err != nil {
			s.log.Info("live: what the table message shows not recorded", "table", t.ID, "err", err)
		}
	}
}

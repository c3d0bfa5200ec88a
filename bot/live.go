package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/sender"
	"github.com/cribbage-bot/cribbage/engine"
)

// The live surface: the table message and each player's open hand view
// show the table as it is now. After every change the process that made it
// brings both up to date at once, through interaction tokens where it can
// (they are outside the bot token's 50 requests a second): the table
// message through the newest token whose response it is, each hand view
// through the token of its player's own last click. Nothing here waits
// behind the story in the outbox.
//
// A table's updates are coalesced: while one is being sent, further
// changes only mark the table dirty, and one more pass then shows the
// latest. Each pass reads the table afresh and reads it again after its
// edits, going round once more if it moved meanwhile, so however passes of
// several processes interleave, the last edit to land shows the latest
// version.

// liveWorkers bounds how many tables are brought up to date at once. The
// edits share the CPU with the interactions, whose answers must not wait:
// a few at once keep up with hundreds of moves a second.
const liveWorkers = 8

// liveRetry is how long a table waits after a failed live edit before the
// next try, when Discord gave no time of its own.
const liveRetry = 2 * time.Second

// tokenEditGap is the least time between two edits through one
// interaction token. Discord takes 5 requests per 2 seconds on a token; at
// a quick table, sending edits as fast as moves come would spend those in
// a burst and then show nothing new for up to 2 seconds. Spaced evenly,
// every move is on the message within this gap.
const tokenEditGap = 450 * time.Millisecond

// boardGap is the least time between two new boards on a table message.
// Drawing and encoding a board is most of a live edit's work; the scores
// are in the message's text at once, and the picture follows within this.
// A finished game's board goes at once.
const boardGap = 3 * time.Second

// botEditBudget is how many bot-token table-message edits a second this
// process makes in all: half the sender's global budget. A table's token
// lives 14 minutes after the last click on the table message; past that,
// in long games at many tables, the table messages share these and the
// story the rest.
const botEditBudget = sender.GlobalBudget / 2

// maxTokenEdits is how many token buckets' last edits are kept before
// those whose gap has passed are swept.
const maxTokenEdits = 4096

// tableEditGap is the least time between two bot-token edits of a table
// message, made once no interaction token can edit it: those edits share
// the bot token's budget with the story.
const tableEditGap = time.Second

// live is the coalescing updater of tables' live surfaces.
type live struct {
	mu sync.Mutex
	// running tables have a pass under way; dirty ones need another.
	running map[int64]bool
	dirty   map[int64]bool
	// notes are each table's latest change in words, shown at the top of
	// the hand views of that version.
	notes map[int64]liveNote
	// views remember what this process last wrote to each seat's view.
	views map[seatKey]viewWrite
	// botEdits is when each table message was last edited with the bot
	// token, and botSent when the last second's such edits were made.
	botEdits map[int64]time.Time
	botSent  []time.Time
	// boards is when each table message last got a new board here.
	boards map[int64]time.Time
	// shown is the table version each table message last showed here.
	shown map[int64]int64
	// recorded is the hand view each seat last recorded here: its
	// message and when its token came.
	recorded map[seatKey]cribbage.MessageToken
	// active counts the tables being brought up to date, for a shutdown
	// to wait on, and later the touches scheduled (touchLater).
	active, later int
	// tokenEdits is when each token bucket (a table message's, a hand
	// view's) was last used, on the bot's clock, which Discord's limits run on.
	tokenEdits map[string]time.Time
	sem        chan struct{}
}

// liveNote is what a change did, in the story's words, and the version it
// made.
type liveNote struct {
	version int64
	lines   []string
}

// seatKey names one seat's hand view.
type seatKey struct {
	table int64
	seat  int
}

// viewWrite is the version this process last wrote to a hand view, and
// whether a write is under way. A view answered while a live edit of it
// was under way is rewritten: the older edit may have landed last.
type viewWrite struct {
	version   int64
	inFlight  bool
	clobbered bool
	// view is the seat's view version (viewVersion) the view last showed:
	// while it is unchanged in the discard, the view keeps the cards the
	// player is choosing.
	view string
}

func newLive() *live {
	return &live{running: map[int64]bool{}, dirty: map[int64]bool{}, notes: map[int64]liveNote{},
		views: map[seatKey]viewWrite{}, botEdits: map[int64]time.Time{}, tokenEdits: map[string]time.Time{}, shown: map[int64]int64{}, boards: map[int64]time.Time{}, recorded: map[seatKey]cribbage.MessageToken{}, sem: make(chan struct{}, liveWorkers)}
}

// noteChange remembers a change's lines for the hand views of its version.
func (l *live) noteChange(table, version int64, lines []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n, ok := l.notes[table]; !ok || n.version <= version {
		l.notes[table] = liveNote{version: version, lines: lines}
	}
}

// note returns the lines of the change that made version, if known.
func (l *live) note(table, version int64) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := l.notes[table]; n.version == version {
		return n.lines
	}
	return nil
}

// answered records that an interaction's own answer showed seat its view
// at version: no live edit is needed for it, unless a live edit of that
// view was under way and may land after the answer.
func (l *live) answered(k seatKey, version int64, view string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	if w.inFlight {
		w.clobbered = true
	} else if version > w.version {
		w.version = version
	}
	w.view = view
	l.views[k] = w
}

// choosing reports whether seat's view shows its discard still to choose,
// at the view version it has now: another player's move does not change
// what it decides on, and an edit would drop the cards it has chosen.
func (l *live) choosing(k seatKey, g *engine.State) bool {
	if g.Phase != engine.PhaseDiscard || g.Discards[k.seat] != 0 {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.views[k]
	return ok && !w.clobbered && w.view == viewVersion(g.ViewFor(k.seat))
}

// viewCurrent reports whether seat's view shows version, by what this
// process wrote to it or, failing that, by what was recorded.
func (l *live) viewCurrent(k seatKey, recorded, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.views[k]; ok {
		return !w.inFlight && !w.clobbered && w.version >= version
	}
	return recorded >= version
}

// writing marks a live edit of a view under way.
func (l *live) writing(k seatKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	w.inFlight, w.clobbered = true, false
	l.views[k] = w
}

// wrote records the end of a live edit that showed version and view
// (ok) or failed.
func (l *live) wrote(k seatKey, version int64, view string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	w.inFlight = false
	if ok && !w.clobbered {
		w.version, w.view = version, view
	}
	l.views[k] = w
}

// spaced takes the next edit through a token's bucket at now, or says
// when it may go (tokenEditGap after the last).
func (l *live) spaced(bucket string, now time.Time) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if next := l.tokenEdits[bucket].Add(tokenEditGap); now.Before(next) {
		return next, false
	}
	if len(l.tokenEdits) >= maxTokenEdits {
		// A bucket a token, and tokens come and go: those past their gap
		// are forgotten, so the map holds what the last moments used.
		for k, at := range l.tokenEdits {
			if now.Sub(at) >= tokenEditGap {
				delete(l.tokenEdits, k)
			}
		}
	}
	l.tokenEdits[bucket] = now
	return time.Time{}, true
}

// takeBotEdit takes one of the bot token's table-message edits at now for
// table, or says when it may go: tableEditGap after the table's last, and
// within botEditBudget a second in all.
func (l *live) takeBotEdit(table int64, now time.Time) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if next := l.botEdits[table].Add(tableEditGap); now.Before(next) {
		return next, false
	}
	cut := 0
	for cut < len(l.botSent) && now.Sub(l.botSent[cut]) >= time.Second {
		cut++
	}
	l.botSent = l.botSent[cut:]
	if len(l.botSent) >= botEditBudget {
		return l.botSent[0].Add(time.Second), false
	}
	l.botSent = append(l.botSent, now)
	l.botEdits[table] = now
	return time.Time{}, true
}

// boardWait is how long a table message must wait at now for a new board
// (boardGap after its last).
func (l *live) boardWait(table int64, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return boardGap - now.Sub(l.boards[table])
}

// boardShown records that a table message got a new board at now.
func (l *live) boardShown(table int64, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.boards[table] = now
}

// recordedFresh reports whether seat's view is recorded here with a token
// for the same message that has long to live (see handTokenRenew).
func (l *live) recordedFresh(k seatKey, tok cribbage.MessageToken) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	prev, ok := l.recorded[k]
	return ok && tok.MessageID != "" && prev.MessageID == tok.MessageID && tok.At.Sub(prev.At) < handTokenRenew
}

// record remembers the hand view recorded for a seat.
func (l *live) record(k seatKey, tok cribbage.MessageToken) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recorded[k] = tok
}

// wait waits up to d for the passes under way to end. Touches may start
// more meanwhile (a pass that had to wait for its bucket), so it looks
// until none is under way rather than waiting for a fixed set.
func (l *live) wait(d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		n := l.active
		l.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// showed records that a table message shows version.
func (l *live) showed(table, version int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if version > l.shown[table] {
		l.shown[table] = version
	}
}

// behind reports whether this process has not seen the table message show
// version.
func (l *live) behind(table, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shown[table] < version
}

// forget drops what is remembered of a table that is over.
func (l *live) forget(table int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.notes, table)
	delete(l.botEdits, table)
	delete(l.shown, table)
	delete(l.boards, table)
	for k := range l.views {
		if k.table == table {
			delete(l.views, k)
			delete(l.recorded, k)
		}
	}
}

// moved records a change a move made at a table, for the hand views that
// show its version, and brings the table's live surface up to date.
func (b *Bot) moved(t *cribbage.Table, note []string) {
	b.showMove(t, note)
	switch {
	case t.Tournament != nil && !t.Status.Open():
		// A tournament game's end may finish its round or match, and the
		// tournament plays on its tables (a playoff match's next game
		// among them).
		b.tournamentMoved(t.Tournament.ID)
	case t.RematchID != 0 && !t.Status.Open():
		// The match's next game opened with this change: its computer
		// players move now it is saved.
		b.playLater(t.RematchID)
	}
}

// showMove brings the live surface up to date with a change to t.
func (b *Bot) showMove(t *cribbage.Table, note []string) {
	b.live.noteChange(t.ID, t.Version, note)
	b.touchTable(t.ID)
}

// moveNote is what a change did, as a hand view shows it above the cards:
// the plays, gos, shows and claims in the story's words, the last few.
func moveNote(t *cribbage.Table, events []engine.Event) []string {
	var lines []string
	for _, e := range events {
		switch e.Kind {
		case engine.EvDeal, engine.EvHandOver, engine.EvCutForDeal, engine.EvReset:
			continue // the view's own lines say the hand and scores
		}
		if line := storyLine(t, e); line != "" {
			lines = append(lines, line)
		}
	}
	const most = 6
	if len(lines) > most {
		lines = lines[len(lines)-most:]
	}
	return lines
}

// lastMoveNote is a change's lines as the note at the top of a hand view.
func lastMoveNote(lines []string) string {
	return "-# Last move\n" + strings.Join(lines, "\n")
}

// touchTable asks for a table's live surface to be brought up to date.
func (b *Bot) touchTable(table int64) {
	if table == 0 {
		return
	}
	ctx, ok := b.liveContext()
	if !ok {
		return // the run is over; the next start shows every open table
	}
	l := b.live
	l.mu.Lock()
	if l.running[table] {
		l.dirty[table] = true
		l.mu.Unlock()
		return
	}
	l.running[table] = true
	l.active++
	l.mu.Unlock()
	go func() {
		defer func() {
			l.mu.Lock()
			l.active--
			l.mu.Unlock()
		}()
		b.runLive(ctx, table)
	}()
}

// touchLater touches a table after d, unless the bot is stopping by then.
func (b *Bot) touchLater(table int64, d time.Duration) {
	l := b.live
	l.mu.Lock()
	l.later++
	l.mu.Unlock()
	time.AfterFunc(d, func() {
		b.touchTable(table)
		l.mu.Lock()
		l.later--
		l.mu.Unlock()
	})
}

// pending counts the passes under way and the touches to come.
func (l *live) pending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active + l.later
}

// runLive makes passes over one table until nobody touched it during the
// last one.
func (b *Bot) runLive(ctx context.Context, table int64) {
	l := b.live
	select {
	case l.sem <- struct{}{}:
	case <-ctx.Done():
		l.mu.Lock()
		delete(l.running, table)
		l.mu.Unlock()
		return
	}
	defer func() { <-l.sem }()
	for {
		b.livePassSafely(ctx, table)
		l.mu.Lock()
		if !l.dirty[table] || ctx.Err() != nil {
			delete(l.running, table)
			delete(l.dirty, table)
			l.mu.Unlock()
			return
		}
		delete(l.dirty, table)
		l.mu.Unlock()
	}
}

// livePassSafely is livePass with a panic logged and the table left for
// its next touch, so one table cannot stop the others or the bot.
func (b *Bot) livePassSafely(ctx context.Context, table int64) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("live: panic updating a table", "table", table, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	for range 3 {
		version, err := b.livePass(ctx, table)
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, cribbage.ErrNotFound) {
				b.log.Warn("live: could not update a table", "table", table, "err", err)
			}
			return
		}
		// Another process (or a click answered meanwhile) may have moved
		// the table on while the edits were sent: look again.
		t, err := b.store.Table(ctx, table)
		if err != nil || t.Version == version {
			return
		}
	}
	b.touchLater(table, 0)
}

// livePass brings a table's message and open hand views up to the table as
// it is now, and returns the version shown.
func (b *Bot) livePass(ctx context.Context, table int64) (int64, error) {
	t, err := b.store.Table(ctx, table)
	if err != nil {
		return 0, err
	}
	if err := b.showTable(ctx, t); err != nil {
		var paced *sender.Paced
		switch {
		case errors.As(err, &paced):
			b.touchLater(table, paced.Until.Sub(b.now()))
		case sender.Permanent(err):
			// Discord refused (the channel is gone, the bot may not post
			// there): trying again cannot help; the next change tries.
			b.log.Warn("live: Discord refused the table message", "table", table, "err", err)
		case ctx.Err() == nil:
			b.log.Info("live: table message not updated; will retry", "table", table, "err", err)
			b.touchLater(table, liveRetry)
		}
	}
	if t.State == nil {
		if !t.Status.Open() {
			b.live.forget(table)
			b.edits.forget(table)
		}
		return t.Version, nil
	}
	views, err := b.store.HandViews(ctx, table)
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	for _, v := range views {
		k := seatKey{table, v.Seat}
		if v.Seat >= len(t.Seats) || b.live.viewCurrent(k, v.Version, t.Version) || b.live.choosing(k, t.State) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					b.log.Error("live: panic showing a hand view", "table", table, "seat", v.Seat, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				}
			}()
			b.showHand(ctx, t, v)
		}()
	}
	wg.Wait()
	if !t.Status.Open() {
		b.live.forget(table)
		b.edits.forget(table)
	}
	return t.Version, nil
}

// showHand edits one seat's open hand view to the table as it is.
func (b *Bot) showHand(ctx context.Context, t *cribbage.Table, v cribbage.HandView) {
	k := seatKey{t.ID, v.Seat}
	note := ""
	if lines := b.live.note(t.ID, t.Version); len(lines) > 0 {
		note = lastMoveNote(lines)
	}
	r := renderHand(t, v.Seat, 0, note)
	if next, ok := b.live.spaced(tokenBucket(v.Token.Token), b.now()); !ok {
		b.touchLater(t.ID, next.Sub(b.now()))
		return
	}
	b.live.writing(k)
	// The token's life is checked as the request goes (sender.Client).
	err := b.editThroughToken(ctx, v.Token, r)
	b.live.wrote(k, t.Version, viewVersion(t.State.ViewFor(v.Seat)), err == nil)
	var paced *sender.Paced
	switch {
	case err == nil:
	case errors.As(err, &paced):
		b.touchLater(t.ID, paced.Until.Sub(b.now()))
	case sender.TokenRefused(err):
		// The player dismissed the view, or the token expired: the next
		// click opens a fresh one.
		b.log.Debug("live: a hand view can no longer be edited", "table", t.ID, "seat", v.Seat, "err", err)
	case sender.Permanent(err):
		b.log.Info("live: Discord refused a hand view's edit", "table", t.ID, "seat", v.Seat, "err", err)
	case ctx.Err() == nil:
		// A server error or a lost connection: the view is tried again,
		// so the player whose turn it is sees it.
		b.log.Info("live: hand view not updated; will retry", "table", t.ID, "seat", v.Seat, "err", err)
		b.touchLater(t.ID, liveRetry)
	}
}

// showTable edits the table message to the table as it is now, unless it
// already shows that. It posts a new one only when the old one is gone
// (deleted), or when none was ever recorded and none can be any more: the
// answer that made it records it, and so does any click on it, but an
// interaction's token lives 15 minutes. So a table never gets two messages
// with live buttons.
func (b *Bot) showTable(ctx context.Context, t *cribbage.Table) error {
	if t.MessageID == "" {
		if !anyPerson(t.Seats) {
			// A tournament's game between computer entrants is played
			// quietly (tournamentStep): it has no message, and it may be
			// played long after it opened.
			return nil
		}
		if b.now().Sub(t.CreatedAt) < sender.TokenLife {
			return nil // the answer that posts it records it
		}
		return b.postTableMessage(ctx, t, openNonce(t))
	}
	r := renderTable(t)
	newBoard := boardKey(t) != t.Board
	if newBoard && t.Status == cribbage.StatusPlaying {
		if wait := b.live.boardWait(t.ID, b.now()); wait > 0 {
			newBoard = false
			b.touchLater(t.ID, wait)
		}
	}
	if !newBoard && b.edits.unchanged(t.ID, r) {
		b.live.showed(t.ID, t.Version)
		return nil // the message shows this already
	}
	if !sender.TokenEdits(t.EditToken, t.MessageID, b.now()) {
		// No token can edit the message: the bot token does, each table's
		// at most once a second and all tables' within botEditBudget, so
		// the story keeps the rest of the budget.
		if until, ok := b.live.takeBotEdit(t.ID, b.now()); !ok {
			return &sender.Paced{Until: until}
		}
	}
	// The board rides on the edit, drawn and uploaded only when it would
	// look different from the one the message shows. The files are drawn
	// for each attempt: a request consumes them.
	key, err := b.editTableMessage(ctx, t, func() (rendered, string) {
		r := renderTable(t)
		if newBoard {
			return r, uploadBoard(&r, t)
		}
		return r, t.Board
	})
	if err == nil {
		b.edits.sent(t.ID, r)
		b.live.showed(t.ID, t.Version)
		if key != t.Board {
			b.live.boardShown(t.ID, b.now())
			return b.store.RecordBoard(ctx, t.ID, key)
		}
		return nil
	}
	if !sender.NotFound(err) {
		return err
	}
	return b.postTableMessage(ctx, t, "")
}

// tableMessageCreate is a new table message with Discord's enforced nonce,
// which discordgo's MessageSend lacks.
type tableMessageCreate struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// postTableMessage posts a new table message in the channel, in its own
// bucket, with its own copy of the board. A nonce, if given, makes a
// resend after a lost answer return the message first posted.
func (b *Bot) postTableMessage(ctx context.Context, t *cribbage.Table, nonce string) error {
	r := renderTable(t)
	key := uploadBoard(&r, t)
	send := r.send()
	body := tableMessageCreate{MessageSend: send, Nonce: nonce, EnforceNonce: nonce != ""}
	raw, err := b.rest.Do(ctx, sender.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(t.ChannelID),
		Bucket: postBucket(t.ChannelID), Route: "POST /channels/{channel}/messages", Body: body, Files: send.Files})
	var m discordgo.Message
	if err == nil {
		err = json.Unmarshal(raw, &m)
	}
	if err != nil {
		return err
	}
	b.edits.sent(t.ID, r)
	if err := b.store.SetMessages(ctx, t.ID, m.ID, t.ThreadID); err != nil {
		return err
	}
	return b.store.RecordBoard(ctx, t.ID, key)
}

// Package live keeps the live surface current: the table message and each
// player's open hand view show the table as it is now. After every change the process that made it
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
package live

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/engine"
)

// Store is what the live surface reads of a table and reads and records
// of its messages on Discord.
type Store interface {
	TableToShow(ctx context.Context, id int64) (cribbage.ToShow, error)
	TableVersion(ctx context.Context, id int64) (int64, error)
	SetMessages(ctx context.Context, id int64, messageID, threadID string) error
	RecordBoard(ctx context.Context, id int64, key string) error
	RecordShown(ctx context.Context, id int64, sum string) error
	RecordEditToken(ctx context.Context, id int64, token cribbage.MessageToken) error
	RecordHandView(ctx context.Context, id int64, view cribbage.HandView) error
	RecordHandViewShown(ctx context.Context, id int64, seat int, tok cribbage.MessageToken, version int64, sum string) error
}

// Options are what a Surface needs from the bot.
type Options struct {
	Store Store
	// REST sends the edits and posts, within Discord's rate limits.
	REST *rest.Client
	// AppID is the application's id, which a token's edits name; known
	// once the bot has connected.
	AppID func() string
	// Context is the running bot's context, and false once it is stopping:
	// no pass starts then (the next start shows every open table).
	Context func() (context.Context, bool)
	// Now is the clock Discord's limits run on, and After runs f after d
	// on it (time.Now and time.AfterFunc if nil).
	Now   func() time.Time
	After func(d time.Duration, f func())
	Log   *slog.Logger
	// Speak is the language of what a table's channel sees (lang.Server
	// from the server's setting and the table's locale), for a table
	// message posted outside a pass (PostTableMessage); English if nil. A
	// pass speaks the language of the settings it read with the table
	// (TableToShow), in its edits and in a message it posts.
	Speak func(ctx context.Context, t *cribbage.Table) lang.Lang
}

// Surface brings tables' messages and hand views up to date.
type Surface struct {
	opts  Options
	log   *slog.Logger
	l     *live
	edits shownSums
	holds holds
}

// speak is the language of t's channel.
func (s *Surface) speak(ctx context.Context, t *cribbage.Table) lang.Lang {
	if s.opts.Speak == nil {
		return lang.English
	}
	return s.opts.Speak(ctx, t)
}

// New makes a Surface.
func New(o Options) *Surface {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Surface{opts: o, log: o.Log, l: newLive()}
}

// liveWorkers bounds how many tables are brought up to date at once. The
// edits share the CPU with the interactions, whose answers must not wait;
// but a pass spends most of its time waiting on Discord and the
// database, and at 300 moves a second passes of some 50 ms each need 15
// at once to keep up. With 8 (BenchmarkHumanPace, 900 tables on two
// cores) the table messages fell 4-5 s behind at the 99th percentile,
// players opened views the bot had not brought up to date, and each open
// was more work; with 24 they stayed within 0.4 s and nobody had to open
// a view, while the clicks' answers, waiting on the same full cores, were
// somewhat slower on average but within the spread of the runs.
const liveWorkers = 24

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
// process starts in all: half the global budget. A table's token lives 14
// minutes after the last click on the table message; past that, in long
// games at many tables, the table messages share these and the story the
// rest. (In rest.Limits an edit holds its place until a second after its
// answer, so edits at this full rate leave the story a little under half.)
const botEditBudget = rest.GlobalBudget / 2

// maxTokenEdits is how many token buckets' last edits are kept before
// those whose gap has passed are swept.
const maxTokenEdits = 4096

// overKeep is how long what was shown of a table that is over is
// remembered. The change that ends a game is not its last touch: it queues
// a last refresh in the outbox (delivered as a touch moments later), and
// clicks on its views and table message still come. Forgotten at once,
// each of those edited the message and every open view again to what they
// showed already. After overKeep every token of the game's last moments is
// past use, so no view can be edited any more; a later touch costs at most
// one bot-token edit of the table message.
const overKeep = rest.TokenLife

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
	// reading is the version of each running table its pass read, or
	// toRead while the read is to come (see passing).
	reading map[int64]int64
	// panicked holds, for each table whose last pass panicked, the
	// version it panicked over (see panicVersion).
	panicked map[int64]int64
	// notes are each table's latest change in words, shown at the top of
	// the hand views of that version.
	notes map[int64]liveNote
	// saving counts the changes to each table this process is saving,
	// whose notes are to come (Saving); left is the newest version of a
	// table whose hand views a pass left to a note meanwhile.
	saving map[int64]int
	left   map[int64]int64
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
	// message and when its token came; opened is the newest of those
	// that opened a view in a new private message, whose id is unknown.
	recorded, opened map[seatKey]cribbage.MessageToken
	// active counts the tables being brought up to date, for a shutdown
	// to wait on, and later the touches scheduled (touchLater): laterAt
	// holds each table's.
	active, later int
	laterAt       map[int64]*laterTouch
	// refused is the edit token Discord last refused for each table's
	// message, which is not tried again (a newer one is).
	refused map[int64]string
	// over is when each table that is over was last shown over here;
	// what is remembered of it is kept until overKeep has passed since.
	over map[int64]time.Time
	// tokenEdits is when each token bucket (a table message's, a hand
	// view's) was last used, on the bot's clock, which Discord's limits run on.
	tokenEdits map[string]time.Time
	sem        chan struct{}
}

// liveNote is what a change did, in the story's words, and the version it
// made.
type liveNote struct {
	version int64
	lines   render.Note
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
	// landed is closed when the edit under way has had its reply (see
	// SettleView).
	landed chan struct{}
	// view is the seat's view version (click.ViewVersion) the view last showed:
	// while it is unchanged in the discard, the view keeps the cards the
	// player is choosing.
	view string
	// refused is the token Discord refused for the view (the player
	// dismissed it, or the token lapsed), which no later edit uses: the
	// view is gone until a click records a new one.
	refused string
	// token is the token version was shown through (answered or edited),
	// and writing the one the edit under way goes through, with content
	// its text.
	token   string
	writing cribbage.MessageToken
	content string
	// overtaken marks the edit under way as landed before an answer that
	// is what the view shows now.
	overtaken bool
	// sum is what the view shows (summed), as the last edit or answer
	// put it there through sumToken on message sumMessage (if known): a
	// change that leaves the view as it is (a finished table's rematch
	// offer) does not edit it again.
	sum                  [32]byte
	summed               bool
	sumToken, sumMessage string
	// answeredAt is when the interaction came whose answer was last
	// noted for the view (answered).
	answeredAt time.Time
}

func newLive() *live {
	return &live{running: map[int64]bool{}, dirty: map[int64]bool{}, reading: map[int64]int64{}, panicked: map[int64]int64{}, notes: map[int64]liveNote{}, saving: map[int64]int{}, left: map[int64]int64{},
		views: map[seatKey]viewWrite{}, botEdits: map[int64]time.Time{}, tokenEdits: map[string]time.Time{}, shown: map[int64]int64{}, boards: map[int64]time.Time{}, recorded: map[seatKey]cribbage.MessageToken{}, opened: map[seatKey]cribbage.MessageToken{}, over: map[int64]time.Time{}, laterAt: map[int64]*laterTouch{}, refused: map[int64]string{}, sem: make(chan struct{}, liveWorkers)}
}

// noteChange remembers a change's lines for the hand views of its version.
func (l *live) noteChange(table, version int64, lines render.Note) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n, ok := l.notes[table]; !ok || n.version <= version {
		l.notes[table] = liveNote{version: version, lines: lines}
	}
}

// awaitsNote reports whether a pass that read version of table is to
// leave the hand views to the note of a change this process is saving
// (Saving), and notes that it did. A version older than the save's with
// no note here (another process's, or one from before a restart) is left
// too: the save's version, which follows at once, supersedes it.
func (l *live) awaitsNote(table, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.saving[table] == 0 || l.notes[table].version >= version {
		return false
	}
	l.left[table] = max(l.left[table], version)
	return true
}

// saved ends one of the saves Saving announced at table, and reports
// whether a pass left the hand views to a note that has not come.
func (l *live) saved(table int64) (unshown bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.saving[table]--; l.saving[table] > 0 {
		return false
	}
	delete(l.saving, table)
	left, ok := l.left[table]
	delete(l.left, table)
	return ok && l.notes[table].version < left
}

// note returns the lines of the change that made version, if known; at
// a table that is over, the game's last lines, which a later change
// there (a rematch offer, its lapse) words nothing of.
func (l *live) note(table, version int64, over bool) render.Note {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := l.notes[table]; n.version == version || (over && n.version < version) {
		return n.lines
	}
	return nil
}

// answered records that an interaction's own answer showed seat its view
// (v.Version, v.View): no live edit is needed for it, unless a live edit
// of that view was under way and may land after the answer (clobbered).
// The answer landed last, so the view shows its version even when a live
// edit of a newer one landed before it (another player's move): then the
// next pass shows it.
//
// An edit under way of another message clobbers nothing: of a view the
// player has since moved on from (its token is older than the one
// recorded), or one the answer did not update (it posted a new view, or
// the edit's token names another message). Nor does one the clicked view
// showed (v.Clicked): that edit landed before the click, so before the
// answer. (A player who clicks the moment their view shows the other's
// move is answered while the bot still waits on that edit's reply.)
//
// sum, if known, is the sum of what the answer showed (renderSum).
func (l *live) answered(k seatKey, v Shown, sum *[32]byte) (clobbered bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	if v.Token.At.Before(w.answeredAt) {
		// An earlier click's answer, noted after a later one's: the
		// later answer landed last (its click was made on the earlier
		// answer), and is what the view shows.
		return w.clobbered
	}
	w.answeredAt = v.Token.At
	switch {
	case !l.racing(k, w, v.Token.MessageID):
		// Every edit of the answered view has landed (or none was made,
		// or an earlier click was on what the edit under way showed), so
		// this answer is what the view shows, whatever an edit clobbered
		// before. Left clobbered, the view was edited once
		// more to what the answer had just shown.
		w.version, w.clobbered = v.Version, false
	case v.Clicked != "" && v.Clicked == w.content:
		w.version, w.clobbered, w.overtaken = v.Version, false, true
	default:
		w.clobbered = true
	}
	w.view, w.summed = v.View, false
	if sum != nil && !w.clobbered {
		w.sum, w.summed, w.sumToken, w.sumMessage = *sum, true, v.Token.Token, v.Token.MessageID
	}
	l.views[k] = w
	return w.clobbered
}

// lateAnswer reports whether tok's answer was noted after that of a later
// click on seat's view (answered): the later answer is what it shows.
func (l *live) lateAnswer(k seatKey, tok cribbage.MessageToken) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return tok.At.Before(l.views[k].answeredAt)
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
	return ok && !w.clobbered && w.view == click.SeatView(g, k.seat)
}

// viewCurrent reports whether seat's view shows version, by what this
// process wrote to it or, failing that, by what was recorded. An edit
// under way of a view the player has moved on from (its token older than
// the one recorded here, of another message) leaves the view as it is:
// taken for busy, the view was edited again to what its answer showed.
func (l *live) viewCurrent(k seatKey, recorded, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.views[k]; ok {
		busy := w.inFlight && l.editsView(k, w.writing)
		return !busy && !w.clobbered && w.version >= version
	}
	return recorded >= version
}

// refuse records that Discord refused the view's token.
func (l *live) refuse(k seatKey, token string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	w.refused = token
	l.views[k] = w
}

// gone reports whether seat's view is recorded with a token Discord has
// refused.
func (l *live) gone(k seatKey, token string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return token != "" && l.views[k].refused == token
}

// writing marks a live edit of a view through tok under way, with text
// content.
func (l *live) writing(k seatKey, tok cribbage.MessageToken, content string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	w.inFlight, w.clobbered, w.overtaken, w.writing, w.content = true, false, false, tok, content
	w.landed = make(chan struct{})
	l.views[k] = w
}

// wrote records the end of a live edit that showed version and view,
// whose render's sum was sum (ok), or failed. It counts for the seat's
// view only if it went through a token no older than the one recorded
// here: a seat that opened a new view while the pass edited its older one
// (the pass read the views before the new one was recorded) has the new
// view showing what its answer showed, whatever the older one now shows.
// It reports whether the edit is what the seat's view shows now.
func (l *live) wrote(k seatKey, version int64, view string, sum [32]byte, ok bool) (shows bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	w.inFlight = false
	if w.landed != nil {
		close(w.landed)
		w.landed = nil
	}
	edits := l.editsView(k, w.writing)
	if ok && !w.clobbered && !w.overtaken && edits {
		// A token of no known message (the view's opener) edits the
		// recorded view's message, which a later click named.
		w.version, w.view, w.token = version, view, w.writing.Token
		w.sum, w.summed, w.sumToken, w.sumMessage = sum, true, w.writing.Token, cmp.Or(w.writing.MessageID, l.recorded[k].MessageID)
		shows = true
	} else if !w.overtaken && edits {
		// A failed edit of the seat's view, which may have landed all
		// the same: what the view shows is unknown. (An edit of a view
		// the player has moved on from leaves theirs as it is.)
		w.summed = false
	}
	l.views[k] = w
	return shows
}

// viewShows reports whether seat's view, recorded with token tok, shows
// what sums to sum already: then it is taken to show version, as an edit
// would have made it. What this process last put on the view says; when
// it has put nothing there and answered nothing on it (it has just
// started), recorded does: the digest the store keeps of what the view
// was last made to show (cribbage.HandView.Shown).
func (l *live) viewShows(k seatKey, tok cribbage.MessageToken, sum [32]byte, recorded string, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, known := l.views[k]
	if !known {
		if recorded == "" || recorded != SumString(sum) {
			return false
		}
		l.views[k] = viewWrite{version: version, token: tok.Token, sum: sum, summed: true, sumToken: tok.Token, sumMessage: tok.MessageID}
		return true
	}
	same := tok.Token == w.sumToken || (tok.MessageID != "" && tok.MessageID == w.sumMessage)
	if !w.summed || w.sum != sum || w.inFlight || w.clobbered || !same {
		return false
	}
	w.version = max(w.version, version)
	l.views[k] = w
	return true
}

// editsView reports whether an edit through tok edits seat's view as
// recorded here: tok is the recorded token or newer, or another token of
// the recorded view's message, or a token of no known message (the click
// that opened a view in a new private message; Discord does not say
// which) that no view opened since has superseded. That last is the view
// the player's later clicks are on: taken for another message, an edit
// through it that landed after their answers left the view showing an
// older table, with nothing more sent until the next change. The caller
// holds l.mu.
func (l *live) editsView(k seatKey, tok cribbage.MessageToken) bool {
	rec, ok := l.recorded[k]
	switch {
	case !ok || notOlder(tok, rec) || (rec.MessageID != "" && tok.MessageID == rec.MessageID):
		return true
	case tok.MessageID != "":
		return false
	}
	opener, ok := l.opened[k]
	return !ok || notOlder(tok, opener)
}

// notOlder reports whether token tok is the seat's recorded token rec, or
// came no earlier. The same token compares by itself: the pass reads it
// back from the store, which keeps its time to the millisecond, while rec
// keeps it to the nanosecond, so by time alone a view's own token would
// look older than itself and its edits would never count.
func notOlder(tok, rec cribbage.MessageToken) bool {
	return tok.Token == rec.Token || !tok.At.Before(rec.At.Truncate(time.Millisecond))
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
// for the same message that has long to live (see handTokenRenew), and
// that Discord has not refused: a click on a view whose token was refused
// records its own, or the view would not be edited again until
// handTokenRenew had passed.
func (l *live) recordedFresh(k seatKey, tok cribbage.MessageToken) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	prev, ok := l.recorded[k]
	return ok && tok.MessageID != "" && prev.MessageID == tok.MessageID && tok.At.Sub(prev.At) < handTokenRenew &&
		l.views[k].refused != prev.Token
}

// record remembers the hand view recorded for a seat, whose answer showed
// version. A token other than the one the seat's view was last shown
// through may edit another message (a new view, or an older one clicked
// again), which shows what its answer showed, not what the other showed:
// so the view is taken to show that version, though what was written
// before was newer.
//
// A click's answer recorded after a later click's was noted (two clicks
// on one view, the first one's record slower) changes nothing: the later
// answer landed last, and taking the view to show the earlier version
// edited it again to what the later answer showed.
func (l *live) record(k seatKey, tok cribbage.MessageToken, version int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.views[k]
	if tok.At.Before(w.answeredAt) {
		return
	}
	l.recorded[k] = tok
	if tok.MessageID == "" {
		l.opened[k] = tok
	}
	if w.token != tok.Token {
		w.version, w.token = version, tok.Token
		l.views[k] = w
	}
}

// superseded reports whether a newer view than tok's, by when their
// interactions came, is recorded here for seat: tok's answer shows a view
// the player has moved on from.
func (l *live) superseded(k seatKey, tok cribbage.MessageToken) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	prev, ok := l.recorded[k]
	return ok && tok.At.Before(prev.At)
}

// Wait waits up to d for the passes under way to end, for a shutdown to
// show the last moves. Touches may start more meanwhile (a pass that had
// to wait for its bucket), so it looks until none is under way rather than
// waiting for a fixed set.
func (s *Surface) Wait(d time.Duration) {
	l := s.l
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

// passing reports whether a pass over table under way, or one waiting to
// start (see Touch), is to show version: it read version or a later one,
// or has its read still to come, or another pass is to follow it (dirty).
// A pass that cannot show it at once (the message held for an answer,
// or paced) leaves a touch of its own behind; one that panics does not.
func (l *live) passing(table, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running[table] && (l.dirty[table] || l.reading[table] >= version)
}

// toRead stands for the version a pass is about to read: the latest.
const toRead = math.MaxInt64

// read records the version of table a pass under way read, toRead before
// it reads, or 0 when it read nothing (it failed).
func (l *live) read(table, version int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running[table] {
		l.reading[table] = version
	}
}

// behind reports whether this process has not seen the table message show
// version.
func (l *live) behind(table, version int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shown[table] < version
}

// ended notes at now that table is shown over, and returns the tables
// not shown over for overKeep, whose memory may go. A table is kept from
// its last showing, not its first: forgotten while it was still being
// shown (a rematch offer lapsing a day after its game, its closing
// refresh just behind), its next pass edited the message to what it
// showed already.
func (l *live) ended(table int64, now time.Time) []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.over[table] = now
	var done []int64
	for id, at := range l.over {
		if now.Sub(at) >= overKeep {
			delete(l.over, id)
			done = append(done, id)
		}
	}
	return done
}

// refuseToken records that Discord refused token for table's message.
func (l *live) refuseToken(table int64, token string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refused[table] = token
}

// tokenRefused reports whether Discord refused token for table's message.
func (l *live) tokenRefused(table int64, token string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return token != "" && l.refused[table] == token
}

// forget drops what is remembered of a table that is over.
func (l *live) forget(table int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.notes, table)
	delete(l.panicked, table)
	delete(l.refused, table)
	delete(l.botEdits, table)
	delete(l.shown, table)
	delete(l.boards, table)
	for k := range l.views {
		if k.table == table {
			delete(l.views, k)
			delete(l.recorded, k)
			delete(l.opened, k)
		}
	}
}

// Saving says that this process is about to save a change to table,
// whose note (what it did, in words) comes with Moved once it is saved.
// Until the returned func is called, a pass that reads a version of the
// table newer than its last note leaves the hand views alone: shown then
// (by a pass a click's answer started, say), they lacked the note's lines
// ("Bob plays 8♦ — 19."), and were edited again a moment later when it
// came. The pass Moved brings shows them; should it read a later version
// another process made before the func is called, the pass the func then
// makes does. The func is called, once, when the change is shown or was
// not saved; a pass that left the views to a note that never came (a
// save that failed after all, a change that said nothing) is then made
// again.
func (s *Surface) Saving(table int64) (done func()) {
	s.l.mu.Lock()
	s.l.saving[table]++
	s.l.mu.Unlock()
	return func() {
		if s.l.saved(table) {
			s.Touch(table)
		}
	}
}

// Moved records what a change did at a table (its note, render.Tell's),
// for the hand views that show its version, and brings the table's
// message and hand views up to date.
func (s *Surface) Moved(t *cribbage.Table, note render.Note) {
	if len(note) > 0 || t.Status.Open() {
		s.l.noteChange(t.ID, t.Version, note)
	}
	s.Touch(t.ID)
}

// Touch asks for a table's message and hand views to be brought up to
// date. Touches of a table while a pass over it is under way coalesce
// into one more pass.
func (s *Surface) Touch(table int64) {
	if table == 0 {
		return
	}
	ctx, ok := s.opts.Context()
	if !ok {
		return // the run is over; the next start shows every open table
	}
	l := s.l
	l.mu.Lock()
	if l.running[table] {
		l.dirty[table] = true
		l.mu.Unlock()
		return
	}
	l.running[table] = true
	l.reading[table] = toRead
	l.active++
	l.mu.Unlock()
	go func() {
		defer func() {
			l.mu.Lock()
			l.active--
			l.mu.Unlock()
		}()
		s.runLive(ctx, table)
	}()
}

// touchLater touches a table after d, unless the bot is stopping by then.
// A table has one such touch waiting at most, the soonest asked for: the
// pass it brings schedules the next if it must wait again. Passes that
// each left a timer of their own (the table message and every hand view
// paced at once) multiplied a table's timers, each bringing another pass
// and another edit. The touch is due on the clock (Now), and TouchDue
// makes it when that clock gets there before the timer (After) fires.
func (s *Surface) touchLater(table int64, d time.Duration) {
	l := s.l
	lt := &laterTouch{due: s.opts.Now().Add(d)}
	l.mu.Lock()
	prev, ok := l.laterAt[table]
	if ok && !lt.due.Before(prev.due) {
		l.mu.Unlock()
		return
	}
	if !ok {
		l.later++
	}
	l.laterAt[table] = lt
	l.mu.Unlock()
	s.opts.After(d, func() { s.fireLater(table, lt) })
}

// laterTouch is a table's scheduled touch: when it is due on the clock.
type laterTouch struct{ due time.Time }

// fireLater makes a table's scheduled touch lt when its timer fires,
// unless a sooner one replaced it or TouchDue made it already.
func (s *Surface) fireLater(table int64, lt *laterTouch) {
	l := s.l
	l.mu.Lock()
	current := l.laterAt[table] == lt
	if current {
		delete(l.laterAt, table)
		l.later--
	}
	l.mu.Unlock()
	if current {
		s.Touch(table)
	}
}

// TouchDue makes the scheduled touches that are due on the clock, ahead of
// their timers. The bot's timer pass calls it, so a wait decided on the
// bot's clock ends when that clock says, even when the clock is moved on
// (a test's fake clock advanced a week) rather than waited out.
func (s *Surface) TouchDue() {
	l := s.l
	now := s.opts.Now()
	var due []int64
	l.mu.Lock()
	for table, lt := range l.laterAt {
		if !now.Before(lt.due) {
			delete(l.laterAt, table)
			l.later--
			due = append(due, table)
		}
	}
	l.mu.Unlock()
	for _, table := range due {
		s.Touch(table)
	}
}

// Pending counts the passes under way and the touches to come.
func (s *Surface) Pending() int {
	l := s.l
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active + l.later
}

// runLive makes passes over one table until nobody touched it during the
// last one.
func (s *Surface) runLive(ctx context.Context, table int64) {
	l := s.l
	select {
	case l.sem <- struct{}{}:
	case <-ctx.Done():
		l.mu.Lock()
		delete(l.running, table)
		delete(l.dirty, table)
		delete(l.reading, table)
		l.mu.Unlock()
		return
	}
	defer func() { <-l.sem }()
	for {
		s.livePassSafely(ctx, table)
		l.mu.Lock()
		if !l.dirty[table] || ctx.Err() != nil {
			delete(l.running, table)
			delete(l.dirty, table)
			delete(l.reading, table)
			l.mu.Unlock()
			return
		}
		// The next pass reads the table anew: an answer meanwhile leaves
		// its version to it.
		delete(l.dirty, table)
		l.reading[table] = toRead
		l.mu.Unlock()
	}
}

// livePassSafely is livePass with a panic logged, so one table cannot
// stop the others or the bot. A pass that panicked is tried again after
// liveRetry, as one whose read failed: what it was to show (a move, the
// hand's end) would otherwise wait for the table's next change, which may
// be the player's, who waits for it. A pass that panics again over the
// same version is not retried (the panic is the table's, not the
// moment's) until a touch, the next change, brings one; a panic over a
// version since is that version's, and tried again once.
func (s *Surface) livePassSafely(ctx context.Context, table int64) {
	defer func() {
		p := recover()
		if p == nil {
			s.l.passed(table)
			return
		}
		again := s.l.panickedOver(table, s.panicVersion(ctx, table))
		s.l.read(table, 0)
		retry := !again && ctx.Err() == nil
		s.log.Error("live: panic updating a table", "table", table, "will retry", retry, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		if retry {
			s.touchLater(table, liveRetry)
		}
	}()
	for range 3 {
		s.l.read(table, toRead)
		version, err := s.livePass(ctx, table)
		if err != nil {
			s.l.read(table, 0)
			if ctx.Err() == nil && !errors.Is(err, cribbage.ErrNotFound) {
				// The read failed (the database busy, a connection lost):
				// nothing was shown, so the pass is tried again rather
				// than left for the table's next move.
				s.log.Warn("live: could not update a table; will retry", "table", table, "err", err)
				s.touchLater(table, liveRetry)
			}
			return
		}
		// Another process (or a click answered meanwhile) may have moved
		// the table on while the edits were sent: look again.
		now, err := s.opts.Store.TableVersion(ctx, table)
		if err != nil || now == version {
			return
		}
	}
	s.touchLater(table, 0)
}

// livePass brings a table's message and open hand views up to the table as
// it is now, and returns the version shown.
func (s *Surface) livePass(ctx context.Context, table int64) (int64, error) {
	read, err := s.opts.Store.TableToShow(ctx, table)
	if err != nil {
		return 0, err
	}
	t, m := read.Table, read.Message
	s.l.read(table, t.Version)
	// The hand views are edited while the table message is: the seat
	// whose turn it is now looks at its view, and waiting for the table
	// message's board and edit first kept it behind at 900 tables, where
	// a player whose view did not offer the move opened another.
	var wg sync.WaitGroup
	if t.State != nil && !s.l.awaitsNote(table, t.Version) {
		for _, v := range read.Views {
			k := seatKey{table, v.Seat}
			if v.Seat >= len(t.Seats) || s.l.viewCurrent(k, v.Version, t.Version) || s.l.choosing(k, t.State) || s.l.gone(k, v.Token.Token) ||
				s.holds.leave(t.ID, v.Seat, t.Version, false, time.Now()) {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if p := recover(); p != nil {
						s.log.Error("live: panic showing a hand view", "table", table, "seat", v.Seat, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					}
				}()
				s.showHand(ctx, t, v)
			}()
		}
	}
	// The message speaks the channel's language, as lang.Server has it
	// from the settings read with the table.
	speak := lang.Server(read.Settings.Language, t.Locale)
	if err := s.showTable(ctx, t, m, speak); err != nil {
		var paced *rest.Paced
		switch {
		case errors.As(err, &paced):
			s.touchLater(table, paced.Until.Sub(s.opts.Now()))
		case rest.Permanent(err):
			// Discord refused (the channel is gone, the bot may not post
			// there): trying again cannot help; the next change tries.
			s.log.Warn("live: Discord refused the table message", "table", table, "err", err)
		case ctx.Err() == nil:
			s.log.Info("live: table message not updated; will retry", "table", table, "err", err)
			s.touchLater(table, liveRetry)
		}
	}
	wg.Wait()
	if !t.Status.Open() {
		s.ended(table)
	}
	return t.Version, nil
}

// panicVersion is the version of table that the pass under way panicked
// over: the one it read, or, if it panicked before it had read one (in
// the store, say), the table's version now; toRead if that cannot be
// read either.
func (s *Surface) panicVersion(ctx context.Context, table int64) (version int64) {
	if v := s.l.readVersion(table); v != toRead {
		return v
	}
	// The store may be what panicked; a panic here is not let out of the
	// recovery that asks.
	defer func() {
		if recover() != nil {
			version = toRead
		}
	}()
	if v, err := s.opts.Store.TableVersion(ctx, table); err == nil {
		return v
	}
	return toRead
}

// readVersion is the version the pass under way over table read (see
// read).
func (l *live) readVersion(table int64) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reading[table]
}

// passed records that a pass over table went through without a panic.
func (l *live) passed(table int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.panicked, table)
}

// panickedOver records that a pass over table panicked over version, and
// says whether the one before it had too, over the same version.
func (l *live) panickedOver(table, version int64) (again bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	prev, ok := l.panicked[table]
	l.panicked[table] = version
	return ok && prev == version
}

// ended notes that a table is over and forgets the tables over for
// overKeep. The table itself is remembered until then: see overKeep.
func (s *Surface) ended(table int64) {
	for _, id := range s.l.ended(table, s.opts.Now()) {
		s.l.forget(id)
		s.edits.forget(id)
	}
}

// showHand edits one seat's open hand view to the table as it is.
func (s *Surface) showHand(ctx context.Context, t *cribbage.Table, v cribbage.HandView) {
	k := seatKey{t.ID, v.Seat}
	// The view speaks its player's language.
	l, _ := lang.ByCode(v.Lang)
	lines := s.l.note(t.ID, t.Version, !t.Status.Open())
	r := render.Hand(l, t, v.Seat, 0, lines.Text(l, t))
	sum := renderSum(r)
	if s.l.viewShows(k, v.Token, sum, v.Shown, t.Version) {
		return // the change leaves the view as it is
	}
	if next, ok := s.l.spaced(rest.TokenBucket(v.Token.Token), s.opts.Now()); !ok {
		s.touchLater(t.ID, next.Sub(s.opts.Now()))
		return
	}
	s.l.writing(k, v.Token, r.Text())
	// The token's life is checked as the request goes (rest.Client).
	err := s.editThroughToken(ctx, v.Token, r)
	shows := s.l.wrote(k, t.Version, click.SeatView(t.State, v.Seat), sum, err == nil)
	var paced *rest.Paced
	switch {
	case err == nil:
		if shows {
			// Recorded for a process that starts, or another replica, so
			// it does not repeat this edit: by the version, when the table
			// has not moved on, and by the digest, when it moved on in a
			// way the view does not show.
			s.recordViewShown(ctx, t.ID, v.Seat, v.Token, t.Version, SumString(sum))
		}
	case errors.As(err, &paced):
		s.touchLater(t.ID, paced.Until.Sub(s.opts.Now()))
	case rest.TokenRefused(err):
		// The player dismissed the view, or the token expired: the next
		// click opens a fresh one. Until then the view is left alone;
		// tried again at every move, it cost a request each (a 401 counts
		// against Discord's invalid requests) for a view nobody sees.
		s.l.refuse(k, v.Token.Token)
		s.log.Debug("live: a hand view can no longer be edited", "table", t.ID, "seat", v.Seat, "err", err)
	case rest.Permanent(err):
		s.log.Info("live: Discord refused a hand view's edit", "table", t.ID, "seat", v.Seat, "err", err)
	case ctx.Err() == nil:
		// A server error or a lost connection: the view is tried again,
		// so the player whose turn it is sees it.
		s.log.Info("live: hand view not updated; will retry", "table", t.ID, "seat", v.Seat, "err", err)
		s.touchLater(t.ID, liveRetry)
	}
}

// recordViewShown records that seat's view, which tok edits, was made to
// show version, whose digest is sum (empty: unknown). Failing to costs at
// most one edit that changes nothing, after a start.
func (s *Surface) recordViewShown(ctx context.Context, table int64, seat int, tok cribbage.MessageToken, version int64, sum string) {
	if err := s.opts.Store.RecordHandViewShown(ctx, table, seat, tok, version, sum); err != nil && ctx.Err() == nil {
		s.log.Info("live: what a hand view shows not recorded", "table", table, "seat", seat, "err", err)
	}
}

// showTable edits the table message, m, to the table as it is now,
// unless it already shows that. It posts a new one only when the old one
// is gone (deleted), or when none was ever recorded and none can be any
// more: the answer that made it records it, and so does any click on it,
// but an interaction's token lives 15 minutes. So a table never gets two
// messages with live buttons.
func (s *Surface) showTable(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, speak lang.Lang) error {
	if m.MessageID == "" {
		if !t.HasPerson() {
			// A tournament's game between computer entrants is played
			// quietly: it has no message, and it may be played long after
			// it opened.
			return nil
		}
		if s.opts.Now().Sub(t.CreatedAt) < rest.TokenLife {
			// The answer that posts it records it, or, at a table the bot
			// opened itself, the outbox posts it (render.KindOpen); either
			// way a pass follows once it is recorded (PostTableMessage
			// touches the table).
			return nil
		}
		return s.postTableMessage(ctx, t, m.ThreadID, render.OpenNonce(t), speak)
	}
	r := render.Table(speak, t, m.Board)
	newBoard := render.BoardKey(speak, t) != m.Board
	if newBoard && t.Status == cribbage.StatusPlaying {
		if wait := s.l.boardWait(t.ID, s.opts.Now()); wait > 0 {
			newBoard = false
			s.touchLater(t.ID, wait)
		}
	}
	if !newBoard && s.edits.unchanged(t.ID, r, m.Shown) {
		s.l.showed(t.ID, t.Version)
		return nil // the message shows this already
	}
	if s.holds.leave(t.ID, tableSeat, t.Version, newBoard, time.Now()) {
		return nil // a click's answer is updating it (see Answering)
	}
	viaToken := tokenEdits(m.EditToken, m.MessageID, s.opts.Now()) && !s.l.tokenRefused(t.ID, m.EditToken.Token)
	if !viaToken && t.TokenOnly {
		// Discord refuses the bot's token where only tokens reach: the
		// message shows what it shows until a click on it, which answers
		// by updating it and brings a token.
		return nil
	}
	if !viaToken {
		// No token can edit the message: the bot token does, each table's
		// at most once a second and all tables' within botEditBudget, so
		// the story keeps the rest of the budget.
		if until, ok := s.l.takeBotEdit(t.ID, s.opts.Now()); !ok {
			return &rest.Paced{Until: until}
		}
	}
	// The board rides on the edit, drawn and uploaded only when it would
	// look different from the one the message shows. The files are drawn
	// for each attempt: a request consumes them.
	// What is sent is recorded as shown, the board's picture in it: the
	// render before the board was added differs from the next pass's,
	// which points at the board the message now has, and cost an edit
	// that changed nothing after each new board.
	var sent render.Message
	s.edits.editing(t.ID)
	key, err := s.editTableMessage(ctx, t, m, viaToken, func() (render.Message, string) {
		sent = render.Table(speak, t, m.Board)
		if newBoard {
			return sent, render.UploadBoard(speak, &sent, t)
		}
		return sent, m.Board
	})
	recorded := s.edits.edited(t.ID, sent, err == nil)
	if err == nil {
		s.l.showed(t.ID, t.Version)
		if recorded {
			// Recorded for a process that starts, or another replica, so
			// it does not repeat this edit (a failure costs only that).
			if err := s.opts.Store.RecordShown(ctx, t.ID, SumString(renderSum(sent))); err != nil {
				s.log.Info("live: what the table message shows not recorded", "table", t.ID, "err", err)
			}
		}
		if key != m.Board {
			s.l.boardShown(t.ID, s.opts.Now())
			return s.opts.Store.RecordBoard(ctx, t.ID, key)
		}
		return nil
	}
	if !rest.NotFound(err) {
		return err
	}
	return s.postTableMessage(ctx, t, m.ThreadID, "", speak)
}

// PostTableMessage posts a new table message in the channel, in the
// channel's post bucket, with its own copy of the board, and records it
// with the table's thread, threadID (empty for none), which it keeps. A
// nonce, if given, makes a resend after a lost answer return the message
// first posted. The message shows t as it was read; the table may have moved on
// since (a computer's first moves at a table the bot opened itself, which
// no pass could show while it had no message), so it is touched once the
// message is recorded: a pass then shows the table as it is now, or sends
// nothing if it is unchanged.
func (s *Surface) PostTableMessage(ctx context.Context, t *cribbage.Table, threadID, nonce string) error {
	return s.postTableMessage(ctx, t, threadID, nonce, s.speak(ctx, t))
}

// postTableMessage is PostTableMessage in language l.
func (s *Surface) postTableMessage(ctx context.Context, t *cribbage.Table, threadID, nonce string, l lang.Lang) error {
	if t.TokenOnly {
		// Not with the bot's token where only tokens reach: a table
		// message there is an answer or a followup (bot/story).
		return nil
	}
	r := render.Table(l, t, "")
	key := render.UploadBoard(l, &r, t)
	send := r.Send()
	body := rest.MessageCreate{MessageSend: send, Nonce: nonce, EnforceNonce: nonce != ""}
	raw, err := s.opts.REST.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(t.ChannelID),
		Bucket: rest.PostBucket(t.ChannelID), Route: "POST /channels/{channel}/messages", Body: body, Files: send.Files})
	var m discordgo.Message
	if err == nil {
		err = json.Unmarshal(raw, &m)
	}
	if err != nil {
		return err
	}
	s.edits.sent(t.ID, r)
	if err := s.opts.Store.RecordShown(ctx, t.ID, SumString(renderSum(r))); err != nil {
		return err
	}
	// The board first: a pass that reads the message recorded must read
	// its board too, or it takes the board for missing and uploads it
	// again with an edit that changes nothing.
	if err := s.opts.Store.RecordBoard(ctx, t.ID, key); err != nil {
		return err
	}
	if err := s.opts.Store.SetMessages(ctx, t.ID, m.ID, threadID); err != nil {
		return err
	}
	s.Touch(t.ID)
	return nil
}

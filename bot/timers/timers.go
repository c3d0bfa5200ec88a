// Package timers fires the timers of games played over days: a reminder to
// the player keeping a table waiting, a forfeit the opponents may claim
// after a long silence, a tournament's computer entrant taking a game its
// people left, lobbies nobody started and rematch offers nobody answered.
// Nothing is kept in memory: each timer is due by the table's stored
// times, and firing one is recorded together with its announcement, so
// each fires once across restarts and replicas.
package timers

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// Store is what the timers read and mark.
type Store interface {
	AllGuildSettings(ctx context.Context) ([]cribbage.GuildSettings, error)
	IdleTables(ctx context.Context, idleSince, openedBefore time.Time) ([]*cribbage.Table, error)
	LapsedOffers(ctx context.Context, offeredBefore time.Time) ([]*cribbage.Table, error)
	MarkForfeitOffered(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error)
	MarkReminded(ctx context.Context, id int64, prev, at time.Time, out []cribbage.Outbound) (bool, error)
}

// Tables is the bot's tables as the timers see them.
type Tables interface {
	// Change makes a change of the bot's own to table id through the
	// bot's one change path; decide makes it with the domain (a nil
	// change saves nothing).
	Change(ctx context.Context, id int64, decide func(t *cribbage.Table) (*cribbage.Change, error)) error
	// Speak is the language of what t's channel sees.
	Speak(ctx context.Context, t *cribbage.Table) lang.Lang
	// Touch brings table id's message up to date.
	Touch(id int64)
	// Env is what the domain's moves take.
	Env() cribbage.Env
}

// Timers checks every table's timers.
type Timers struct {
	Store  Store
	Tables Tables
	Now    func() time.Time
	Log    *slog.Logger
	// NudgeAfter, ReminderAfter and ForfeitAfter are the bot's waits
	// (see bot.Options); a server may set its own reminder and forfeit.
	NudgeAfter, ReminderAfter, ForfeitAfter time.Duration
	// Interval is how often Run checks.
	Interval time.Duration
	// After is the rest of each pass, given its time: what else is due by
	// the clock (the daily post, lapsed tokens, the tournaments).
	After func(ctx context.Context, at time.Time)
}

// Run checks the timers every Interval until ctx ends.
func (tm *Timers) Run(ctx context.Context) {
	tick := time.NewTicker(tm.Interval)
	defer tick.Stop()
	for {
		tm.Check(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Check fires every timer that is due, each server's by its own settings,
// then runs After.
func (tm *Timers) Check(ctx context.Context) {
	now := tm.Now()
	tm.fireAll(ctx, now)
	tm.lapseOffers(ctx, now)
	if tm.After != nil {
		tm.After(ctx, now)
	}
}

// fireAll fires what is due at each table idle long enough for one of its
// timers.
func (tm *Timers) fireAll(ctx context.Context, now time.Time) {
	all, err := tm.Store.AllGuildSettings(ctx)
	if err != nil {
		if ctx.Err() == nil {
			tm.Log.Error("timers: cannot read the servers' settings", "err", err)
		}
		return
	}
	guilds := make(map[string]cribbage.GuildSettings, len(all))
	durations := []time.Duration{tm.NudgeAfter, tm.ReminderAfter, tm.ForfeitAfter}
	for _, gs := range all {
		guilds[gs.GuildID] = gs
		durations = append(durations, gs.Reminder(tm.ReminderAfter), gs.Forfeit(tm.ForfeitAfter))
	}
	idleFor := cribbage.LobbyLife
	for _, d := range durations {
		if d > 0 && d < idleFor {
			idleFor = d
		}
	}
	tables, err := tm.Store.IdleTables(ctx, now.Add(-idleFor), now.Add(-cribbage.LobbyLife))
	if err != nil {
		if ctx.Err() == nil {
			tm.Log.Error("timers: cannot list idle tables", "err", err)
		}
		return
	}
	for _, t := range tables {
		ts := waits{nudge: tm.NudgeAfter, reminder: guilds[t.GuildID].Reminder(tm.ReminderAfter), forfeit: guilds[t.GuildID].Forfeit(tm.ForfeitAfter)}
		// A panic at one table must not stop every table's timers.
		if err := safely(func() error { return tm.fire(ctx, t, now, ts) }); err != nil && ctx.Err() == nil {
			tm.Log.Warn("timers: table", "table", t.ID, "err", err)
		}
	}
}

// lapseOffers withdraws the rematch offers nobody answered in time.
func (tm *Timers) lapseOffers(ctx context.Context, now time.Time) {
	tables, err := tm.Store.LapsedOffers(ctx, now.Add(-cribbage.OfferLife))
	if err != nil {
		if ctx.Err() == nil {
			tm.Log.Error("timers: cannot list lapsed rematch offers", "err", err)
		}
		return
	}
	for _, t := range tables {
		if err := safely(func() error { return tm.lapseOffer(ctx, t.ID, now) }); err != nil && ctx.Err() == nil {
			tm.Log.Warn("timers: rematch offer", "table", t.ID, "err", err)
		}
	}
}

// waits are the waits of one server's tables: the bot's, unless the
// server set its own.
type waits struct{ nudge, reminder, forfeit time.Duration }

// safely calls fn with a panic turned into an error.
func safely(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return fn()
}

// fire fires what is due at one table.
func (tm *Timers) fire(ctx context.Context, t *cribbage.Table, now time.Time, ts waits) error {
	if t.Status == cribbage.StatusLobby {
		if !now.Before(t.LobbyLapses()) {
			return tm.closeLobby(ctx, t.ID, now)
		}
		return nil
	}
	if t.TokenOnly {
		// Where only interactions' tokens reach, nothing can ping a
		// player: a reminder or a forfeit's offer would wait for a click
		// to carry it, and a click is a player already back. The table
		// waits as long as they like, and picks up at the next click.
		return nil
	}
	since := t.Since()
	waiting, opponents := waitingPeople(t)
	if len(waiting) == 0 {
		return nil
	}
	if d := ts.forfeit; t.ForfeitDue(now, d) && t.Tournament != nil && t.HasComputer() && len(opponents) == 0 {
		// Nobody could claim it: the tournament's computer entrant takes
		// the win itself (cribbage.ComputerClaim), as a person there would
		// claim it, or the round would wait for ever.
		return tm.Tables.Change(ctx, t.ID, func(t *cribbage.Table) (*cribbage.Change, error) {
			return cribbage.ComputerClaim(t, d, tm.Tables.Env())
		})
	}
	if t.ForfeitDue(now, ts.forfeit) && t.ForfeitOfferedAt.Before(since) && len(opponents) > 0 {
		l := tm.Tables.Speak(ctx, t)
		text := l.N("timer.forfeit", len(waiting), "Waiting", render.Mentions(waiting), "ID", t.ID, "Since", since.Unix(), "Opponents", render.Mentions(opponents))
		out := []cribbage.Outbound{render.Post(t, text, append(append([]string{}, waiting...), opponents...))}
		marked, err := tm.Store.MarkForfeitOffered(ctx, t.ID, t.ForfeitOfferedAt, now, out)
		if marked {
			// The table message offers the claim now.
			tm.Tables.Touch(t.ID)
		}
		return err
	}
	if ts.reminderDue(t, now) {
		// A reminder is posted in the table's thread: the channel's language.
		l := tm.Tables.Speak(ctx, t)
		_, verb := render.WaitingFor(l, t)
		text := l.T("timer.reminder", "Waiting", render.Mentions(waiting), "ID", t.ID, "Verb", verb, "Since", since.Unix())
		_, err := tm.Store.MarkReminded(ctx, t.ID, t.RemindedAt, now, []cribbage.Outbound{render.Post(t, text, waiting)})
		return err
	}
	return nil
}

// reminderDue reports whether the people a table waits on are to be
// pinged at now. The first ping of a wait comes after the nudge (a pause
// worth a ping: nobody is pinged while the game moves along, or for a
// move the computer made a moment ago), and once; a long wait is reminded
// of again every reminder period.
func (ts waits) reminderDue(t *cribbage.Table, now time.Time) bool {
	since := t.Since()
	idle := now.Sub(since)
	if t.RemindedAt.Before(since) {
		first := ts.nudge
		if first <= 0 || (ts.reminder > 0 && ts.reminder < first) {
			first = ts.reminder
		}
		return first > 0 && idle >= first
	}
	d := ts.reminder
	return d > 0 && now.Sub(t.RemindedAt) >= d
}

// waitingPeople returns the user ids of the people the game waits on and
// of the people on the other sides, who could claim a forfeit.
func waitingPeople(t *cribbage.Table) (waiting, opponents []string) {
	seats, _ := render.WaitingFor(lang.English, t)
	sides := map[int]bool{}
	for _, s := range seats {
		if seat := t.Seats[s]; seat.Computer == "" {
			waiting = append(waiting, seat.UserID)
			sides[t.Options.SideOf(s)] = true
		}
	}
	for i, seat := range t.Seats {
		if seat.Computer == "" && !sides[t.Options.SideOf(i)] {
			opponents = append(opponents, seat.UserID)
		}
	}
	return waiting, opponents
}

// closeLobby closes a lobby nobody started by now, and says so.
func (tm *Timers) closeLobby(ctx context.Context, id int64, now time.Time) error {
	return tm.Tables.Change(ctx, id, func(t *cribbage.Table) (*cribbage.Change, error) {
		ch := cribbage.CloseLobby(t, now)
		if ch == nil {
			return nil, nil
		}
		l := tm.Tables.Speak(ctx, t)
		text := l.T("timer.lobby-closed", "ID", t.ID)
		var mentions []string
		if c := t.Challenge; c != nil {
			// The challenger is told; the one who did not answer is not
			// pinged again.
			text = l.T("timer.challenge-closed", "Host", t.HostID, "Name", c.Name, "ID", t.ID)
			mentions = []string{t.HostID}
		}
		ch.Outbox = []cribbage.Outbound{render.Post(t, text, mentions)}
		return ch, nil
	})
}

// lapseOffer withdraws a rematch offer nobody answered by now, and says
// so; a table whose offer was answered meanwhile is left alone.
func (tm *Timers) lapseOffer(ctx context.Context, id int64, now time.Time) error {
	return tm.Tables.Change(ctx, id, func(t *cribbage.Table) (*cribbage.Change, error) {
		by := ""
		if t.Offer != nil {
			by = t.Offer.By
		}
		ch := cribbage.LapseOffer(t, now)
		if ch == nil {
			return nil, nil
		}
		text := tm.Tables.Speak(ctx, t).T("rematch.lapsed", "By", by, "ID", t.ID)
		ch.Outbox = []cribbage.Outbound{render.Post(t, text, []string{by})}
		return ch, nil
	})
}

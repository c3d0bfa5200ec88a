package bot

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// The timers of games played over days: a reminder to the player keeping a
// table waiting, a forfeit the opponents may claim after a long silence,
// and closing lobbies nobody started. Nothing is kept in memory: each
// timer is due by the table's stored times, and firing one is recorded
// together with its announcement, so each fires once across restarts.

// runTimers checks the timers every TimerInterval until ctx ends.
func (b *Bot) runTimers(ctx context.Context) {
	tick := time.NewTicker(b.opts.TimerInterval)
	defer tick.Stop()
	for {
		b.checkTimers(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// checkTimers fires every timer that is due, each server's by its own
// settings.
func (b *Bot) checkTimers(ctx context.Context) {
	now := b.now()
	all, err := b.store.AllGuildSettings(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("timers: cannot read the servers' settings", "err", err)
		}
		return
	}
	guilds := make(map[string]cribbage.GuildSettings, len(all))
	durations := []time.Duration{b.opts.NudgeAfter, b.opts.ReminderAfter, b.opts.ForfeitAfter}
	for _, gs := range all {
		guilds[gs.GuildID] = gs
		durations = append(durations, gs.Reminder(b.opts.ReminderAfter), gs.Forfeit(b.opts.ForfeitAfter))
	}
	idleFor := cribbage.LobbyLife
	for _, d := range durations {
		if d > 0 && d < idleFor {
			idleFor = d
		}
	}
	tables, err := b.store.IdleTables(ctx, now.Add(-idleFor), now.Add(-cribbage.LobbyLife))
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("timers: cannot list idle tables", "err", err)
		}
		return
	}
	for _, t := range tables {
		if err := b.fireTimersSafely(ctx, t, now, b.timersAt(guilds[t.GuildID])); err != nil && ctx.Err() == nil {
			b.log.Warn("timers: table", "table", t.ID, "err", err)
		}
	}
	b.lapseOffers(ctx, now)
	b.daily.Post(ctx, now)
	b.live.TouchDue()
	b.outbox.Wake()
	b.advanceTournamentsLater()
	if b.opts.TimersChecked != nil {
		b.opts.TimersChecked(now)
	}
}

// advanceTournamentsLater advances the tournaments (a game's end no
// process saw through) in the background, unless the last pass's advance
// still runs. Advancing may play games between computer entrants: seconds
// of work on a busy machine, which held up the next passes' reminders and
// forfeits when the timer pass did it itself.
func (b *Bot) advanceTournamentsLater() {
	if _, ok := b.liveContext(); !ok || !b.advancing.CompareAndSwap(false, true) {
		return // the run is over, or the last pass's advance still runs
	}
	b.inBackground(func(ctx context.Context) {
		defer b.advancing.Store(false)
		b.tournaments.AdvanceAll(ctx)
		b.outbox.Wake()
	})
}

// lapseOffers withdraws the rematch offers nobody answered in time.
func (b *Bot) lapseOffers(ctx context.Context, now time.Time) {
	tables, err := b.store.LapsedOffers(ctx, now.Add(-cribbage.OfferLife))
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("timers: cannot list lapsed rematch offers", "err", err)
		}
		return
	}
	for _, t := range tables {
		if err := safely(func() error { return b.lapseOffer(ctx, t.ID) }); err != nil && ctx.Err() == nil {
			b.log.Warn("timers: rematch offer", "table", t.ID, "err", err)
		}
	}
}

// timerSettings are the waits of one server's tables: the bot's, unless
// the server set its own.
type timerSettings struct{ nudge, reminder, forfeit time.Duration }

// timersAt returns the waits at a server with settings gs.
func (b *Bot) timersAt(gs cribbage.GuildSettings) timerSettings {
	return timerSettings{nudge: b.opts.NudgeAfter, reminder: gs.Reminder(b.opts.ReminderAfter), forfeit: gs.Forfeit(b.opts.ForfeitAfter)}
}

// fireTimersSafely is fireTimers with a panic turned into an error, so one
// table cannot stop every table's timers (or the bot).
func (b *Bot) fireTimersSafely(ctx context.Context, t *cribbage.Table, now time.Time, ts timerSettings) error {
	return safely(func() error { return b.fireTimers(ctx, t, now, ts) })
}

// safely calls fn with a panic turned into an error.
func safely(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return fn()
}

// fireTimers fires what is due at one table.
func (b *Bot) fireTimers(ctx context.Context, t *cribbage.Table, now time.Time, ts timerSettings) error {
	if t.Status == cribbage.StatusLobby {
		if !now.Before(t.LobbyLapses()) {
			return b.closeLobby(ctx, t.ID, now)
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
	waiting, opponents := b.waitingPeople(t)
	if len(waiting) == 0 {
		return nil
	}
	if d := ts.forfeit; t.ForfeitDue(now, d) && t.Tournament != nil && t.HasComputer() && len(opponents) == 0 {
		// Nobody could claim it: the tournament's computer entrant takes
		// the win itself, or the round would wait for ever.
		return b.computerClaims(ctx, t.ID, d)
	}
	if t.ForfeitDue(now, ts.forfeit) && t.ForfeitOfferedAt.Before(since) && len(opponents) > 0 {
		l := b.speakOrEnglish(ctx, t)
		text := l.N("timer.forfeit", len(waiting), "Waiting", render.Mentions(waiting), "ID", t.ID, "Since", since.Unix(), "Opponents", render.Mentions(opponents))
		out := []cribbage.Outbound{render.Post(t, text, append(append([]string{}, waiting...), opponents...))}
		marked, err := b.store.MarkForfeitOffered(ctx, t.ID, t.ForfeitOfferedAt, now, out)
		if marked {
			// The table message offers the claim now.
			b.live.Touch(t.ID)
		}
		return err
	}
	if ts.reminderDue(t, now) {
		// A reminder is posted in the table's thread: the channel's language.
		l := b.speakOrEnglish(ctx, t)
		_, verb := render.WaitingFor(l, t)
		text := l.T("timer.reminder", "Waiting", render.Mentions(waiting), "ID", t.ID, "Verb", verb, "Since", since.Unix())
		_, err := b.store.MarkReminded(ctx, t.ID, t.RemindedAt, now, []cribbage.Outbound{render.Post(t, text, waiting)})
		return err
	}
	return nil
}

// computerClaims has a tournament's computer entrant take the win of a
// game its people have left for the forfeit time after
// (cribbage.ComputerClaim), as a person there would claim it
// (clickClaimWin).
func (b *Bot) computerClaims(ctx context.Context, id int64, after time.Duration) error {
	_, err := b.change(ctx, id, changeOf{decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		ch, err := cribbage.ComputerClaim(t, after, b.env())
		return ch, nil, err
	}})
	return err
}

// reminderDue reports whether the people a table waits on are to be
// pinged at now. The first ping of a wait comes after the nudge (a pause
// worth a ping: nobody is pinged while the game moves along, or for a
// move the computer made a moment ago), and once; a long wait is reminded
// of again every reminder period.
func (ts timerSettings) reminderDue(t *cribbage.Table, now time.Time) bool {
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
func (b *Bot) waitingPeople(t *cribbage.Table) (waiting, opponents []string) {
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
func (b *Bot) closeLobby(ctx context.Context, id int64, now time.Time) error {
	_, err := b.change(ctx, id, changeOf{decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		ch := cribbage.CloseLobby(t, now)
		if ch != nil {
			l := b.speakOrEnglish(ctx, t)
			text := l.T("timer.lobby-closed", "ID", t.ID)
			var mentions []string
			if c := t.Challenge; c != nil {
				// The challenger is told; the one who did not answer is not
				// pinged again.
				text = l.T("timer.challenge-closed", "Host", t.HostID, "Name", c.Name, "ID", t.ID)
				mentions = []string{t.HostID}
			}
			ch.Outbox = []cribbage.Outbound{render.Post(t, text, mentions)}
		}
		return ch, nil, nil
	}})
	return err
}

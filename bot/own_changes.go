package bot

import (
	"context"
	"fmt"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// ownTables is the bot's tables as the parts that change them on the
// bot's own account see them, with no interaction asking: the tournament
// director (tournament.Tables) and the timers (timers.Tables). Their
// changes go the one change path like a click's.
type ownTables struct{ b *Bot }

// Change makes a change of the bot's own to table id; see timers.Tables.
func (o ownTables) Change(ctx context.Context, id int64, decide func(t *cribbage.Table) (*cribbage.Change, error)) error {
	_, err := o.b.change(ctx, id, changeOf{decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		ch, err := decide(t)
		return ch, nil, err
	}})
	return err
}

// Continue makes the moves table id makes by itself, shown but not
// carried on from: the director's pass advances the tournament itself.
func (o ownTables) Continue(ctx context.Context, id int64) (*cribbage.Table, error) {
	b := o.b
	done, err := b.change(ctx, id, changeOf{own: true, decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Continue(t, b.env())
	}})
	return done.table, err
}

// CancelGame cancels one open table of a cancelled tournament.
func (o ownTables) CancelGame(ctx context.Context, id int64, by, name string) {
	err := o.Change(ctx, id, func(t *cribbage.Table) (*cribbage.Change, error) {
		// The reason is kept with the table and shown in its channel: in
		// the server's language.
		l := o.b.speakOrEnglish(ctx, t)
		if err := t.Cancel(by, l.T("tournament.cancelled-reason", "Name", name)); err != nil {
			return nil, nil // over already
		}
		text := fmt.Sprintf("🚫 %s\n%s", render.CancelledLine(l, t), render.CountsForNobody(l))
		return &cribbage.Change{Table: t, Outbox: []cribbage.Outbound{render.Post(t, text, t.People())}}, nil
	})
	if err != nil {
		o.b.log.Warn("could not cancel a tournament table", "table", id, "err", err)
	}
}

// Speak is the language of what t's channel sees (speakOrEnglish).
func (o ownTables) Speak(ctx context.Context, t *cribbage.Table) lang.Lang {
	return o.b.speakOrEnglish(ctx, t)
}

// Touch brings table id's message up to date.
func (o ownTables) Touch(id int64) { o.b.live.Touch(id) }

// Env is what the domain's moves take from the bot.
func (o ownTables) Env() cribbage.Env { return o.b.env() }

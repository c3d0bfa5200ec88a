package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/tournament"
	"github.com/cribbage-bot/cribbage/engine"
)

// A tournament is run by its director (bot/tournament); its games are
// tables like any other, changed through the one change path. These are
// what the director asks of them, and its routes.

// tournamentTables is the bot's tables as the director sees them.
type tournamentTables struct{ b *Bot }

// Continue makes the moves table id makes by itself, shown but not
// carried on from: the director's pass advances the tournament itself.
func (tt tournamentTables) Continue(ctx context.Context, id int64) (*cribbage.Table, error) {
	b := tt.b
	done, err := b.change(ctx, id, changeOf{own: true, decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		return cribbage.Continue(t, b.env())
	}})
	return done.table, err
}

func (tt tournamentTables) Env() cribbage.Env { return tt.b.env() }

// CancelGame cancels one open table of a cancelled tournament.
func (tt tournamentTables) CancelGame(ctx context.Context, id int64, by, name string) {
	b := tt.b
	_, err := b.change(ctx, id, changeOf{decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		// The reason is kept with the table and shown in its channel: in
		// the server's language.
		l := b.speakOrEnglish(ctx, t)
		if err := t.Cancel(by, l.T("tournament.cancelled-reason", "Name", name)); err != nil {
			return nil, nil, nil // over already
		}
		text := fmt.Sprintf("🚫 %s\n%s", render.CancelledLine(l, t), render.CountsForNobody(l))
		return &cribbage.Change{Table: t, Outbox: []cribbage.Outbound{render.Post(t, text, t.People())}}, nil, nil
	}})
	if err != nil {
		b.log.Warn("could not cancel a tournament table", "table", id, "err", err)
	}
}

// fromDirector routes a command to the tournament director.
func fromDirector(answer func(d *tournament.Director, ctx context.Context, ic *discordgo.Interaction) (tournament.Answer, error)) func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return func(b *Bot, ctx context.Context, ic *discordgo.Interaction) (reply, error) {
		a, err := answer(b.tournaments, ctx, ic)
		return reply{resp: a.Resp, after: a.After}, err
	}
}

// clickDirector routes a tournament message's button to the director.
func clickDirector(answer func(d *tournament.Director, ctx context.Context, ic *discordgo.Interaction, c click.ID) (tournament.Answer, error)) func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return func(b *Bot, ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
		a, err := answer(b.tournaments, ctx, ic, c)
		return reply{resp: a.Resp, after: a.After}, err
	}
}

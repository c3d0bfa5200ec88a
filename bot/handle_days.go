package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/engine"
)

// clickClaimWin ends the game for the claimer's side when an opponent has
// not moved for the forfeit time (the server's, or the bot's). A forfeit
// is a win, never a skunk.
func (b *Bot) clickClaimWin(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	after := settings.Forfeit(b.opts.ForfeitAfter)
	done, err := b.play(ctx, ic, c.Table, "", func(t *cribbage.Table, seat int) (engine.Action, error) {
		if after == 0 {
			return engine.Action{}, refusal.ErrNoForfeits
		}
		if !t.ForfeitDue(b.now(), after) {
			return engine.Action{}, refusal.ErrTooSoon
		}
		late, err := t.LateSeat(seat)
		if err != nil {
			return engine.Action{}, err
		}
		if late < 0 {
			return engine.Action{}, refusal.ErrNobodyLate
		}
		return engine.Action{Kind: engine.ActForfeit, Seat: seat, Other: late}, nil
	})
	if err != nil {
		return reply{}, err
	}
	return updated(done), nil
}

package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// clickHint asks the coach: the best three discards with their expected
// points, or the card to play and why. Hints are private, and a game in
// which one was given is marked assisted.
func (b *Bot) clickHint(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	l := command.Lang(ic)
	v := t.State.ViewFor(seat)
	if click.ViewVersion(v) != c.View {
		return handView(l, ic, t, seat, 0, refusal.Text(l, refusal.ErrStaleView), nil), nil
	}
	var hint string
	switch {
	case v.Phase == engine.PhaseDiscard && !v.Discarded[seat]:
		hint = render.DiscardHint(l, v.Options, ai.Splits(v.Options, seat, v.Dealer, v.Hand), 3)
	case v.Phase == engine.PhasePlay && v.Turn == seat:
		hint = render.PlayHint(l, t, v, ai.AdvisePlay(v, coachSeed(t, v)))
	case render.CountingNow(t, seat):
		hint = render.ShowHint(l, t)
	default:
		return handView(l, ic, t, seat, 0, l.T("coach.no-advice"), nil), nil
	}
	if err := b.store.MarkAssisted(ctx, t.ID); err != nil {
		return reply{}, err
	}
	return handView(l, ic, t, seat, 0, "🧑‍🏫 "+hint, nil), nil
}

// coachSeed fixes the coach's search for a position, so asking twice
// gives the same advice.
func coachSeed(t *cribbage.Table, v engine.View) uint64 {
	return uint64(t.ID)<<32 ^ uint64(v.HandNo)<<16 ^ uint64(len(v.Plays))<<4 ^ uint64(v.Seat)
}

// clickReview compares the seat's discard in the last hand with the best
// one, in points given away on average.
func (b *Bot) clickReview(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	v := t.State.ViewFor(seat)
	if v.LastHandNo == 0 {
		return reply{resp: render.Ephemeral(command.Lang(ic).T("reply.no-review"))}, nil
	}
	return reply{resp: render.Ephemeral(render.ReviewText(command.Lang(ic), v))}, nil
}

package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// The replay's refusals.

// mayReplay says whether uid may see a table's replay: anyone in its
// channel once the game is over, only its players while it is on.
func (b *Bot) mayReplay(ctx context.Context, t *cribbage.Table, ic *discordgo.Interaction, uid string) error {
	if err := b.place.Check(ctx, ic, t); err != nil {
		return err
	}
	switch {
	case t.State == nil:
		return refusal.ErrNoReplay
	case t.Status == cribbage.StatusPlaying && t.SeatOf(uid) < 0:
		return refusal.ErrReplayPlayers
	}
	return nil
}

// cmdReplay opens a game's replay at its first hand: the table named, or
// the caller's game in progress here.
func (b *Bot) cmdReplay(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool { return t.Status == cribbage.StatusPlaying }, false)
	if err != nil {
		return reply{}, err
	}
	return b.replayPage(ctx, ic, id, 1, false)
}

// clickReplay turns a replay's page, or opens it from a finished table's
// Replay button.
func (b *Bot) clickReplay(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	update := ic.Message != nil && ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0
	return b.replayPage(ctx, ic, c.Table, c.Index, update)
}

// replayPage answers with hand n of a table's replay, as a new private
// message or in place of the page shown.
func (b *Bot) replayPage(ctx context.Context, ic *discordgo.Interaction, id int64, n int, update bool) (reply, error) {
	uid, _ := command.User(ic)
	t, err := b.store.Table(ctx, id)
	if err != nil {
		return reply{}, err
	}
	if err := b.mayReplay(ctx, t, ic, uid); err != nil {
		return reply{}, err
	}
	actions, err := b.store.Actions(ctx, id)
	if err != nil {
		return reply{}, err
	}
	hands, err := render.ReplayHands(t, actions)
	if err != nil {
		return reply{}, err
	}
	if len(hands) == 0 {
		return reply{}, refusal.ErrNoReplay
	}
	n = min(max(n, 1), len(hands))
	r := render.Replay(t, hands, n)
	kind := discordgo.InteractionResponseChannelMessageWithSource
	if update {
		kind = discordgo.InteractionResponseUpdateMessage
	}
	return reply{resp: &discordgo.InteractionResponse{Type: kind, Data: r.Response(true)}}, nil
}

package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/tournament"
)

// A tournament is run by its director (bot/tournament); its games are
// tables like any other, changed through the one change path (ownTables).
// These are the director's routes.

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

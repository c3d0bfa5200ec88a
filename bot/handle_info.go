package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// cmdStatus shows a table, privately unless asked to post it.
func (b *Bot) cmdStatus(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool { return true }, false)
	if err != nil {
		return reply{}, err
	}
	t, err := b.store.Table(ctx, id)
	if err != nil {
		return reply{}, err
	}
	public := false
	if o, ok := command.Options(ic)["public"]; ok {
		public = o.BoolValue()
	}
	// A message of its own: it carries its own board.
	r := render.Table(t, "")
	render.UploadBoard(&r, t)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.Response(!public)}}, nil
}

// autocomplete suggests the user's tables (for join: the open lobbies here).
func (b *Bot) autocomplete(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, _ := command.User(ic)
	data := ic.ApplicationCommandData()
	var tables []*cribbage.Table
	var err error
	// Joining, and an admin's cancel, look for tables in this channel;
	// everything else for the user's own.
	if len(data.Options) > 0 && (data.Options[0].Name == "join" || data.Name == command.Admin) {
		tables, err = b.store.ChannelTables(ctx, ic.ChannelID)
	} else {
		tables, err = b.store.PlayerTables(ctx, ic.GuildID, uid)
	}
	if err == nil {
		// Only tables the command can act on here are offered.
		tables, err = b.place.Here(ctx, ic, tables)
	}
	if err != nil {
		return reply{}, err
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, t := range tables {
		if len(choices) == 25 {
			break
		}
		var names []string
		for _, s := range t.Seats {
			names = append(names, s.Name)
		}
		label := fmt.Sprintf("Table %d · %s · %s", t.ID, strings.Join(names, ", "), t.Status)
		if r := []rune(label); len(r) > 100 {
			label = string(r[:99]) + "…"
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: t.ID})
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}}, nil
}

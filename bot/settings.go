package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// /cribbage-admin settings: a server's own settings. Without options it
// shows them; with options it changes them, all or none: a bad value is
// refused with what to write instead, and nothing changes.

// cmdSettings shows the server's settings, or changes them. Seeing them
// takes what cancelling does; changing them takes Manage Server.
func (b *Bot) cmdSettings(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	cur, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	opts := command.Options(ic)
	if len(opts) == 0 {
		if !command.IsAdmin(ic) && !command.HasRole(ic, cur.CancelRole) {
			return reply{}, refusal.ErrNotAdmin
		}
		return reply{resp: render.Ephemeral(render.Settings(cur, b.opts.ReminderAfter, b.opts.ForfeitAfter))}, nil
	}
	if !command.IsAdmin(ic) {
		return reply{}, refusal.ErrNotAdmin
	}
	change, err := command.ParseSettings(ic.GuildID, opts)
	if err != nil {
		return reply{resp: render.Ephemeral("⚠️ " + err.Error() + " Nothing was changed.")}, nil
	}
	uid, _ := command.User(ic)
	saved, err := b.store.UpdateGuildSettings(ctx, ic.GuildID, func(gs *cribbage.GuildSettings) error {
		change.Apply(gs)
		gs.UpdatedBy = uid
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	said := strings.Join(change.Said, "; ")
	b.logger(ic).Info("server settings changed", "guild", ic.GuildID, "by", uid, "changes", said)
	return reply{resp: render.Ephemeral("✅ Saved: " + said + ".\n\n" + render.Settings(saved, b.opts.ReminderAfter, b.opts.ForfeitAfter))}, nil
}

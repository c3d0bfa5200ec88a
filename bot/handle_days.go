package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// errTooSoon means a forfeit was claimed before the waiting time.
var errTooSoon = errors.New("bot: too soon to claim a forfeit")

// errNobodyLate means a forfeit was claimed when no opponent has to move.
var errNobodyLate = errors.New("bot: no opponent is keeping the table waiting")

// errNoForfeits means the server turned forfeits off.
var errNoForfeits = errors.New("bot: forfeits are off on this server")

// clickClaimWin ends the game for the claimer's side when an opponent has
// not moved for the forfeit time (the server's, or the bot's). A forfeit
// is a win, never a skunk.
func (b *Bot) clickClaimWin(ctx context.Context, ic *discordgo.Interaction, c clickID) (reply, error) {
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	after := settings.Forfeit(b.opts.ForfeitAfter)
	t, _, _, err := b.applyAction(ctx, ic, c.Table, "", func(t *cribbage.Table, seat int) (engine.Action, error) {
		if after == 0 {
			return engine.Action{}, errNoForfeits
		}
		if !t.ForfeitDue(b.now(), after) {
			return engine.Action{}, errTooSoon
		}
		late, err := t.LateSeat(seat)
		if err != nil {
			return engine.Action{}, err
		}
		if late < 0 {
			return engine.Action{}, errNobodyLate
		}
		return engine.Action{Kind: engine.ActForfeit, Seat: seat, Other: late}, nil
	})
	if err != nil {
		return reply{}, err
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: renderTable(t).response(false)}}, nil
}

// messageLink is " (its message link)" for a table whose message is
// known, or "".
func messageLink(t *cribbage.Table) string {
	if t.MessageID == "" {
		return ""
	}
	return fmt.Sprintf(" (https://discord.com/channels/%s/%s/%s)", t.GuildID, t.ChannelID, t.MessageID)
}

// cmdGames lists the user's open tables in this server: a link to each
// table message, whose turn it is and for how long.
func (b *Bot) cmdGames(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, _ := user(ic)
	tables, err := b.store.PlayerTables(ctx, ic.GuildID, uid)
	if err != nil {
		return reply{}, err
	}
	if len(tables) == 0 {
		return reply{resp: ephemeral("You have no open tables in this server. Start one with `/cribbage start`.")}, nil
	}
	var lines []string
	for _, t := range tables {
		lines = append(lines, gameLine(t, uid))
	}
	return reply{resp: ephemeral("**Your tables**\n" + strings.Join(lines, "\n"))}, nil
}

// gameLine describes one of a player's tables.
func gameLine(t *cribbage.Table, uid string) string {
	var others []string
	for _, s := range t.Seats {
		if s.UserID != uid || s.Computer != "" {
			others = append(others, s.Name)
		}
	}
	where := fmt.Sprintf("table %d", t.ID)
	if t.MessageID != "" {
		where = fmt.Sprintf("[table %d](https://discord.com/channels/%s/%s/%s)", t.ID, t.GuildID, t.ChannelID, t.MessageID)
	}
	line := fmt.Sprintf("• %s with %s — ", where, strings.Join(others, ", "))
	if t.Status == cribbage.StatusLobby {
		return line + fmt.Sprintf("waiting for players since <t:%d:R>", t.CreatedAt.Unix())
	}
	seats, verb := waitingFor(t)
	var names []string
	mine := false
	for _, s := range seats {
		names = append(names, seatName(t, s))
		mine = mine || t.Seats[s].UserID == uid
	}
	if mine {
		return line + fmt.Sprintf("**your turn** to %s, since <t:%d:R>", verb, t.Since().Unix())
	}
	return line + fmt.Sprintf("waiting for %s to %s, since <t:%d:R>", strings.Join(names, ", "), verb, t.Since().Unix())
}

package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/engine"
)

// errTooSoon means a forfeit was claimed before the waiting time.
var errTooSoon = errors.New("bot: too soon to claim a forfeit")

// forfeitDue reports whether the table has waited long enough for a
// forfeit to be claimed.
func (b *Bot) forfeitDue(t *Table) bool {
	return b.opts.ForfeitAfter > 0 && t.Status == StatusPlaying && b.now().Sub(t.Since()) >= b.opts.ForfeitAfter
}

// clickClaimWin ends the game for the claimer's side when an opponent has
// not moved for the forfeit time. A forfeit is a win, never a skunk.
func (b *Bot) clickClaimWin(ctx context.Context, ic *discordgo.Interaction, c clickID) (reply, error) {
	uid, _ := user(ic)
	t, _, err := b.applyAction(ctx, ic.ID, uid, c.Table, "", func(t *Table, seat int) (engine.Action, error) {
		if !b.forfeitDue(t) {
			return engine.Action{}, errTooSoon
		}
		for _, w := range t.State.Waiting() {
			if t.Options.SideOf(w) != t.Options.SideOf(seat) {
				return engine.Action{Kind: engine.ActForfeit, Seat: seat, Other: w}, nil
			}
		}
		return engine.Action{}, engine.ErrNotOpponent
	})
	if err != nil {
		return reply{}, err
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: renderTable(t).response(false)}}, nil
}

// clickRematch opens a new table with the same seats and options, started
// at once; the deal passes on.
func (b *Bot) clickRematch(ctx context.Context, ic *discordgo.Interaction, c clickID) (reply, error) {
	uid, name := user(ic)
	prev, err := b.store.Table(ctx, c.Table)
	if err != nil {
		return reply{}, err
	}
	switch {
	case prev.GuildID != ic.GuildID:
		return reply{}, ErrNotFound
	case prev.SeatOf(uid) < 0:
		return reply{}, errNotSeated
	case prev.Status != StatusFinished:
		return reply{}, errNotFinished
	}
	seats := append([]Seat(nil), prev.Seats...)
	seats[prev.SeatOf(uid)].Name = name
	t, err := b.store.CreateTable(ctx, &Table{GuildID: prev.GuildID, ChannelID: prev.ChannelID, HostID: uid, Options: prev.Options,
		Computer: prev.Computer, Status: StatusLobby, Seats: seats}, ic.ID, nil)
	if err != nil {
		return reply{}, err
	}
	unlock := b.locks.lock(t.ID)
	t, err = b.store.Update(ctx, t.ID, "", func(t *Table) (*Change, error) {
		g, err := engine.Rematch(prev.State)
		if err != nil {
			return nil, err
		}
		g, actions, events, err := advance(t, g, nil, nil)
		if err != nil {
			return nil, err
		}
		t.Status = StatusPlaying
		ch := b.changeFor(t, g, actions, events)
		intro := post(t, fmt.Sprintf("**Rematch** of table %d — %s deals first.", prev.ID, seatName(t, g.Dealer)), nil)
		ch.Outbox = append([]Outbound{{ChannelID: t.ChannelID, Kind: kindThread}, intro}, ch.Outbox...)
		return ch, nil
	})
	unlock()
	if err != nil {
		return reply{}, err
	}
	r := renderTable(t)
	r.Content = fmt.Sprintf("%s asked for a rematch of table %d.", name, prev.ID)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.response(false)}
	return reply{resp: resp, tableMessage: t.ID}, nil
}

// errNotFinished refuses a rematch of a game still on.
var errNotFinished = errors.New("bot: the game is not finished")

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
func gameLine(t *Table, uid string) string {
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
	if t.Status == StatusLobby {
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

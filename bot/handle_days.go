package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
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

// messageLink is " (its message link)" for a table whose message, m, is
// known, or "".
func messageLink(t *cribbage.Table, m cribbage.TableMessage) string {
	if m.MessageID == "" {
		return ""
	}
	return fmt.Sprintf(" (https://discord.com/channels/%s/%s/%s)", t.GuildID, t.ChannelID, m.MessageID)
}

// cmdGames lists the user's open tables in this server: a link to each
// table message, whose turn it is and for how long; and first what waits
// on the user's answer: challenges to them and rematch offers they have
// not accepted, which are no table of theirs yet.
func (b *Bot) cmdGames(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, _ := command.User(ic)
	tables, err := b.store.PlayerTables(ctx, ic.GuildID, uid)
	if err != nil {
		return reply{}, err
	}
	awaiting, err := b.store.AwaitingAnswer(ctx, ic.GuildID, uid)
	if err != nil {
		return reply{}, err
	}
	if len(tables) == 0 && len(awaiting) == 0 {
		return reply{resp: render.Ephemeral("You have no open tables in this server. Start one with `/cribbage start`.")}, nil
	}
	// Every table's link, in one read.
	msgs, err := b.place.Messages(ctx, append(slices.Clone(awaiting), tables...))
	if err != nil {
		return reply{}, err
	}
	var lines []string
	if len(awaiting) > 0 {
		lines = append(lines, "**Waiting on your answer**")
		for _, t := range awaiting {
			lines = append(lines, answerLine(t, msgs[t.ID]))
		}
	}
	if len(tables) > 0 {
		lines = append(lines, "**Your tables**")
		for _, t := range tables {
			lines = append(lines, gameLine(t, msgs[t.ID], uid))
		}
	}
	return reply{resp: render.Ephemeral(strings.Join(lines, "\n"))}, nil
}

// tableLink is a table's name, linked to its table message, m, if it has
// one.
func tableLink(t *cribbage.Table, m cribbage.TableMessage) string {
	if m.MessageID == "" {
		return fmt.Sprintf("table %d", t.ID)
	}
	return fmt.Sprintf("[table %d](https://discord.com/channels/%s/%s/%s)", t.ID, t.GuildID, t.ChannelID, m.MessageID)
}

// answerLine describes a table waiting on the user's answer, whose message
// is m: a challenge to them, or a rematch offer
// (cribbage.Table.AwaitsAnswer).
func answerLine(t *cribbage.Table, m cribbage.TableMessage) string {
	if t.Status == cribbage.StatusLobby {
		what := fmt.Sprintf("a game to %d", t.Options.Target)
		if t.Match != nil {
			what = fmt.Sprintf("a best-of-%d match to %d", t.Match.BestOf, t.Options.Target)
		}
		return fmt.Sprintf("• %s — **%s** challenges you to %s, since <t:%d:R>: **Accept** or **Decline** on its message",
			tableLink(t, m), render.NameOf(t, t.HostID), what, t.CreatedAt.Unix())
	}
	return fmt.Sprintf("• %s — **%s** offers a rematch, until <t:%d:R>: **Accept rematch** or **Decline** on its message",
		tableLink(t, m), render.NameOf(t, t.Offer.By), t.Offer.At.Add(cribbage.OfferLife).Unix())
}

// gameLine describes one of a player's tables, whose message is m.
func gameLine(t *cribbage.Table, m cribbage.TableMessage, uid string) string {
	var others []string
	for _, s := range t.Seats {
		if s.UserID != uid || s.Computer != "" {
			others = append(others, s.Name)
		}
	}
	line := fmt.Sprintf("• %s with %s — ", tableLink(t, m), strings.Join(others, ", "))
	if c := t.Challenge; c != nil && t.Status == cribbage.StatusLobby {
		// Nobody else is seated yet: the one it waits on is the person
		// challenged.
		return fmt.Sprintf("• %s — your challenge to **%s**, waiting for their answer since <t:%d:R>", tableLink(t, m), c.Name, t.CreatedAt.Unix())
	}
	if t.Status == cribbage.StatusLobby {
		return line + fmt.Sprintf("waiting for players since <t:%d:R>", t.CreatedAt.Unix())
	}
	seats, verb := render.WaitingFor(t)
	var names []string
	mine := false
	for _, s := range seats {
		names = append(names, render.SeatName(t, s))
		mine = mine || t.Seats[s].UserID == uid
	}
	if mine {
		return line + fmt.Sprintf("**your turn** to %s, since <t:%d:R>", verb, t.Since().Unix())
	}
	return line + fmt.Sprintf("waiting for %s to %s, since <t:%d:R>", strings.Join(names, ", "), verb, t.Since().Unix())
}

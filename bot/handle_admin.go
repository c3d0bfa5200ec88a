package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/place"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// /cribbage-admin: a server's admins cancel tables and keep the server's
// settings. Discord shows the command only to members with Manage Server
// unless the server allows others (Server Settings → Integrations), but
// that is a default the server may change, so the bot checks again here:
// cancelling takes Manage Server (or Administrator) or the server's
// cancel-role, and changing a setting takes Manage Server.

// checkOpen refuses a table that is no longer open, saying how it ended:
// cancelled (refusal.CancelledError), finished or closed (refusal.OverError).
func checkOpen(t *cribbage.Table) error {
	switch {
	case t.Status == cribbage.StatusCancelled:
		return &refusal.CancelledError{ID: t.ID, By: t.CancelledBy, Reason: t.CancelReason}
	case t.Status == cribbage.StatusFinished && t.State != nil:
		return &refusal.OverError{ID: t.ID, Finished: t}
	case !t.Status.Open():
		return &refusal.OverError{ID: t.ID}
	}
	return nil
}

// cmdCancel ends a table of this server, a lobby or a game, recorded as
// cancelled: no result, no winner, nothing in the records. The table
// message and its thread say who cancelled it and why, and its players
// are told.
func (b *Bot) cmdCancel(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	settings, err := b.store.GuildSettings(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	if !command.IsAdmin(ic) && !command.HasRole(ic, settings.CancelRole) {
		return reply{}, refusal.ErrMayNotCancel
	}
	opts := command.Options(ic)
	id := opts["table"].IntValue()
	reason := ""
	if o, ok := opts["reason"]; ok {
		// One line: it is shown inside other lines.
		reason = strings.Join(strings.Fields(o.StringValue()), " ")
	}
	uid, _ := command.User(ic)
	done, err := b.change(ctx, id, changeOf{ic: ic, place: place.InServer, decide: func(t *cribbage.Table, _ int) (*cribbage.Change, []engine.Event, error) {
		if err := t.Cancel(uid, reason); err != nil {
			return nil, nil, err
		}
		// The post is the channel's: the server's language.
		text := fmt.Sprintf("🚫 %s\n%s", render.CancelledLine(b.speakOrEnglish(ctx, t), t), render.CountsForNobody(b.speakOrEnglish(ctx, t)))
		people := toldOfCancel(t)
		if len(people) > 0 {
			text = render.Mentions(people) + " " + text
		}
		return &cribbage.Change{Table: t, Outbox: []cribbage.Outbound{render.Post(t, text, people)}}, nil, nil
	}})
	if err != nil {
		return reply{}, err
	}
	// A cancelled tournament game counts for nobody, and its round goes on
	// (moved advances the tournament).
	t := done.table
	b.logger(ic).Info("table cancelled", "table", t.ID, "by", uid)
	// The table is cancelled whatever the read of its link says: a failed
	// read leaves the answer without the link, not wrong.
	m, err := b.store.TableMessage(ctx, t.ID)
	if err != nil {
		b.logger(ic).Warn("could not read a cancelled table's message", "table", t.ID, "err", err)
	}
	l := command.Lang(ic)
	return reply{resp: render.Ephemeral(l.T("admin.cancelled", "ID", t.ID, "Link", render.MessageLink(t, m)))}, nil
}

// toldOfCancel are the people a cancelled table's post mentions: its
// players, and at a challenge still waiting for an answer the person
// challenged, whom the challenge pinged and who would otherwise not know
// it is gone.
func toldOfCancel(t *cribbage.Table) []string {
	people := t.People()
	if c := t.Challenge; c != nil && c.Outcome == "" && !slices.Contains(people, c.UserID) {
		people = append(people, c.UserID)
	}
	return people
}

// explainCancelled turns err, refused at table id, into the table's
// cancellation when the table is a cancelled one here: whatever a player's
// button or command tried, the answer is that the table was cancelled.
func (b *Bot) explainCancelled(ctx context.Context, ic *discordgo.Interaction, id int64, err error) error {
	if err == nil || id == 0 {
		return err
	}
	var c *refusal.CancelledError
	if errors.As(err, &c) {
		return err
	}
	t, lerr := b.store.Table(ctx, id)
	if lerr != nil || t.Status != cribbage.StatusCancelled || t.GuildID != ic.GuildID {
		return err
	}
	// From elsewhere a table reads as no table at all.
	if b.place.Check(ctx, ic, t) != nil {
		return err
	}
	return &refusal.CancelledError{ID: t.ID, By: t.CancelledBy, Reason: t.CancelReason}
}

// openTablesHold holds the person uid to the server's limit of open
// tables in the write that gives them a seat (a table of their own, a
// seat at another's, a rematch): checked before the write, two commands
// at the same instant would both find room for one more.
func openTablesHold(settings cribbage.GuildSettings, uid string) cribbage.Hold {
	if settings.MaxOpenTables <= 0 {
		return cribbage.Hold{}
	}
	return cribbage.Hold{MaxOpenTables: settings.MaxOpenTables, People: []string{uid}}
}

// tooMany gives a refusal at the server's limit its number, for the
// answer to name it; any other error is left as it is.
func tooMany(err error, settings cribbage.GuildSettings) error {
	if errors.Is(err, cribbage.ErrTooManyTables) {
		return &refusal.TooManyTablesError{Max: settings.MaxOpenTables}
	}
	return err
}

// checkOpenTables refuses a rematch offer from a person who sits at the
// most open tables the server allows, before any offer is made: an offer
// makes no table, so no write would hold it (openTablesHold holds the yes
// that makes one).
func (b *Bot) checkOpenTables(ctx context.Context, guildID, uid string, settings cribbage.GuildSettings) error {
	if settings.MaxOpenTables <= 0 {
		return nil
	}
	tables, err := b.store.PlayerTables(ctx, guildID, uid)
	if err != nil {
		return err
	}
	if len(tables) >= settings.MaxOpenTables {
		return &refusal.TooManyTablesError{Max: settings.MaxOpenTables}
	}
	return nil
}

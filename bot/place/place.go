// Package place answers where an interaction was made and which table it
// means. Discord shows a channel only to those allowed in it, so every
// table an interaction names (by the table option, a button's custom_id
// or a form's) is checked here by the bot itself: custom ids and options
// are whatever the client sends.
package place

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/refusal"
)

// Store is what finding a table reads.
type Store interface {
	Table(ctx context.Context, id int64) (*cribbage.Table, error)
	TableMessages(ctx context.Context, ids []int64) ([]cribbage.TableMessage, error)
	ThreadTable(ctx context.Context, threadID string) (*cribbage.Table, error)
	ChannelTables(ctx context.Context, channelID string) ([]*cribbage.Table, error)
	PlayerTables(ctx context.Context, guildID, userID string) ([]*cribbage.Table, error)
}

// Finder finds the tables an interaction may mean.
type Finder struct{ Store Store }

// Here reports whether a table belongs where the interaction was made: its
// server, and its channel or the thread of its story, threadID (its
// cribbage.TableMessage's, empty for none). Discord shows a channel only to
// those allowed in it, so every table an interaction names (by the table
// option, a button's custom_id or a form's) is checked here by the bot
// itself: custom ids and options are whatever the client sends.
//
// A table opened outside a server (guild "": a DM with the bot) is here
// in its own channel alone, and only outside a server: Discord gives
// each DM a channel of its own, so its id names the DM, and a DM has no
// threads.
func Here(t *cribbage.Table, threadID string, ic *discordgo.Interaction) bool {
	if t.GuildID != ic.GuildID || t.ChannelID == "" {
		return false
	}
	return t.ChannelID == ic.ChannelID || (t.GuildID != "" && threadID != "" && threadID == ic.ChannelID)
}

// Elsewhere reports whether an interaction was made in the table's server
// but not in its channel: only then does Here need the table's thread.
// Most are made in the table's channel, and read no thread.
func Elsewhere(t *cribbage.Table, ic *discordgo.Interaction) bool {
	return t.GuildID != "" && t.GuildID == ic.GuildID && t.ChannelID != ic.ChannelID
}

// Here keeps the tables that belong where the interaction was made
// (Here), reading the threads of those made elsewhere all at once.
func (f Finder) Here(ctx context.Context, ic *discordgo.Interaction, tables []*cribbage.Table) ([]*cribbage.Table, error) {
	var away []*cribbage.Table
	for _, t := range tables {
		if Elsewhere(t, ic) {
			away = append(away, t)
		}
	}
	msgs, err := f.Messages(ctx, away)
	if err != nil {
		return nil, err
	}
	var out []*cribbage.Table
	for _, t := range tables {
		if Here(t, msgs[t.ID].ThreadID, ic) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Messages reads the messages of tables in one read, by table id.
func (f Finder) Messages(ctx context.Context, tables []*cribbage.Table) (map[int64]cribbage.TableMessage, error) {
	out := map[int64]cribbage.TableMessage{}
	if len(tables) == 0 {
		return out, nil
	}
	ids := make([]int64, len(tables))
	for i, t := range tables {
		ids[i] = t.ID
	}
	msgs, err := f.Store.TableMessages(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		out[m.TableID] = m
	}
	return out, nil
}

// Check is Here for one table as an error: refusal.ErrNotHere, or the error
// reading its thread.
func (f Finder) Check(ctx context.Context, ic *discordgo.Interaction, t *cribbage.Table) error {
	kept, err := f.Here(ctx, ic, []*cribbage.Table{t})
	switch {
	case err != nil:
		return err
	case len(kept) == 0:
		return refusal.ErrNotHere
	}
	return nil
}

// Check is a change's place check: it refuses a change ic asks for at t,
// whose thread is threadID, anywhere it may not be made, and returns the
// seat ic's user holds at t (-1 for none).
type Check func(t *cribbage.Table, threadID string, ic *discordgo.Interaction) (seat int, err error)

// Is is the place check of most changes: the table is here (its
// thread as the change read it).
func Is(t *cribbage.Table, threadID string, ic *discordgo.Interaction) (int, error) {
	if !Here(t, threadID, ic) {
		return -1, refusal.ErrNotHere
	}
	return seat(t, ic), nil
}

// Seated is the place check of a seated person's move at a game: the
// table is here (Is), its game is being played, ic's user holds a seat at
// it, and, when view is set, that seat's view is still the one they
// clicked on (click.ViewVersion): a card laid from an old view is refused
// rather than played into a hand that has moved on.
func Seated(t *cribbage.Table, threadID string, ic *discordgo.Interaction, view string) (int, error) {
	seat, err := Is(t, threadID, ic)
	switch {
	case err != nil:
		return -1, err
	case t.Status != cribbage.StatusPlaying:
		return seat, cribbage.ErrNotPlaying
	case seat < 0:
		return seat, cribbage.ErrNotSeated
	case view != "" && click.SeatView(t.State, seat) != view:
		return seat, refusal.ErrStaleView
	}
	return seat, nil
}

// InServer is the place check of an admin's change: the table need only
// be in the server where the admin is one.
func InServer(t *cribbage.Table, _ string, ic *discordgo.Interaction) (int, error) {
	if t.GuildID != ic.GuildID {
		return -1, refusal.ErrNotInServer
	}
	return seat(t, ic), nil
}

// seat is the seat ic's user holds at t, -1 for none.
func seat(t *cribbage.Table, ic *discordgo.Interaction) int {
	uid, _ := command.User(ic)
	return t.SeatOf(uid)
}

// Thread returns the id of the table whose thread the interaction
// was made in, or 0 when it was made elsewhere.
func (f Finder) Thread(ctx context.Context, ic *discordgo.Interaction) (int64, error) {
	t, err := f.Store.ThreadTable(ctx, ic.ChannelID)
	switch {
	case errors.Is(err, cribbage.ErrNotFound):
		return 0, nil
	case err != nil:
		return 0, err
	case !Here(t, ic.ChannelID, ic):
		// Found by its thread, the channel, it is here if in this server.
		return 0, nil
	}
	return t.ID, nil
}

// Pick resolves which table a command means: the table option if
// given, else the one table in this channel that fits.
func (f Finder) Pick(ctx context.Context, ic *discordgo.Interaction, fits func(t *cribbage.Table, uid string) bool, anyone bool) (int64, error) {
	uid, _ := command.User(ic)
	if o, ok := command.Options(ic)["table"]; ok {
		t, err := f.Store.Table(ctx, o.IntValue())
		if err != nil {
			return 0, refusal.ErrNotHere
		}
		if err := f.Check(ctx, ic, t); err != nil {
			return 0, err
		}
		return t.ID, nil
	}
	// A command used in a table's thread means that table, whatever its
	// state, as its table option would: one over or cancelled is answered
	// as such (refusal.OverError, refusal.CancelledError), not as no table at all.
	if id, err := f.Thread(ctx, ic); id != 0 || err != nil {
		return id, err
	}
	var tables []*cribbage.Table
	var err error
	if anyone {
		tables, err = f.Store.ChannelTables(ctx, ic.ChannelID)
	} else {
		tables, err = f.Store.PlayerTables(ctx, ic.GuildID, uid)
	}
	if err == nil {
		tables, err = f.Here(ctx, ic, tables)
	}
	if err != nil {
		return 0, err
	}
	var ids []int64
	for _, t := range tables {
		if fits(t, uid) {
			ids = append(ids, t.ID)
		}
	}
	switch len(ids) {
	case 0:
		return 0, refusal.ErrNoTable
	case 1:
		return ids[0], nil
	}
	return 0, &refusal.WhichTableError{IDs: ids}
}

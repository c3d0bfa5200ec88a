package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/refusal"
)

// here reports whether a table belongs where the interaction was made: its
// server, and its channel or the thread of its story, threadID (its
// cribbage.TableMessage's, empty for none). Discord shows a channel only to
// those allowed in it, so every table an interaction names (by the table
// option, a button's custom_id or a form's) is checked here by the bot
// itself: custom ids and options are whatever the client sends.
func here(t *cribbage.Table, threadID string, ic *discordgo.Interaction) bool {
	if t.GuildID == "" || t.GuildID != ic.GuildID {
		return false
	}
	return t.ChannelID == ic.ChannelID || (threadID != "" && threadID == ic.ChannelID)
}

// elsewhere reports whether an interaction was made in the table's server
// but not in its channel: only then does here need the table's thread.
// Most are made in the table's channel, and read no thread.
func elsewhere(t *cribbage.Table, ic *discordgo.Interaction) bool {
	return t.GuildID != "" && t.GuildID == ic.GuildID && t.ChannelID != ic.ChannelID
}

// tablesHere keeps the tables that belong where the interaction was made
// (here), reading the threads of those made elsewhere all at once.
func (b *Bot) tablesHere(ctx context.Context, ic *discordgo.Interaction, tables []*cribbage.Table) ([]*cribbage.Table, error) {
	var away []*cribbage.Table
	for _, t := range tables {
		if elsewhere(t, ic) {
			away = append(away, t)
		}
	}
	msgs, err := b.tableMessages(ctx, away)
	if err != nil {
		return nil, err
	}
	var out []*cribbage.Table
	for _, t := range tables {
		if here(t, msgs[t.ID].ThreadID, ic) {
			out = append(out, t)
		}
	}
	return out, nil
}

// tableMessages reads the messages of tables in one read, by table id.
func (b *Bot) tableMessages(ctx context.Context, tables []*cribbage.Table) (map[int64]cribbage.TableMessage, error) {
	out := map[int64]cribbage.TableMessage{}
	if len(tables) == 0 {
		return out, nil
	}
	ids := make([]int64, len(tables))
	for i, t := range tables {
		ids[i] = t.ID
	}
	msgs, err := b.store.TableMessages(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		out[m.TableID] = m
	}
	return out, nil
}

// checkHere is here for one table as an error: refusal.ErrNotHere, or the error
// reading its thread.
func (b *Bot) checkHere(ctx context.Context, ic *discordgo.Interaction, t *cribbage.Table) error {
	kept, err := b.tablesHere(ctx, ic, []*cribbage.Table{t})
	switch {
	case err != nil:
		return err
	case len(kept) == 0:
		return refusal.ErrNotHere
	}
	return nil
}

// placeHere is the place check of most changes: the table is here (its
// thread as the change read it).
func placeHere(t *cribbage.Table, threadID string, ic *discordgo.Interaction) error {
	if !here(t, threadID, ic) {
		return refusal.ErrNotHere
	}
	return nil
}

// inServer is the place check of an admin's change: the table need only
// be in the server where the admin is one.
func inServer(t *cribbage.Table, _ string, ic *discordgo.Interaction) error {
	if t.GuildID != ic.GuildID {
		return refusal.ErrNotInServer
	}
	return nil
}

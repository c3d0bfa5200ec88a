package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/refusal"
)

// here reports whether a table belongs where the interaction was made: its
// server, and its channel or the thread of its story. Discord shows a
// channel only to those allowed in it, so every table an interaction names
// (by the table option, a button's custom_id or a form's) is checked here
// by the bot itself: custom ids and options are whatever the client sends.
func here(t *cribbage.Table, ic *discordgo.Interaction) bool {
	if t.GuildID == "" || t.GuildID != ic.GuildID {
		return false
	}
	return t.ChannelID == ic.ChannelID || (t.ThreadID != "" && t.ThreadID == ic.ChannelID)
}

// checkHere is here as an error, for the checks inside an update.
func checkHere(t *cribbage.Table, ic *discordgo.Interaction) error {
	if !here(t, ic) {
		return refusal.ErrNotHere
	}
	return nil
}

// inServer is the place check of an admin's change: the table need only
// be in the server where the admin is one.
func inServer(t *cribbage.Table, ic *discordgo.Interaction) error {
	if t.GuildID != ic.GuildID {
		return refusal.ErrNotInServer
	}
	return nil
}

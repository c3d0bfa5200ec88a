package command

import (
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

// Who made an interaction, and what they may do: read from what Discord
// sends with every interaction, never asked of Discord.

// User returns who made an interaction and the name to show for them.
func User(ic *discordgo.Interaction) (id, name string) {
	u := ic.User
	nick := ""
	if ic.Member != nil && ic.Member.User != nil {
		u, nick = ic.Member.User, ic.Member.Nick
	}
	if u == nil {
		return "", "someone"
	}
	switch {
	case nick != "":
		return u.ID, nick
	case u.GlobalName != "":
		return u.ID, u.GlobalName
	}
	return u.ID, u.Username
}

// IsAdmin reports whether the member may manage the server: Discord sends
// the member's permissions in the channel with every interaction.
func IsAdmin(ic *discordgo.Interaction) bool {
	return ic.Member != nil && ic.Member.Permissions&(discordgo.PermissionAdministrator|discordgo.PermissionManageGuild) != 0
}

// HasRole reports whether the member has role (never for "").
func HasRole(ic *discordgo.Interaction, role string) bool {
	return role != "" && ic.Member != nil && slices.Contains(ic.Member.Roles, role)
}

// DisplayName is a user's global name, or username.
func DisplayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// TokenOnly reports whether an interaction was made where only its token
// reaches: a group DM or a DM between users (context 2), or a server that
// did not install the app (no server among who authorized it: only a
// user's install of the app did). There the bot is not a member: a
// request with its own token is refused (403), it can open no thread,
// and nothing can be posted but through an interaction's token.
func TokenOnly(ic *discordgo.Interaction) bool {
	if ic.Context == discordgo.InteractionContextPrivateChannel {
		return true
	}
	// Discord sends who authorized every interaction; one without (a
	// payload from before user installs) came from the server's install.
	_, byServer := ic.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return ic.GuildID != "" && len(ic.AuthorizingIntegrationOwners) > 0 && !byServer
}

// The languages an interaction names, read here and nowhere else.
// Discord sends the user's client language, locale, with every
// interaction but a PING, and the server's, guild_locale, with one made
// in a server.

// Lang is the language of an answer only the interaction's user sees:
// their client's (English when the bot does not speak it).
func Lang(ic *discordgo.Interaction) lang.Lang {
	return lang.User(string(ic.Locale))
}

// Readers are the languages of a change to a table that ic asks for (nil
// for the bot's own changes): its table's channel reads the story
// (lang.Server of the server's setting and the locale the table keeps),
// and ic's user the answer (Lang).
func Readers(ic *discordgo.Interaction, setting, tableLocale string) (channel, user lang.Lang) {
	channel, user = lang.Server(setting, tableLocale), lang.English
	if ic != nil {
		user = Lang(ic)
	}
	return channel, user
}

// GuildLocale is the server's locale as Discord sends it, or "" outside
// a server. What the server's channels see speaks its admins' setting
// first (lang.Server).
func GuildLocale(ic *discordgo.Interaction) string {
	if ic.GuildLocale == nil {
		return ""
	}
	return string(*ic.GuildLocale)
}

// PlaceLocale is the locale of the place an interaction was made, which a
// table opened there keeps (cribbage.Table.Locale): the server's, or,
// outside a server (a DM with the bot, a group DM), the locale of the
// user who opened it.
func PlaceLocale(ic *discordgo.Interaction) string {
	if ic.GuildID == "" {
		return string(ic.Locale)
	}
	return GuildLocale(ic)
}

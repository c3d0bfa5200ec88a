package discordtest

import (
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// Where the bot is, and where only a user's install of it reaches. An app
// installed to a user's account (integration type 1) can be used in any
// DM, group DM or server, but the bot is not there: Discord delivers the
// interaction, and the app answers through its token alone. So the fake
// holds, as Discord does:
//
//   - an interaction in a group DM or a DM between users (context 2), or
//     in a server the bot is not a member of (GuildWithoutBot), is
//     authorized by the user's install alone: authorizing_integration_owners
//     is {"1": the installing user}, and app_permissions are only what an
//     app's reply can use there (no View Channel, Send Messages or threads);
//   - the bot token cannot reach such a channel: every bot-token request
//     on /channels/{id}/… there is a 403 50001 Missing Access (a violation),
//     so no post, edit, read or thread;
//   - such an interaction takes at most 5 followups (Discord's change log
//     of 27 June 2024, "User-Installed Apps General Availability": "only
//     affects the Create Followup Message endpoint, and apps installed to
//     the server are unaffected"); the sixth is a 400 40094;
//   - in a server that turned off Use External Apps (ForbidExternalApps),
//     the member lacks that permission and every reply of a user-installed
//     app not installed there is ephemeral, whatever its flags (same
//     change log: "your app's responses will be ephemeral for the end
//     user");
//   - a command reaches a user's install only if it was registered for it
//     (integration_types with 1) and for the context (contexts), globally.

// ExternalAppPermissions are the app_permissions Discord sends with an
// interaction only a user's install authorized: what its replies may
// carry, and nothing of a member's (no View Channel, Send Messages,
// threads).
const ExternalAppPermissions int64 = discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles |
	discordgo.PermissionMentionEveryone | discordgo.PermissionUseExternalEmojis

// BotPermissions are the app_permissions of the bot where it is: a
// server's channel it was installed to with the permissions the README
// asks for (Manage Webhooks among them), or its own DM; DenyBotPermission
// takes some away in a channel.
const BotPermissions int64 = MemberPermissions | discordgo.PermissionManageMessages | discordgo.PermissionManageThreads |
	discordgo.PermissionManageWebhooks

// GuildWithoutBot makes guildID a server the bot is not a member of: only
// a user's install of the app reaches it.
func (s *Server) GuildWithoutBot(guildID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.absent[guildID] = true
}

// ForbidExternalApps turns off Use External Apps for @everyone in a
// server, as its admins may.
func (s *Server) ForbidExternalApps(guildID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noExternal[guildID] = true
}

// UserInstalled marks i as used through installer's install of the app to
// their account, as Discord sends it from a DM with the bot, where the
// user chose the user-installed command (in a group DM or a server
// without the bot, Prepare sets this itself).
func UserInstalled(i *discordgo.Interaction, installer string) *discordgo.Interaction {
	i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: installer}
	return i
}

// InGroupDM marks i, built with no guild, as used in a group DM (or a DM
// between users): context 2.
func InGroupDM(i *discordgo.Interaction) *discordgo.Interaction {
	i.Context = discordgo.InteractionContextPrivateChannel
	return i
}

// userOnly reports whether only a user's install authorized i: the app is
// not installed where it was used.
func userOnly(i *discordgo.Interaction) bool {
	_, guild := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return !guild
}

// invoker is the user who made i.
func invoker(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	return i.User
}

// place fills in where i was made, as Discord would say it (describe),
// and whether the bot token can reach its channel from now on. The caller
// holds s.mu.
func (s *Server) place(i *discordgo.Interaction) {
	switch {
	case s.describe(i):
		s.hidden[i.ChannelID] = true
	case i.Context == discordgo.InteractionContextBotDM:
		s.channels[i.ChannelID] = true
		s.dms[i.ChannelID] = true
	default:
		s.channels[i.ChannelID] = true
		if i.GuildID != "" {
			if s.guildOf == nil {
				s.guildOf = map[string]string{}
			}
			s.guildOf[i.ChannelID] = i.GuildID
		}
	}
}

// isDM reports whether a channel is a DM with the bot, which has no
// threads.
func (s *Server) isDM(channelID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dms[channelID]
}

// noThreadHere is Discord's answer to a thread opened where there can be
// none, as in a DM.
func noThreadHere() *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: 50024, Message: "Cannot execute action on this channel type"}
}

// describe fills in, where the test left them unset, the context, who
// authorized i, and the app's and the member's permissions there, and
// reports whether only a user's install reaches that place. It may run
// more than once on the same interaction. The caller holds s.mu.
func (s *Server) describe(i *discordgo.Interaction) (outside bool) {
	if i.GuildID == "" && i.Context == discordgo.InteractionContextGuild {
		i.Context = discordgo.InteractionContextBotDM
	}
	outside = i.Context == discordgo.InteractionContextPrivateChannel || i.GuildID != "" && s.absent[i.GuildID]
	if i.AuthorizingIntegrationOwners == nil {
		owner := i.GuildID
		if owner == "" {
			owner = "0"
		}
		i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationGuildInstall: owner}
	}
	if outside {
		// Only the user's install reaches there, whatever the test said.
		u := invoker(i)
		installer := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall]
		if installer == "" && u != nil {
			installer = u.ID
		}
		i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: installer}
	}
	if i.AppPermissions == 0 {
		i.AppPermissions = BotPermissions &^ s.denied[i.ChannelID]
		if outside {
			i.AppPermissions = ExternalAppPermissions
		}
	}
	if i.Member != nil && i.GuildID != "" {
		i.Member.Permissions |= discordgo.PermissionUseExternalApps
		if s.noExternal[i.GuildID] {
			i.Member.Permissions &^= discordgo.PermissionUseExternalApps
		}
	}
	return outside
}

// forcedEphemeral reports whether every reply to i is ephemeral: a
// user-installed app, not installed to the server, where the member may
// not use external apps. The caller holds s.mu.
func (s *Server) forcedEphemeral(i *discordgo.Interaction) bool {
	return userOnly(i) && i.GuildID != "" && s.noExternal[i.GuildID]
}

// unreachable reports whether the bot token cannot reach a channel: one
// only a user's install was used in.
func (s *Server) unreachable(channelID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hidden[channelID] && !s.channels[channelID]
}

// missingAccess is Discord's answer to a bot-token request into a channel
// the bot cannot see.
func missingAccess() *apiError {
	return &apiError{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access"}
}

// maxUserFollowups is how many followups an interaction only a user's
// install authorized may create.
const maxUserFollowups = 5

// followupAllowed reports whether the interaction with token may create
// another followup, and whether its replies are forced ephemeral.
func (s *Server) followupAllowed(token string) (ok, ephemeral bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.byToken[token]
	if p == nil {
		return true, false
	}
	return !userOnly(p.interaction) || p.followups < maxUserFollowups, s.forcedEphemeral(p.interaction)
}

// countFollowup counts a followup the interaction with token created.
func (s *Server) countFollowup(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.byToken[token]; p != nil {
		p.followups++
	}
}

// countOriginalEdit counts an edit of message id through an interaction's
// token, when id is the interaction's response (Settle).
func (s *Server) countOriginalEdit(token, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.byToken[token]; p != nil && p.original == id {
		p.edited++
	}
}

// Followups returns the messages created through an interaction's token
// other than its response, in order: its followups.
func (s *Server) Followups(token string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var original string
	if p := s.byToken[token]; p != nil {
		original = p.original
	}
	var out []Message
	for _, id := range s.order {
		if m := s.messages[id]; m.Token == token && m.ID != original {
			m.decode()
			out = append(out, *m)
		}
	}
	return out
}

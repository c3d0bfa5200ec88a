package discordtest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// Who may use a command where, as Discord decides it before the bot sees
// anything: Discord does not deliver a command to a member it does not
// let use it, so neither does the fake. What decides is, in order:
//
//   - the member must have Use Application Commands in the channel;
//   - the server's own settings for the command (Server Settings →
//     Integrations, set here with SetCommandPermissions): a channel's own
//     override, else the one for all channels (id guild_id - 1), may
//     forbid the channel; a user's own override, else any of their roles'
//     (an allow on one role wins), else @everyone's (id guild_id), decides
//     for the member;
//   - with none of those, the command's default_member_permissions: the
//     member needs every permission it names ("0": none may, but admins),
//     and Administrator passes it.
//
// Discord also sends the member's permissions in the channel with every
// interaction (member.permissions), which the fake fills in.

// MemberPermissions are what a member of the fake's servers may do in a
// channel unless a test grants more (User.Permissions): Discord's usual
// @everyone permissions.
const MemberPermissions int64 = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads | discordgo.PermissionCreatePublicThreads | discordgo.PermissionEmbedLinks |
	discordgo.PermissionAttachFiles | discordgo.PermissionAddReactions | discordgo.PermissionReadMessageHistory |
	discordgo.PermissionUseApplicationCommands

// ErrNotPermitted means Discord would not let the member use the command
// there, so it never reaches the bot.
var ErrNotPermitted = errors.New("discordtest: Discord does not let this member use the command here")

// SetCommandPermissions sets a server's overrides for one of the bot's
// commands, by name, as an admin does in Server Settings → Integrations:
// they replace those set before (none, to go back to the defaults).
func (s *Server) SetCommandPermissions(guildID, command string, perms ...*discordgo.ApplicationCommandPermissions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.overrides == nil {
		s.overrides = map[[2]string][]*discordgo.ApplicationCommandPermissions{}
	}
	s.overrides[[2]string{guildID, command}] = perms
}

// permitted reports whether Discord would deliver i, a command (or its
// autocomplete), to the bot: where it was used first (offered), then who
// may use it in a server.
func (s *Server) permitted(i *discordgo.Interaction) error {
	if i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionApplicationCommandAutocomplete {
		return nil
	}
	s.mu.Lock()
	s.describe(i)
	s.mu.Unlock()
	if err := s.offered(i); err != nil || i.GuildID == "" || i.Member == nil || userOnly(i) {
		// A server's own settings do not reach a user's install of the
		// app (Use External Apps decides only whether replies are public).
		return err
	}
	name := i.ApplicationCommandData().Name
	s.mu.Lock()
	cmd := s.registered(i.GuildID, name)
	overrides := s.overrides[[2]string{i.GuildID, name}]
	s.mu.Unlock()
	if cmd == nil {
		return nil // not the fake's to judge: the bot refuses commands it lacks
	}
	refuse := fmt.Errorf("%w: /%s for %s in %s", ErrNotPermitted, name, i.Member.User.ID, i.ChannelID)
	perms := i.Member.Permissions
	admin := perms&discordgo.PermissionAdministrator != 0
	if !admin && perms&discordgo.PermissionUseApplicationCommands == 0 {
		return refuse
	}
	allChannels, _ := discordgo.GuildAllChannelsID(i.GuildID)
	if allowed, set := decide(overrides, discordgo.ApplicationCommandPermissionTypeChannel, []string{i.ChannelID}, []string{allChannels}); set && !allowed {
		return refuse
	}
	if allowed, set := decide(overrides, discordgo.ApplicationCommandPermissionTypeUser, []string{i.Member.User.ID}, nil); set {
		return refusedUnless(allowed, refuse)
	}
	if allowed, set := decide(overrides, discordgo.ApplicationCommandPermissionTypeRole, i.Member.Roles, []string{i.GuildID}); set {
		return refusedUnless(allowed, refuse)
	}
	if cmd.DefaultMemberPermissions == nil || admin {
		return nil
	}
	need := *cmd.DefaultMemberPermissions
	return refusedUnless(need != 0 && perms&need == need, refuse)
}

// offered reports whether Discord offers the command where i was used. A
// command registered to a server exists there alone: never in a DM. One
// registered globally is offered in the contexts it names (Discord's
// default, none named, is a server and the DM with the bot). A command
// the bot never registered is not the fake's to judge: the bot refuses
// it.
func (s *Server) offered(i *discordgo.Interaction) error {
	name := i.ApplicationCommandData().Name
	s.mu.Lock()
	global := s.registered("", name)
	anywhere := false
	for g, cmds := range s.commands {
		for _, c := range cmds {
			anywhere = anywhere || g != "" && c.Name == name
		}
	}
	s.mu.Unlock()
	where := discordgo.InteractionContextBotDM
	if i.GuildID != "" {
		where = discordgo.InteractionContextGuild
	} else if i.Context == discordgo.InteractionContextPrivateChannel {
		where = i.Context
	}
	refuse := fmt.Errorf("%w: /%s is not offered in context %d", ErrNotPermitted, name, where)
	if userOnly(i) {
		// A user's install reaches global commands registered for it
		// alone: integration_types naming 1 (stricter than Discord's
		// default, the app's own settings: the bot always says).
		if global == nil || global.IntegrationTypes == nil ||
			!slices.Contains(*global.IntegrationTypes, discordgo.ApplicationIntegrationUserInstall) {
			return fmt.Errorf("%w: /%s is not registered for a user's install", ErrNotPermitted, name)
		}
	}
	switch {
	case global == nil && i.GuildID == "" && anywhere:
		return refuse // a server's command, used in a DM
	case global == nil || i.GuildID != "" && s.registeredIn(i.GuildID, name):
		return nil // unknown, or the server's own, where contexts do not apply
	case global.Contexts == nil:
		return refusedUnless(where != discordgo.InteractionContextPrivateChannel, refuse)
	}
	return refusedUnless(slices.Contains(*global.Contexts, where), refuse)
}

// registeredIn reports whether a server has a command of its own by that
// name.
func (s *Server) registeredIn(guildID, name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.commands[guildID], func(c *discordgo.ApplicationCommand) bool { return c.Name == name })
}

// decide reads the overrides of one type: those for ids first (an allow
// on any of them wins), else those for fallback. set is false when none
// applies.
func decide(overrides []*discordgo.ApplicationCommandPermissions, typ discordgo.ApplicationCommandPermissionType, ids, fallback []string) (allowed, set bool) {
	for _, targets := range [][]string{ids, fallback} {
		for _, o := range overrides {
			if o.Type == typ && slices.Contains(targets, o.ID) {
				set = true
				allowed = allowed || o.Permission
			}
		}
		if set {
			return allowed, true
		}
	}
	return false, false
}

func refusedUnless(ok bool, refuse error) error {
	if ok {
		return nil
	}
	return refuse
}

// registered finds a command by name among a guild's, then the global
// ones. The caller holds s.mu.
func (s *Server) registered(guildID, name string) *discordgo.ApplicationCommand {
	for _, g := range []string{guildID, ""} {
		for _, c := range s.commands[g] {
			if c.Name == name {
				return c
			}
		}
	}
	return nil
}

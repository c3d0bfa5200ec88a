package discordtest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestCommandPermissions holds the fake to Discord's rules for who may
// use a command where: the defaults a command is registered with, and a
// server's own overrides.
func TestCommandPermissions(t *testing.T) {
	const guild, games, lounge = "400000000000000001", "400000000000000002", "400000000000000003"
	manage, none := int64(discordgo.PermissionManageGuild), int64(0)
	s := New()
	defer s.Close()
	s.commands[guild] = []*discordgo.ApplicationCommand{
		{Name: "play"},
		{Name: "admin", DefaultMemberPermissions: &manage},
		{Name: "owner", DefaultMemberPermissions: &none},
	}
	member := User{ID: "300000000000000001", Name: "Member", Roles: []string{"mods"}}
	manager := User{ID: "300000000000000002", Name: "Manager", Permissions: discordgo.PermissionManageGuild}
	admin := User{ID: "300000000000000003", Name: "Admin", Permissions: discordgo.PermissionAdministrator}
	muted := User{ID: "300000000000000004", Name: "Muted"}
	allChannels, _ := discordgo.GuildAllChannelsID(guild)
	perm := func(id string, typ discordgo.ApplicationCommandPermissionType, ok bool) *discordgo.ApplicationCommandPermissions {
		return &discordgo.ApplicationCommandPermissions{ID: id, Type: typ, Permission: ok}
	}
	try := func(name, command, channel string, u User, want bool) {
		t.Helper()
		i := CommandOf(command, guild, channel, u, "sub")
		if u.ID == muted.ID {
			i.Member.Permissions &^= discordgo.PermissionUseApplicationCommands
		}
		err := s.permitted(i)
		if err != nil && !errors.Is(err, ErrNotPermitted) || (err == nil) != want {
			t.Errorf("%s: %v, want delivered %v", name, err, want)
		}
	}
	try("anyone plays", "play", games, member, true)
	try("without Use Application Commands", "play", games, muted, false)
	try("a member at an admin's command", "admin", games, member, false)
	try("Manage Server at an admin's command", "admin", games, manager, true)
	try("Administrator passes any default", "owner", games, admin, true)
	try("\"0\" is nobody else", "owner", games, manager, false)

	// The server restricts play to one channel: denied in all channels,
	// allowed in the games channel.
	s.SetCommandPermissions(guild, "play", perm(allChannels, discordgo.ApplicationCommandPermissionTypeChannel, false),
		perm(games, discordgo.ApplicationCommandPermissionTypeChannel, true))
	try("play in the games channel", "play", games, member, true)
	try("play elsewhere", "play", lounge, member, false)
	try("an admin elsewhere too", "play", lounge, admin, false)

	// The server lets a role use the admin's command, but not one of its
	// members.
	s.SetCommandPermissions(guild, "admin", perm("mods", discordgo.ApplicationCommandPermissionTypeRole, true))
	try("a role allowed", "admin", lounge, member, true)
	s.SetCommandPermissions(guild, "admin", perm("mods", discordgo.ApplicationCommandPermissionTypeRole, true),
		perm(member.ID, discordgo.ApplicationCommandPermissionTypeUser, false))
	try("the user's own override over the role's", "admin", lounge, member, false)
	s.SetCommandPermissions(guild, "admin", perm(guild, discordgo.ApplicationCommandPermissionTypeRole, false))
	try("@everyone denied, whatever the default", "admin", lounge, manager, false)
	s.SetCommandPermissions(guild, "admin")
	try("overrides cleared", "admin", lounge, manager, true)
}

// TestCommandContexts holds the fake to where Discord offers a command: a
// server's own commands in that server alone, never in a DM; a global
// one where its contexts say (a server and the bot's DM when unsaid).
// An interaction in a DM comes as Discord sends one: no guild_id, no
// member, the user, context 1, a DM channel, authorized by the bot's
// install ("0").
func TestCommandContexts(t *testing.T) {
	const guild, channel, dm = "400000000000000001", "400000000000000002", "400000000000000099"
	s := New()
	defer s.Close()
	serverAndDM := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	serverOnly := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	s.commands[guild] = []*discordgo.ApplicationCommand{{Name: "mine"}}
	s.commands[""] = []*discordgo.ApplicationCommand{{Name: "both", Contexts: serverAndDM}, {Name: "server", Contexts: serverOnly}, {Name: "unsaid"}}
	u := User{ID: "300000000000000001", Name: "Member"}
	for _, tt := range []struct {
		command, guild string
		want           bool
	}{
		{"mine", guild, true}, {"mine", "", false},
		{"both", guild, true}, {"both", "", true},
		{"server", guild, true}, {"server", "", false},
		{"unsaid", guild, true}, {"unsaid", "", true},
		{"unknown", "", true}, // the bot's to refuse
	} {
		ch := channel
		if tt.guild == "" {
			ch = dm
		}
		i := s.Prepare(CommandOf(tt.command, tt.guild, ch, u, "sub"))
		if err := s.permitted(i); err != nil && !errors.Is(err, ErrNotPermitted) || (err == nil) != tt.want {
			t.Errorf("/%s in guild %q: %v, want delivered %v", tt.command, tt.guild, err, tt.want)
		}
	}
	i := s.Prepare(CommandOf("both", "", dm, u, "sub"))
	raw, err := json.Marshal(wire(i))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(raw, &got)
	channelOf, _ := got["channel"].(map[string]any)
	owners, _ := got["authorizing_integration_owners"].(map[string]any)
	user, _ := got["user"].(map[string]any)
	_, hasGuild := got["guild_id"]
	_, hasMember := got["member"]
	if hasGuild || hasMember || user["id"] != u.ID || got["context"] != 1.0 ||
		channelOf["type"] != 1.0 || channelOf["id"] != dm || owners["0"] != "0" {
		t.Errorf("a DM interaction as sent: %s", raw)
	}
	i = s.Prepare(CommandOf("both", guild, channel, u, "sub"))
	raw, _ = json.Marshal(wire(i))
	got = nil
	json.Unmarshal(raw, &got)
	channelOf, _ = got["channel"].(map[string]any)
	owners, _ = got["authorizing_integration_owners"].(map[string]any)
	if _, hasUser := got["user"]; hasUser || got["guild_id"] != guild || got["member"] == nil || got["context"] != 0.0 || channelOf["type"] != 0.0 || owners["0"] != guild {
		t.Errorf("a server's interaction as sent: %s", raw)
	}
}

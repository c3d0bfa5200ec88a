package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

const (
	installGuild = "400000000000000011"
	installChan  = "400000000000000012"
	groupDM      = "400000000000000013"
	botDM        = "400000000000000014"
)

var installer = User{ID: "300000000000000001", Name: "Ann"}

// everywhere registers, globally, one command for both installs in every
// context, one for servers' installs alone, and one for both but not in
// group DMs.
func everywhere(s *Server) {
	both := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	all := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	noGroup := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	s.mu.Lock()
	s.commands[""] = []*discordgo.ApplicationCommand{
		{Name: "anywhere", IntegrationTypes: both, Contexts: all},
		{Name: "servers", Contexts: all},
		{Name: "nogroup", IntegrationTypes: both, Contexts: noGroup},
	}
	s.mu.Unlock()
}

// asSent is i as Discord sends it, decoded.
func asSent(t *testing.T, i *discordgo.Interaction) map[string]any {
	t.Helper()
	raw, err := json.Marshal(wire(i))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(raw, &got)
	return got
}

// answer answers i with body through its callback, in time.
func answer(t *testing.T, s *Server, i *discordgo.Interaction, body string) int {
	t.Helper()
	s.mu.Lock()
	s.interactions[i.ID].sent = time.Now()
	s.mu.Unlock()
	status, _, _ := do(t, s, http.MethodPost, "/interactions/"+i.ID+"/"+i.Token+"/callback", "", "application/json", []byte(body))
	return status
}

// TestUserInstalledInteractionsAsSent holds the fake to how Discord sends
// an interaction only a user's install reaches: in a group DM, the user
// and no member, context 2, a group DM channel; in a server without the
// bot, the member, context 0; both authorized by the installing user
// ("1") with the permissions of an external app; and in the bot's DM,
// reached by the bot's own install.
func TestUserInstalledInteractionsAsSent(t *testing.T) {
	s := New()
	defer s.Close()
	everywhere(s)
	s.GuildWithoutBot(installGuild)

	got := asSent(t, s.Prepare(InGroupDM(CommandOf("anywhere", "", groupDM, installer, "start"))))
	channel, _ := got["channel"].(map[string]any)
	owners, _ := got["authorizing_integration_owners"].(map[string]any)
	user, _ := got["user"].(map[string]any)
	_, hasGuild := got["guild_id"]
	_, hasMember := got["member"]
	if hasGuild || hasMember || user["id"] != installer.ID || got["context"] != 2.0 || channel["type"] != 3.0 ||
		len(owners) != 1 || owners["1"] != installer.ID || got["app_permissions"] != fmt.Sprint(ExternalAppPermissions) {
		t.Errorf("a group DM's interaction as sent: %v", got)
	}

	got = asSent(t, s.Prepare(CommandOf("anywhere", installGuild, installChan, installer, "start")))
	owners, _ = got["authorizing_integration_owners"].(map[string]any)
	member, _ := got["member"].(map[string]any)
	perms, _ := member["permissions"].(string)
	if got["guild_id"] != installGuild || member == nil || got["context"] != 0.0 || len(owners) != 1 || owners["1"] != installer.ID ||
		got["app_permissions"] != fmt.Sprint(ExternalAppPermissions) || perms != fmt.Sprint(MemberPermissions|discordgo.PermissionUseExternalApps) {
		t.Errorf("a server without the bot, as sent: %v", got)
	}

	got = asSent(t, s.Prepare(CommandOf("anywhere", "", botDM, installer, "start")))
	owners, _ = got["authorizing_integration_owners"].(map[string]any)
	if got["context"] != 1.0 || owners["0"] != "0" || got["app_permissions"] != fmt.Sprint(BotPermissions) {
		t.Errorf("the bot's DM, as sent: %v", got)
	}
}

// TestUserInstallIsOfferedAsRegistered holds the fake to which commands a
// user's install reaches: global ones registered for it
// (integration_types with 1), in the contexts they name.
func TestUserInstallIsOfferedAsRegistered(t *testing.T) {
	s := New()
	defer s.Close()
	everywhere(s)
	s.GuildWithoutBot(installGuild)
	s.mu.Lock()
	s.commands["400000000000000099"] = []*discordgo.ApplicationCommand{{Name: "mine"}}
	s.mu.Unlock()
	for _, tt := range []struct {
		name string
		i    *discordgo.Interaction
		want bool
	}{
		{"for both, in a group DM", InGroupDM(CommandOf("anywhere", "", groupDM, installer, "start")), true},
		{"for both, in a server without the bot", CommandOf("anywhere", installGuild, installChan, installer, "start"), true},
		{"for servers' installs, in a group DM", InGroupDM(CommandOf("servers", "", groupDM, installer, "start")), false},
		{"for servers' installs, in a server without the bot", CommandOf("servers", installGuild, installChan, installer, "start"), false},
		{"for both but not group DMs, in one", InGroupDM(CommandOf("nogroup", "", groupDM, installer, "start")), false},
		{"a server's own command, in a server without the bot", CommandOf("mine", installGuild, installChan, installer, "start"), false},
		{"an unknown command, through a user's install", InGroupDM(CommandOf("unknown", "", groupDM, installer, "start")), false},
		{"for servers' installs, in the bot's DM", CommandOf("servers", "", botDM, installer, "start"), true},
		{"for servers' installs, chosen as the user's install in the bot's DM", UserInstalled(CommandOf("servers", "", botDM, installer, "start"), installer.ID), false},
	} {
		err := s.permitted(tt.i)
		if err != nil && !errors.Is(err, ErrNotPermitted) || (err == nil) != tt.want {
			t.Errorf("%s: %v, want delivered %v", tt.name, err, tt.want)
		}
	}
}

// TestBotTokenCannotReachWhereOnlyAUserInstalled holds the fake to
// Discord's 403 for the bot token in a channel the bot is not in: a group
// DM, a server without the bot. Its token works there, and the bot token
// in its own DM.
func TestBotTokenCannotReachWhereOnlyAUserInstalled(t *testing.T) {
	s := New()
	defer s.Close()
	everywhere(s)
	s.GuildWithoutBot(installGuild)
	for _, i := range []*discordgo.Interaction{
		InGroupDM(CommandOf("anywhere", "", groupDM, installer, "start")),
		CommandOf("anywhere", installGuild, installChan, installer, "start"),
	} {
		i = s.Prepare(i)
		if status := answer(t, s, i, `{"type":4,"data":{"content":"table"}}`); status != 204 {
			t.Fatalf("the answer in %s: %d", i.ChannelID, status)
		}
		m, _, ok := s.Original(i.Token)
		if !ok {
			t.Fatalf("no message for the answer in %s", i.ChannelID)
		}
		before := len(s.Violations())
		for _, req := range []struct{ method, path, body string }{
			{http.MethodPost, "/channels/" + i.ChannelID + "/messages", `{"content":"story"}`},
			{http.MethodPatch, "/channels/" + i.ChannelID + "/messages/" + m.ID, `{"content":"edited"}`},
			{http.MethodGet, "/channels/" + i.ChannelID + "/messages/" + m.ID, ``},
			{http.MethodPost, "/channels/" + i.ChannelID + "/messages/" + m.ID + "/threads", `{"name":"story"}`},
		} {
			status, out, _ := do(t, s, req.method, req.path, botAuth, "application/json", []byte(req.body))
			if status != 403 || out["code"] != 50001.0 {
				t.Errorf("%s %s with the bot token: %d %v, want 403 50001", req.method, req.path, status, out)
			}
		}
		if n := len(s.Violations()) - before; n != 4 {
			t.Errorf("%d violations recorded in %s, want 4", n, i.ChannelID)
		}
		status, _, _ := do(t, s, http.MethodPatch, "/webhooks/"+s.AppID+"/"+i.Token+"/messages/@original", "", "application/json", []byte(`{"content":"edited"}`))
		if status != 200 {
			t.Errorf("an edit through the token in %s: %d", i.ChannelID, status)
		}
	}
	dm := s.Prepare(CommandOf("anywhere", "", botDM, installer, "start"))
	status, out, _ := postJSON(t, s, "/channels/"+dm.ChannelID+"/messages", `{"content":"story"}`)
	if status != 200 {
		t.Errorf("a post in the bot's DM with the bot token: %d", status)
	}
	// A DM has no threads.
	id, _ := out["id"].(string)
	if status, out, _ := postJSON(t, s, "/channels/"+dm.ChannelID+"/messages/"+id+"/threads", `{"name":"story"}`); status != 400 || out["code"] != 50024.0 {
		t.Errorf("a thread in the bot's DM: %d %v, want 400 50024", status, out)
	}
}

// TestFollowupCapOfAUserInstall holds the fake to Discord's five
// followups for an interaction only a user's install authorized, and none
// for the bot's own install.
func TestFollowupCapOfAUserInstall(t *testing.T) {
	s := New()
	defer s.Close()
	everywhere(s)
	// Spaced out, so the webhook's rate limit (5 in 5 s) is not what stops
	// the sixth.
	at := time.Now()
	s.limits.clock = func() time.Time { return at }
	followups := func(i *discordgo.Interaction) []int {
		var out []int
		for n := range 6 {
			at = at.Add(2 * time.Second)
			status, _, _ := do(t, s, http.MethodPost, "/webhooks/"+s.AppID+"/"+i.Token, "", "application/json",
				[]byte(fmt.Sprintf(`{"content":"hand %d","flags":64}`, n)))
			out = append(out, status)
		}
		return out
	}
	user := s.Prepare(InGroupDM(CommandOf("anywhere", "", groupDM, installer, "start")))
	answer(t, s, user, `{"type":4,"data":{"content":"table"}}`)
	if got := followups(user); fmt.Sprint(got) != "[200 200 200 200 200 400]" {
		t.Errorf("followups of a user's install: %v, want five then 400", got)
	}
	v := s.Violations()
	if len(v) != 1 || v[0].Code != 40094 {
		t.Errorf("violations: %v, want the sixth followup's 40094", v)
	}
	bot := s.Prepare(CommandOf("anywhere", "", botDM, installer, "start"))
	answer(t, s, bot, `{"type":4,"data":{"content":"table"}}`)
	if got := followups(bot); fmt.Sprint(got) != "[200 200 200 200 200 200]" {
		t.Errorf("followups of the bot's install: %v, want six", got)
	}
}

// TestRepliesForcedEphemeralWithoutExternalApps holds the fake to
// Discord's rule for a server that turned off Use External Apps: a
// user-installed app's replies there are ephemeral, whatever their
// flags, and the member lacks the permission.
func TestRepliesForcedEphemeralWithoutExternalApps(t *testing.T) {
	s := New()
	defer s.Close()
	everywhere(s)
	s.GuildWithoutBot(installGuild)
	s.ForbidExternalApps(installGuild)
	i := s.Prepare(CommandOf("anywhere", installGuild, installChan, installer, "start"))
	if i.Member.Permissions&discordgo.PermissionUseExternalApps != 0 {
		t.Errorf("member permissions %d carry Use External Apps", i.Member.Permissions)
	}
	if status := answer(t, s, i, `{"type":4,"data":{"content":"table"}}`); status != 204 {
		t.Fatalf("answer: %d", status)
	}
	if m, _, ok := s.Original(i.Token); !ok || !m.Ephemeral {
		t.Errorf("the reply: %+v, want ephemeral", m)
	}
	status, out, _ := do(t, s, http.MethodPost, "/webhooks/"+s.AppID+"/"+i.Token, "", "application/json", []byte(`{"content":"more"}`))
	id, _ := out["id"].(string)
	if m, ok := s.Message(id); status != 200 || !ok || !m.Ephemeral {
		t.Errorf("a followup: %d %+v, want ephemeral", status, m)
	}
	if got := s.ChannelMessages(installChan); len(got) != 0 {
		t.Errorf("public messages in the channel: %d", len(got))
	}
}

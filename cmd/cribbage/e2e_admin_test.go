package main

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// A server's club, as its admins run it: cancelling a table, the server's
// own settings, and who may use which command where — Discord's settings
// and the bot's own check.

const (
	gamesChannel = "400000000000000012"
	modsRole     = "500000000000000003"
)

// mo is in the role the server trusts to cancel tables, without Manage
// Server.
var mo = discordtest.User{ID: "300000000000000007", Name: "Mo", Roles: []string{modsRole}}

// interact sends an interaction as Discord would, returning its refusal
// (ErrNotPermitted) instead of failing the test.
func (h *harness) interact(i *discordgo.Interaction) (discordtest.Answer, error) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return h.fake.Interact(ctx, i)
}

// TestAnAdminCancelsAGame: Ada cancels a game in progress. The table
// message, the players' open hand views and the thread say who and why;
// every button at the table answers so; and the game is no result: no
// winner, nothing in the records or on the leaderboard.
func TestAnAdminCancelsAGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, msg := twoPlayerGame(t, h)
	mover, _ := h.turnUser(id)
	view := h.showHand(mover, msg, id)
	card := firstPlayable(t, view)

	a := h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: id}, discordtest.Opt{Name: "reason", Value: "stuck since the outage"})
	if !a.Ephemeral() || !strings.Contains(a.Content(), "is cancelled") {
		t.Fatalf("cancel answered %q (private %v)", a.Content(), a.Ephemeral())
	}
	if tb := h.table(id); tb.Status != cribbage.StatusCancelled || tb.CancelledBy != ada.ID {
		t.Fatalf("table %s, by %q", tb.Status, tb.CancelledBy)
	}
	says := "cancelled by <@" + ada.ID + ">: stuck since the outage"
	h.eventually("the table message to say it was cancelled", func() bool {
		m, _ := h.fake.Message(msg)
		return strings.Contains(m.Text(), says) && len(discordtest.Buttons(m.Components)) == 0
	})
	h.eventually("the hand view to say it was cancelled", func() bool {
		m, _ := h.fake.Message(view.MessageID)
		return strings.Contains(m.Text(), says) && len(discordtest.Buttons(m.Components)) == 0
	})
	h.drain()
	told := false
	for _, m := range h.fake.ChannelMessages(h.tableMessage(id).ThreadID) {
		told = told || strings.Contains(m.Text(), says) && strings.Contains(m.Text(), "counts for nobody") &&
			strings.Contains(m.Text(), "<@"+alice.ID+">") && strings.Contains(m.Text(), "<@"+bob.ID+">")
	}
	if !told {
		t.Error("the thread was not told who cancelled the game and why")
	}
	// The old buttons and the commands answer that it was cancelled, and
	// change nothing.
	version := h.table(id).Version
	for _, b := range []struct {
		who  discordtest.User
		msg  string
		cust string
	}{{mover, view.MessageID, card}, {alice, msg, "/hand/" + itoa64(id)}, {eve, msg, "/join/" + itoa64(id)}} {
		if a := h.click(b.who, b.msg, b.cust); !a.Ephemeral() || !strings.Contains(a.Content(), says) {
			t.Errorf("%s: %q", b.cust, a.Content())
		}
	}
	if a := h.command(bob, "resign", discordtest.Opt{Name: "table", Value: id}); !strings.Contains(a.Content(), says) {
		t.Errorf("resign: %q", a.Content())
	}
	if a := h.command(alice, "games"); !strings.Contains(a.Content(), "no open tables") {
		t.Errorf("games: %q", a.Content())
	}
	if got := h.table(id).Version; got != version {
		t.Errorf("version %d after the refusals, want %d", got, version)
	}
	// No result.
	ctx := context.Background()
	if board, _ := h.store.Leaderboard(ctx, testGuild, 0, fromZero()); len(board) != 0 {
		t.Errorf("leaderboard %+v", board)
	}
	if st, _ := h.store.PlayerStats(ctx, testGuild, alice.ID); st.People.Games+st.Computer.Games != 0 {
		t.Errorf("alice's stats %+v", st)
	}
	if _, body := panelOf(h.club(alice, "leaderboard")); !strings.Contains(body, "No games between people") {
		t.Errorf("leaderboard: %q", body)
	}
	// Cancelling it again says it is over.
	if a := h.admin(ada, "cancel", discordtest.Opt{Name: "table", Value: id}); !strings.Contains(a.Content(), "over already") {
		t.Errorf("a second cancel: %q", a.Content())
	}
}

// TestWhoMayUseTheAdminCommands: Discord shows /cribbage-admin to members
// with Manage Server and delivers it to nobody else; a server may allow a
// role in its Integrations settings, and then the bot itself still asks
// for Manage Server or the server's cancel-role.
func TestWhoMayUseTheAdminCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	var admin *discordgo.ApplicationCommand
	for _, c := range h.fake.Commands(testGuild) {
		if c.Name == "cribbage-admin" {
			admin = c
		}
		if c.Name != "cribbage-admin" && c.DefaultMemberPermissions != nil {
			t.Errorf("/%s is restricted by default", c.Name)
		}
		// Where each is used is said by contexts alone: dm_permission is
		// deprecated. Playing and the daily hand are used everywhere, by
		// servers' installs and users' (a DM with the bot, group DMs,
		// servers without the bot); the records, the admins' tools and
		// the challenge menu in servers with the bot only.
		want := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
		installs := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
		if c.Name == "cribbage-daily" || c.Name == "cribbage" {
			want = append(want, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel)
			installs = append(installs, discordgo.ApplicationIntegrationUserInstall)
		}
		if c.DMPermission != nil || c.Contexts == nil || !slices.Equal(*c.Contexts, want) ||
			c.IntegrationTypes == nil || !slices.Equal(*c.IntegrationTypes, installs) {
			t.Errorf("/%s is registered for contexts %v, installs %v, dm_permission %v", c.Name, c.Contexts, c.IntegrationTypes, c.DMPermission)
		}
	}
	if admin == nil || admin.DefaultMemberPermissions == nil || *admin.DefaultMemberPermissions != discordgo.PermissionManageGuild {
		t.Fatalf("/cribbage-admin is registered as %+v", admin)
	}
	lobby, _ := h.open(alice)
	cancel := func(u discordtest.User) *discordgo.Interaction {
		return discordtest.CommandOf("cribbage-admin", testGuild, testChannel, u, "cancel", discordtest.Opt{Name: "table", Value: lobby})
	}
	// Not delivered to a member.
	if _, err := h.interact(cancel(bob)); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("a member's cancel: %v", err)
	}
	if _, err := h.interact(cancel(mo)); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("mo's cancel before the server allowed the role: %v", err)
	}
	// The server allows the Mods role in Integrations: Discord delivers
	// Mo's command, and the bot refuses it, as Mo lacks Manage Server and
	// the bot was not told to trust the role.
	h.fake.SetCommandPermissions(testGuild, "cribbage-admin",
		&discordgo.ApplicationCommandPermissions{ID: modsRole, Type: discordgo.ApplicationCommandPermissionTypeRole, Permission: true})
	if a := h.send(cancel(mo)); !strings.Contains(a.Content(), "Manage Server") {
		t.Errorf("mo's cancel, allowed by Discord alone: %q", a.Content())
	}
	if a := h.send(discordtest.CommandOf("cribbage-admin", testGuild, testChannel, mo, "settings")); !strings.Contains(a.Content(), "Manage Server") {
		t.Errorf("mo's settings: %q", a.Content())
	}
	if h.table(lobby).Status != cribbage.StatusLobby {
		t.Fatal("a refused cancel ended the table")
	}
	// Ada trusts the role with cancelling.
	h.admin(ada, "settings", discordtest.Opt{Name: "cancel-role", Value: discordtest.Role{ID: modsRole, Name: "Mods"}})
	if a := h.send(cancel(mo)); !strings.Contains(a.Content(), "is cancelled") {
		t.Errorf("mo's cancel with the role trusted: %q", a.Content())
	}
	if tb := h.table(lobby); tb.Status != cribbage.StatusCancelled || tb.CancelledBy != mo.ID {
		t.Errorf("the lobby: %s by %q", tb.Status, tb.CancelledBy)
	}
	// Settings stay Manage Server's.
	a := h.send(discordtest.CommandOf("cribbage-admin", testGuild, testChannel, mo, "settings", discordtest.Opt{Name: "max-open-tables", Value: 1}))
	if !strings.Contains(a.Content(), "Only members with **Manage Server**") {
		t.Errorf("mo's change of a setting: %q", a.Content())
	}
	if gs, _ := h.store.GuildSettings(context.Background(), testGuild); gs.MaxOpenTables != 0 {
		t.Errorf("mo changed a setting: %+v", gs)
	}
	// The lobby's message says who ended it.
	h.eventually("the lobby's message", func() bool {
		m, _ := h.fake.Message(h.tableMessage(lobby).MessageID)
		return strings.Contains(m.Text(), "cancelled by <@"+mo.ID+">")
	})
}

// TestGamesInOneChannelRecordsEverywhere: with the server's Integrations
// settings, /cribbage works only in the games channel while
// /cribbage-club answers anywhere; and the bot's own games-channel
// setting points a /cribbage start elsewhere to that channel.
func TestGamesInOneChannelRecordsEverywhere(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	allChannels, _ := discordgo.GuildAllChannelsID(testGuild)
	h.fake.SetCommandPermissions(testGuild, "cribbage",
		&discordgo.ApplicationCommandPermissions{ID: allChannels, Type: discordgo.ApplicationCommandPermissionTypeChannel, Permission: false},
		&discordgo.ApplicationCommandPermissions{ID: gamesChannel, Type: discordgo.ApplicationCommandPermissionTypeChannel, Permission: true})
	if _, err := h.interact(discordtest.Command(testGuild, testChannel, alice, "start")); !errors.Is(err, discordtest.ErrNotPermitted) {
		t.Errorf("/cribbage start outside the games channel was delivered: %v", err)
	}
	if lb := h.club(bob, "leaderboard"); lb.Response == nil || len(discordtest.TextDisplays(lb.Response.Data.Components)) == 0 {
		t.Errorf("the leaderboard outside the games channel: %+v", lb.Response)
	}
	if a := h.send(discordtest.Command(testGuild, gamesChannel, alice, "start")); a.Ephemeral() || a.MessageID == "" {
		t.Errorf("a start in the games channel: %q", a.Content())
	}

	// The same, by the bot's own setting, for a server that leaves
	// Discord's settings alone.
	h.fake.SetCommandPermissions(testGuild, "cribbage")
	h.admin(ada, "settings", discordtest.Opt{Name: "games-channel", Value: discordtest.Channel{ID: gamesChannel, Name: "games"}})
	a := h.command(bob, "start")
	if !a.Ephemeral() || !strings.Contains(a.Content(), "<#"+gamesChannel+">") {
		t.Errorf("a start outside the games channel: %q", a.Content())
	}
	if tables, _ := h.store.ChannelTables(context.Background(), testChannel); len(tables) != 0 {
		t.Errorf("%d tables outside the games channel", len(tables))
	}
}

// TestServerSettingsApply: the server's game length, open-table limit,
// and reminder and forfeit times, through Discord end to end; a bad value
// is refused with what to write, and changes nothing.
func TestServerSettingsApply(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a := h.admin(ada, "settings", discordtest.Opt{Name: "default-points", Value: 61}, discordtest.Opt{Name: "max-open-tables", Value: 1},
		discordtest.Opt{Name: "reminder-after", Value: "1h"}, discordtest.Opt{Name: "forfeit-after", Value: "3h"})
	if !a.Ephemeral() || !strings.Contains(a.Content(), "reminders after 1h") {
		t.Fatalf("settings: %q", a.Content())
	}
	before, _ := h.store.GuildSettings(context.Background(), testGuild)
	if a := h.admin(ada, "settings", discordtest.Opt{Name: "reminder-after", Value: "whenever"}); !strings.Contains(a.Content(), "Nothing was changed") {
		t.Errorf("a bad value: %q", a.Content())
	}
	if after, _ := h.store.GuildSettings(context.Background(), testGuild); !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Error("a bad value changed the settings")
	}

	id, msg := h.open(alice)
	if h.table(id).Options.Target != 61 {
		t.Errorf("the server's default: a game to %d", h.table(id).Options.Target)
	}
	if a := h.command(alice, "start", discordtest.Opt{Name: "points", Value: 121}); !strings.Contains(a.Content(), "the most it allows") {
		t.Errorf("a second table beyond the limit: %q", a.Content())
	}
	h.click(bob, msg, "/join/"+itoa64(id))
	if h.table(id).Status != cribbage.StatusPlaying {
		t.Fatal("the game did not start")
	}
	other, otherMsg := h.open(carol)
	if a := h.click(bob, otherMsg, "/join/"+itoa64(other)); !strings.Contains(a.Content(), "the most it allows") {
		t.Errorf("bob joining a second table: %q", a.Content())
	}
	if len(h.table(other).Seats) != 1 {
		t.Error("bob sat at a second table")
	}

	// The server's hour, not the bot's 12: Alice throws, Bob is reminded.
	h.discard(alice, msg, id, 2)
	h.fake.Advance(59 * time.Minute)
	h.settle()
	if n := h.countIn(id, "⏰"); n != 0 {
		t.Fatalf("%d reminders before the server's hour", n)
	}
	h.fake.Advance(2 * time.Minute)
	h.wantAnnounced("a reminder after the server's hour", id, "⏰", 1)
	h.fake.Advance(2 * time.Hour)
	h.wantAnnounced("a forfeit offered after the server's 3 hours", id, "⌛", 1)
	h.wantClaimButton(msg)
	h.click(alice, msg, "/claimwin/"+itoa64(id))
	if tb := h.table(id); tb.Status != cribbage.StatusFinished || tb.State.Result.Winner != tb.Options.SideOf(0) {
		t.Errorf("the forfeit: %s", tb.Status)
	}
}

// TestREADMENamesEveryCommand: README's command tables name every
// subcommand the bot registers, under its command.
func TestREADMENamesEveryCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for _, c := range h.fake.Commands(testGuild) {
		if c.Type == discordgo.UserApplicationCommand {
			// A user command is chosen from a person's menu, by its name.
			if !strings.Contains(readme, "**"+c.Name+"**") {
				t.Errorf("README never names the user command %q", c.Name)
			}
			continue
		}
		if !strings.Contains(readme, "`/"+c.Name+"`") {
			t.Errorf("README never names /%s", c.Name)
		}
		for _, o := range c.Options {
			if !strings.Contains(readme, "`"+o.Name+"`") && !strings.Contains(readme, "`"+o.Name+" ") {
				t.Errorf("README never names /%s %s", c.Name, o.Name)
			}
		}
	}
}

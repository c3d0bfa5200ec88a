package bot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// The admin's commands and the server's settings, on the in-memory store.

var (
	// ada manages the server; mo is in the role the server may let cancel.
	ada = discordtest.User{ID: "300000000000000006", Name: "Ada", Permissions: discordgo.PermissionManageGuild}
	mo  = discordtest.User{ID: "300000000000000007", Name: "Mo", Roles: []string{"500000000000000001"}}
)

const modsRole = "500000000000000001"

// admin runs /cribbage-admin sub as who, in the table's channel.
func (u *unit) admin(who discordtest.User, sub string, opts ...discordtest.Opt) (reply, error) {
	return u.route(discordtest.CommandOf(command.Admin, guild, channel, who, sub, opts...))
}

func opt(name string, v any) discordtest.Opt { return discordtest.Opt{Name: name, Value: v} }

func TestCancelHandler(t *testing.T) {
	u := newUnit(t)
	u.twoPlayers()
	before := u.table(1).Version
	for _, who := range []discordtest.User{alice, mo} {
		if _, err := u.admin(who, "cancel", opt("table", 1)); !errors.Is(err, refusal.ErrMayNotCancel) {
			t.Errorf("%s cancelled: %v", who.Name, err)
		}
	}
	if u.table(1).Version != before {
		t.Fatal("a refused cancel changed the table")
	}
	r, err := u.admin(ada, "cancel", opt("table", 1), opt("reason", "  spam\nin the   channel "))
	if err != nil || r.resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("cancel: %+v, %v", r.resp, err)
	}
	tb := u.table(1)
	if tb.Status != cribbage.StatusCancelled || tb.CancelledBy != ada.ID || tb.CancelReason != "spam in the channel" {
		t.Fatalf("after the cancel: %s by %q for %q", tb.Status, tb.CancelledBy, tb.CancelReason)
	}
	// The thread is told, the players mentioned, and the table message
	// is refreshed.
	var post, refresh bool
	for _, it := range u.store.Outbox() {
		post = post || it.Kind == render.KindPost && strings.Contains(it.Payload, "spam in the channel") &&
			strings.Contains(it.Payload, alice.ID) && strings.Contains(it.Payload, bob.ID) && strings.Contains(it.Payload, "counts for nobody")
		refresh = refresh || it.Kind == render.KindTable && it.ID > 2
	}
	if !post || !refresh {
		t.Errorf("announcements: post %v, table refresh %v", post, refresh)
	}
	// The table message says who and why, and has no buttons left.
	m := render.Table(lang.English, tb, "")
	if !strings.Contains(m.Text(), "cancelled by <@"+ada.ID+">: spam in the channel") || len(discordtest.Buttons(m.Components)) != 0 {
		t.Errorf("table message: %q, %d buttons", m.Text(), len(discordtest.Buttons(m.Components)))
	}
	// Every button and command at the table answers that it was cancelled.
	view := click.ViewVersion(tb.State.ViewFor(0))
	for _, ic := range []*discordgo.Interaction{
		discordtest.Click(guild, channel, alice, "m", "/hand/1"),
		discordtest.Click(guild, channel, bob, "m", "/discard/1/"+view+"/3"),
		discordtest.Click(guild, channel, mallory, "m", "/join/1"),
		discordtest.Click(guild, channel, alice, "m", "/rematch/1"),
		discordtest.Command(guild, channel, alice, "resign", opt("table", 1)),
		discordtest.Command(guild, channel, alice, "hand", opt("table", 1)),
	} {
		_, err := u.route(ic)
		var c *refusal.CancelledError
		if msg, _ := refusal.Words(lang.English, err); !errors.As(err, &c) || !strings.Contains(msg, "cancelled by <@"+ada.ID+">: spam in the channel") {
			t.Errorf("%s: %v (%q)", discordtest.CustomID(ic), err, msg)
		}
	}
	// The hand view, if open, says so too and offers nothing.
	if h := render.Hand(lang.English, tb, 0, 0, ""); !strings.Contains(h.Text(), "cancelled") || len(discordtest.Buttons(h.Components)) != 0 {
		t.Errorf("hand view: %q, %d buttons", h.Text(), len(discordtest.Buttons(h.Components)))
	}
	// Over is over.
	if _, err := u.admin(ada, "cancel", opt("table", 1)); !errors.Is(err, cribbage.ErrNotOpen) {
		t.Errorf("cancelled twice: %v", err)
	}
	if u.table(1).Version != tb.Version {
		t.Error("the refusals changed the table")
	}
}

func TestCancelReachesOnlyThisServer(t *testing.T) {
	u := newUnit(t)
	u.ok(discordtest.Command("another-guild", "another-channel", alice, "start"))
	if _, err := u.admin(ada, "cancel", opt("table", 1)); !errors.Is(err, refusal.ErrNotInServer) {
		t.Errorf("cancelled another server's table: %v", err)
	}
	if _, err := u.admin(ada, "cancel", opt("table", 99)); !errors.Is(err, cribbage.ErrNotFound) {
		t.Errorf("no such table: %v", err)
	}
	if u.table(1).Status != cribbage.StatusLobby {
		t.Errorf("the other server's table is %s", u.table(1).Status)
	}
}

func TestTheCancelRoleMayCancel(t *testing.T) {
	u := newUnit(t)
	u.ok(discordtest.Command(guild, channel, alice, "start"))
	if _, err := u.admin(ada, "settings", opt("cancel-role", discordtest.Role{ID: modsRole, Name: "Mods"})); err != nil {
		t.Fatal(err)
	}
	// Mo may see the settings and cancel, not change the settings.
	if _, err := u.admin(mo, "settings"); err != nil {
		t.Errorf("the cancel role sees the settings: %v", err)
	}
	if _, err := u.admin(mo, "settings", opt("max-open-tables", 1)); !errors.Is(err, refusal.ErrNotAdmin) {
		t.Errorf("the cancel role changed a setting: %v", err)
	}
	if _, err := u.admin(mo, "cancel", opt("table", 1)); err != nil {
		t.Fatalf("the cancel role: %v", err)
	}
	if tb := u.table(1); tb.Status != cribbage.StatusCancelled || tb.CancelledBy != mo.ID {
		t.Errorf("%s by %s", tb.Status, tb.CancelledBy)
	}
}

func TestSettingsHandler(t *testing.T) {
	u := newUnitWith(t, Options{ReminderAfter: 12 * time.Hour, ForfeitAfter: 7 * 24 * time.Hour})
	if _, err := u.admin(alice, "settings"); !errors.Is(err, refusal.ErrNotAdmin) {
		t.Errorf("a member saw the settings: %v", err)
	}
	r, err := u.admin(ada, "settings")
	if err != nil || !strings.Contains(r.resp.Data.Content, "after 12h (the bot's default)") || !strings.Contains(r.resp.Data.Content, "any channel") {
		t.Fatalf("settings: %q, %v", r.resp.Data.Content, err)
	}
	games := discordtest.Channel{ID: "400000000000000099", Name: "games"}
	r, err = u.admin(ada, "settings", opt("reminder-after", "90m"), opt("forfeit-after", "off"), opt("default-points", 61),
		opt("games-channel", games), opt("max-open-tables", 2))
	if err != nil || r.resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("set: %+v, %v", r.resp, err)
	}
	for _, want := range []string{"reminders after 90m", "forfeits off", "<#" + games.ID + "> only", "at most 2 a person", "Last changed by <@" + ada.ID + ">"} {
		if !strings.Contains(r.resp.Data.Content, want) {
			t.Errorf("the answer lacks %q:\n%s", want, r.resp.Data.Content)
		}
	}
	set, _ := u.store.GuildSettings(context.Background(), guild)
	if set.Reminder(0) != 90*time.Minute || set.ForfeitAfter == nil || *set.ForfeitAfter != 0 || set.DefaultPoints != 61 ||
		set.GamesChannel != games.ID || set.MaxOpenTables != 2 || set.UpdatedBy != ada.ID {
		t.Errorf("saved %+v", set)
	}
	// Bad values change nothing, and say what to write.
	for _, tc := range []struct {
		name string
		opts []discordtest.Opt
		want string
	}{
		{"a reminder too often", []discordtest.Opt{opt("reminder-after", "1m")}, "takes a time from 10m to 90d"},
		{"a forfeit that is no time", []discordtest.Opt{opt("forfeit-after", "soon")}, "like 90m, 12h or 3d"},
		{"set and reset at once", []discordtest.Opt{opt("games-channel", games), opt("reset", "games-channel")}, "both set and reset"},
		{"everything and more", []discordtest.Opt{opt("reset", "everything"), opt("default-points", 121)}, "give it alone"},
		{"@everyone to cancel", []discordtest.Opt{opt("cancel-role", discordtest.Role{ID: guild, Name: "@everyone"})}, "can't be @everyone"},
		{"a good value beside a bad one", []discordtest.Opt{opt("default-points", 121), opt("reminder-after", "-1h")}, "Nothing was changed"},
	} {
		r, err := u.admin(ada, "settings", tc.opts...)
		if err != nil || !strings.Contains(r.resp.Data.Content, tc.want) || !strings.Contains(r.resp.Data.Content, "Nothing was changed") {
			t.Errorf("%s: %q, %v", tc.name, r.resp.Data.Content, err)
		}
	}
	// A voice channel is not a games channel (Discord offers text
	// channels only; the bot checks what it is sent).
	if _, err := u.admin(ada, "settings", opt("games-channel", discordtest.Channel{ID: "v1", Type: discordgo.ChannelTypeGuildVoice})); !errors.Is(err, command.ErrBadOptions) {
		t.Errorf("a voice channel: %v", err)
	}
	if after, _ := u.store.GuildSettings(context.Background(), guild); after.UpdatedAt != set.UpdatedAt || after.DefaultPoints != 61 {
		t.Errorf("a refused change was saved: %+v", after)
	}
	// Reset puts a setting back.
	if _, err := u.admin(ada, "settings", opt("reset", "games-channel")); err != nil {
		t.Fatal(err)
	}
	if after, _ := u.store.GuildSettings(context.Background(), guild); after.GamesChannel != "" || after.DefaultPoints != 61 {
		t.Errorf("after resetting the channel: %+v", after)
	}
	if _, err := u.admin(ada, "settings", opt("reset", "everything")); err != nil {
		t.Fatal(err)
	}
	if after, _ := u.store.GuildSettings(context.Background(), guild); after.ReminderAfter != nil || after.ForfeitAfter != nil || after.DefaultPoints != 0 || after.MaxOpenTables != 0 {
		t.Errorf("after resetting everything: %+v", after)
	}
}

func TestSettingsApplyToStartAndJoin(t *testing.T) {
	u := newUnit(t)
	games := discordtest.Channel{ID: "400000000000000099", Name: "games"}
	if _, err := u.admin(ada, "settings", opt("games-channel", games), opt("default-points", 61), opt("max-open-tables", 1)); err != nil {
		t.Fatal(err)
	}
	r := u.ok(discordtest.Command(guild, channel, alice, "start"))
	if !strings.Contains(r.Data.Content, "<#"+games.ID+">") || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("a start outside the games channel: %q", r.Data.Content)
	}
	if _, err := u.store.Table(context.Background(), 1); !errors.Is(err, cribbage.ErrNotFound) {
		t.Fatal("a refused start made a table")
	}
	u.ok(discordtest.Command(guild, games.ID, alice, "start"))
	if tb := u.table(1); tb.Options.Target != 61 || tb.ChannelID != games.ID {
		t.Errorf("the table plays to %d in %s", tb.Options.Target, tb.ChannelID)
	}
	_, err := u.route(discordtest.Command(guild, games.ID, alice, "start", opt("points", 121)))
	var many *refusal.TooManyTablesError
	if msg, _ := refusal.Words(lang.English, err); !errors.As(err, &many) || !strings.Contains(msg, "1 open table in this server") {
		t.Errorf("the limit: %v (%q)", err, msg)
	}
	if _, err := u.store.Table(context.Background(), 2); !errors.Is(err, cribbage.ErrNotFound) {
		t.Error("a second open table for Alice beyond the limit")
	}
	// Bob may join (his first), then may not open another.
	if _, err := u.route(discordtest.Click(guild, games.ID, bob, "m", "/join/1")); err != nil {
		t.Fatalf("bob joins: %v", err)
	}
	if _, err := u.route(discordtest.Command(guild, games.ID, bob, "start")); !errors.As(err, &many) {
		t.Errorf("bob's second table: %v", err)
	}
}

func TestComputerLevelsAsPlayersKnowThem(t *testing.T) {
	u := newUnit(t)
	u.ok(discordtest.Command(guild, channel, alice, "start", opt("computer", "strong")))
	if tb := u.table(1); tb.Computer != "expert" {
		t.Errorf("strong is stored as %q", tb.Computer)
	}
	if m := render.Table(lang.English, u.table(1), ""); !strings.Contains(m.Text(), "computer (strong)") {
		t.Errorf("lobby: %q", m.Text())
	}
	if _, err := u.click(alice, "/begin/1"); err != nil {
		t.Fatal(err)
	}
	if s := u.table(1).Seats[1]; s.Name != "Computer 2 (strong)" || s.Computer != "expert" {
		t.Errorf("seat %+v", s)
	}
	// The baseline is offered to nobody, though a table stored with it
	// still plays (below).
	for _, level := range []string{"expert", "classic"} {
		if _, err := u.route(discordtest.Command(guild, channel, alice, "start", opt("computer", level))); !errors.Is(err, command.ErrBadOptions) {
			t.Errorf("computer %s: %v", level, err)
		}
	}
	classic, err := u.store.CreateTable(context.Background(), &cribbage.Table{GuildID: guild, ChannelID: channel, HostID: bob.ID,
		Options: engine.Options{Players: 2, Target: 61}, Computer: "classic", Status: cribbage.StatusLobby, Seats: []cribbage.Seat{{UserID: bob.ID, Name: "Bob"}}}, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.click(bob, click.ID{Action: click.Begin, Table: classic.ID}.String()); err != nil {
		t.Fatal(err)
	}
	tb := u.table(classic.ID)
	if tb.Status != cribbage.StatusPlaying || tb.Seats[1].Name != "Computer 2 (classic)" || slices.Contains(tb.State.Waiting(), 1) {
		t.Errorf("a classic table: %s, seat %+v, waiting on %v", tb.Status, tb.Seats[1], tb.State.Waiting())
	}
}

func TestTimersFollowTheServersSettings(t *testing.T) {
	u := newUnitWith(t, Options{ReminderAfter: 12 * time.Hour, ForfeitAfter: 7 * 24 * time.Hour})
	tb := u.twoPlayers()
	// Alice throws to the crib: the table waits on Bob alone.
	sel := engine.SetOf(tb.State.Hands[0].Cards()[:2]...)
	if _, err := u.clickView(alice, click.ID{Action: click.Discard, Table: 1, View: click.ViewVersion(tb.State.ViewFor(0)), Cards: sel}.String()); err != nil {
		t.Fatal(err)
	}
	if _, err := u.admin(ada, "settings", opt("reminder-after", "1h"), opt("forfeit-after", "3h")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	posts := func(text string) int {
		n := 0
		for _, it := range u.store.Outbox() {
			if it.Kind == render.KindPost && strings.Contains(it.Payload, text) {
				n++
			}
		}
		return n
	}
	u.clock = u.clock.Add(59 * time.Minute)
	u.b.timers.Check(ctx)
	if n := posts("⏰"); n != 0 {
		t.Fatalf("%d reminders before the server's hour", n)
	}
	u.clock = u.clock.Add(2 * time.Minute)
	u.b.timers.Check(ctx)
	if n := posts("⏰"); n != 1 {
		t.Errorf("%d reminders after the server's hour, want 1", n)
	}
	u.clock = u.clock.Add(2 * time.Hour)
	u.b.timers.Check(ctx)
	if n := posts("⌛"); n != 1 || u.table(1).ForfeitOfferedAt.IsZero() {
		t.Errorf("%d forfeit offers after the server's 3h", n)
	}
	// Turned off, no win is claimed.
	if _, err := u.admin(ada, "settings", opt("forfeit-after", "off")); err != nil {
		t.Fatal(err)
	}
	if _, err := u.click(alice, "/claimwin/1"); !errors.Is(err, refusal.ErrNoForfeits) {
		t.Errorf("a claim with forfeits off: %v", err)
	}
}

// TestHelpNamesEveryCommand: /cribbage help tells of every subcommand of
// every command, within a message's 2000 characters, in every language,
// by the names that language's players see.
func TestHelpNamesEveryCommand(t *testing.T) {
	for _, code := range lang.Codes() {
		l, _ := lang.ByCode(code)
		locale := discordgo.Locale(l.Locales()[0])
		help := render.Help(l)
		if n := len([]rune(help)); n > 2000 {
			t.Errorf("%s: help is %d characters", code, n)
		}
		for _, c := range command.Localized() {
			if c.Type == discordgo.UserApplicationCommand {
				// A user command is chosen from a person's menu, by its name.
				if !strings.Contains(help, "**"+c.Name+"**") {
					t.Errorf("%s: help never names the user command %q", code, c.Name)
				}
				continue
			}
			if c.Name != command.Play && !strings.Contains(help, "/"+c.Name) {
				t.Errorf("%s: help never names /%s", code, c.Name)
			}
			for _, o := range c.Options {
				if o.Name == "help" {
					continue // being read
				}
				name := o.Name
				if n, ok := o.NameLocalizations[locale]; ok {
					name = n
				}
				if !strings.Contains(help, "`"+name) && !strings.Contains(help, " "+name+"`") {
					t.Errorf("%s: help never names /%s %s", code, c.Name, name)
				}
			}
		}
	}
}

// TestCancelAChallenge: a challenge still waiting for Bob's answer is
// cancelled; the post tells Bob as well as Alice, as the challenge pinged
// him.
func TestCancelAChallenge(t *testing.T) {
	u := newUnit(t)
	if _, err := u.route(discordtest.Command(guild, channel, alice, "challenge", opt("user", bob))); err != nil {
		t.Fatal(err)
	}
	if _, err := u.admin(ada, "cancel", opt("table", 1)); err != nil {
		t.Fatal(err)
	}
	told := false
	for _, it := range u.store.Outbox() {
		var p struct {
			Content  string   `json:"content"`
			Mentions []string `json:"mentions"`
		}
		if it.Kind != render.KindPost || json.Unmarshal([]byte(it.Payload), &p) != nil {
			continue
		}
		told = told || strings.Contains(p.Content, "cancelled") && strings.Contains(p.Content, "<@"+bob.ID+">") &&
			slices.Contains(p.Mentions, alice.ID) && slices.Contains(p.Mentions, bob.ID)
	}
	if !told {
		t.Errorf("the cancel's post does not tell both Alice and Bob: %+v", u.store.Outbox())
	}
}

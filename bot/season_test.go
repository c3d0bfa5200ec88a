package bot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// twoSeasons makes the store's server one in its second season, and
// records which season each leaderboard asks for.
func twoSeasons(u *unit, asked *[]int) {
	start := time.Date(2026, 1, 10, 19, 0, 0, 0, time.UTC)
	u.store.SeasonsFn = func(string) ([]cribbage.Season, error) {
		return []cribbage.Season{
			{Number: 1, StartedAt: start, Games: 40},
			{Number: 2, Name: "Winter", StartedAt: start.AddDate(0, 6, 0), StartedBy: alice.ID, Games: 3},
		}, nil
	}
	u.store.LeaderboardFn = func(guildID string, season int, since time.Time) ([]cribbage.Standing, error) {
		*asked = append(*asked, season)
		return []cribbage.Standing{{Rank: 1, UserID: bob.ID, Name: "Bob", Games: 3, Wins: 2, Losses: 1, Rating: cribbage.Rating{R: 1580, RD: 200, Games: 3, Provisional: true}}}, nil
	}
}

// TestLeaderboardShowsTheSeasonAsked: this season by default, a past one
// by number, and a clear answer for a season not reached.
func TestLeaderboardShowsTheSeasonAsked(t *testing.T) {
	u := newUnit(t)
	var asked []int
	twoSeasons(u, &asked)
	now := u.ok(discordtest.CommandOf(command.Club, guild, channel, bob, "leaderboard"))
	title, board := panelOf(now)
	if title != "Cribbage leaderboard · Season 2 · Winter" {
		t.Errorf("this season's title %q", title)
	}
	if !strings.Contains(board, "**1.** Bob · **1580?** · 2–1 · 3 games") {
		t.Errorf("this season's board:\n%s", board)
	}
	past := u.ok(discordtest.CommandOf(command.Club, guild, channel, bob, "leaderboard", discordtest.Opt{Name: "season", Value: 1}))
	if title, _ := panelOf(past); title != "Cribbage leaderboard · Season 1" {
		t.Errorf("season 1's title %q", title)
	}
	if len(asked) != 2 || asked[0] != 2 || asked[1] != 1 {
		t.Errorf("seasons asked of the store: %v, want [2 1]", asked)
	}
	_, err := u.route(discordtest.CommandOf(command.Club, guild, channel, bob, "leaderboard", discordtest.Opt{Name: "season", Value: 3}))
	if msg, known := refusal.Words(lang.English, err); !known || !strings.Contains(msg, "no season 3") || !strings.Contains(msg, "in season 2") {
		t.Errorf("season 3: %v, answered %q", err, msg)
	}
	if _, err := u.route(discordtest.CommandOf(command.Club, guild, channel, bob, "leaderboard", discordtest.Opt{Name: "season", Value: 0})); err == nil {
		t.Error("season 0 was answered")
	}
	if len(asked) != 2 {
		t.Errorf("a refused season asked the store: %v", asked)
	}
}

// TestSeasonsListNewestFirst: each season's dates, who started it and
// its games, privately.
func TestSeasonsListNewestFirst(t *testing.T) {
	u := newUnit(t)
	var asked []int
	twoSeasons(u, &asked)
	r := u.ok(discordtest.CommandOf(command.Club, guild, channel, bob, "seasons"))
	one, two := time.Date(2026, 1, 10, 19, 0, 0, 0, time.UTC).Unix(), time.Date(2026, 7, 10, 19, 0, 0, 0, time.UTC).Unix()
	want := fmt.Sprintf("**Season 2 · Winter** (now) — since <t:%d:D>, started by <@%s> · 3 games\n"+
		"**Season 1** — <t:%d:D> to <t:%d:D> · 40 games", two, alice.ID, one, two)
	if got := r.Data.Embeds[0].Description; got != want || r.Data.Flags == 0 {
		t.Errorf("seasons (flags %v):\n%s\nwant:\n%s", r.Data.Flags, got, want)
	}
	// A new server: season 1, not begun.
	u.store.SeasonsFn = nil
	r = u.ok(discordtest.CommandOf(command.Club, guild, channel, bob, "seasons"))
	if got := r.Data.Embeds[0].Description; got != "**Season 1** — begins with the first game between people" {
		t.Errorf("a new server's seasons: %q", got)
	}
}

// TestSeasonNewIsAnAdminsAndAnnounced: a member with Manage Server (or
// Administrator) starts a season, named on one line, and the channel is
// told without anyone pinged; nobody else can, a name too long changes
// nothing, and a season without games is not restarted.
func TestSeasonNewIsAnAdminsAndAnnounced(t *testing.T) {
	u := newUnit(t)
	type call struct{ user, name string }
	var calls []call
	unplayed := false
	u.store.StartSeasonFn = func(guildID, userID, name string) (cribbage.Season, error) {
		if unplayed {
			return cribbage.Season{}, cribbage.ErrSeasonUnplayed
		}
		calls = append(calls, call{userID, name})
		return cribbage.Season{Number: 3, Name: name, StartedBy: userID}, nil
	}
	for _, who := range []discordtest.User{alice, mo} {
		if _, err := u.admin(who, "season new"); !errors.Is(err, refusal.ErrNotSeasonAdmin) {
			t.Errorf("%s started a season: %v", who.Name, err)
		}
	}
	if _, err := u.admin(ada, "season new", opt("name", strings.Repeat("x", command.SeasonNameLength+1))); !errors.Is(err, command.ErrBadOptions) {
		t.Errorf("a name too long: %v", err)
	}
	if len(calls) != 0 {
		t.Fatalf("refused commands started seasons: %v", calls)
	}

	r, err := u.admin(ada, "season new", opt("name", "  Winter \t league "))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0] != (call{ada.ID, "Winter league"}) {
		t.Errorf("seasons started: %+v", calls)
	}
	d := r.resp.Data
	if d.Flags != 0 || !strings.HasPrefix(d.Content, "🏁 **Season 3 · Winter league** has begun, started by <@"+ada.ID+">") ||
		!strings.Contains(d.Content, "`/cribbage-club leaderboard season: 2`") || len(d.AllowedMentions.Parse) != 0 || len(d.AllowedMentions.Users) != 0 {
		t.Errorf("announced (flags %v, mentions %+v): %s", d.Flags, d.AllowedMentions, d.Content)
	}

	root := discordtest.User{ID: "300000000000000008", Name: "Root", Permissions: discordgo.PermissionAdministrator}
	if _, err := u.admin(root, "season new"); err != nil || len(calls) != 2 || calls[1] != (call{root.ID, ""}) {
		t.Errorf("an administrator's season: %v, %+v", err, calls)
	}
	unplayed = true
	_, err = u.admin(ada, "season new")
	if msg, known := refusal.Words(lang.English, err); !errors.Is(err, cribbage.ErrSeasonUnplayed) || !known || !strings.Contains(msg, "no games between people yet") {
		t.Errorf("a season without games: %v, answered %q", err, msg)
	}
}

// TestASubcommandGroupIsCheckedLikeAnyOther: season alone, or with two
// subcommands, or with one it does not have, is refused.
func TestASubcommandGroupIsCheckedLikeAnyOther(t *testing.T) {
	u := newUnit(t)
	u.store.StartSeasonFn = func(guildID, userID, name string) (cribbage.Season, error) {
		t.Error("a malformed command started a season")
		return cribbage.Season{}, nil
	}
	ic := func(subs ...string) *discordgo.Interaction {
		i := discordtest.CommandOf(command.Admin, guild, channel, ada, "season new")
		d := i.Data.(discordgo.ApplicationCommandInteractionData)
		var opts []*discordgo.ApplicationCommandInteractionDataOption
		for _, s := range subs {
			opts = append(opts, &discordgo.ApplicationCommandInteractionDataOption{Name: s, Type: discordgo.ApplicationCommandOptionSubCommand})
		}
		d.Options[0].Options = opts
		i.Data = d
		return i
	}
	for _, subs := range [][]string{nil, {"new", "new"}, {"old"}} {
		if _, err := u.route(ic(subs...)); !errors.Is(err, command.ErrBadOptions) && !errors.Is(err, refusal.ErrUnknownCommand) {
			t.Errorf("season %v: %v", subs, err)
		}
	}
}

package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
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
	now := u.ok(discordtest.CommandOf(clubCommand, guild, channel, bob, "leaderboard"))
	if title := now.Data.Embeds[0].Title; title != "Cribbage leaderboard · Season 2 · Winter" {
		t.Errorf("this season's title %q", title)
	}
	if !strings.Contains(now.Data.Embeds[0].Description, "**1.** Bob · **1580?** · 2–1 · 3 games") {
		t.Errorf("this season's board:\n%s", now.Data.Embeds[0].Description)
	}
	past := u.ok(discordtest.CommandOf(clubCommand, guild, channel, bob, "leaderboard", discordtest.Opt{Name: "season", Value: 1}))
	if title := past.Data.Embeds[0].Title; title != "Cribbage leaderboard · Season 1" {
		t.Errorf("season 1's title %q", title)
	}
	if len(asked) != 2 || asked[0] != 2 || asked[1] != 1 {
		t.Errorf("seasons asked of the store: %v, want [2 1]", asked)
	}
	_, err := u.route(discordtest.CommandOf(clubCommand, guild, channel, bob, "leaderboard", discordtest.Opt{Name: "season", Value: 3}))
	if msg, known := userMessage(err); !known || !strings.Contains(msg, "no season 3") || !strings.Contains(msg, "in season 2") {
		t.Errorf("season 3: %v, answered %q", err, msg)
	}
	if _, err := u.route(discordtest.CommandOf(clubCommand, guild, channel, bob, "leaderboard", discordtest.Opt{Name: "season", Value: 0})); err == nil {
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
	r := u.ok(discordtest.CommandOf(clubCommand, guild, channel, bob, "seasons"))
	one, two := time.Date(2026, 1, 10, 19, 0, 0, 0, time.UTC).Unix(), time.Date(2026, 7, 10, 19, 0, 0, 0, time.UTC).Unix()
	want := fmt.Sprintf("**Season 2 · Winter** (now) — since <t:%d:D>, started by <@%s> · 3 games\n"+
		"**Season 1** — <t:%d:D> to <t:%d:D> · 40 games", two, alice.ID, one, two)
	if got := r.Data.Embeds[0].Description; got != want || r.Data.Flags == 0 {
		t.Errorf("seasons (flags %v):\n%s\nwant:\n%s", r.Data.Flags, got, want)
	}
	// A new server: season 1, not begun.
	u.store.SeasonsFn = nil
	r = u.ok(discordtest.CommandOf(clubCommand, guild, channel, bob, "seasons"))
	if got := r.Data.Embeds[0].Description; got != "**Season 1** — begins with the first game between people" {
		t.Errorf("a new server's seasons: %q", got)
	}
}

package bot

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestRenderTableInEveryStatus renders tables with and without a game.
func TestRenderTableInEveryStatus(t *testing.T) {
	g, _, _ := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(1))
	seats := []cribbage.Seat{{UserID: "1", Name: "Alice"}, {UserID: "2", Name: "Bob"}}
	for _, tc := range []struct {
		name  string
		table cribbage.Table
		want  string
	}{
		{"lobby", cribbage.Table{ID: 1, Status: cribbage.StatusLobby, Options: engine.Options{Players: 2, Target: 121}, Seats: seats[:1], HostID: "1"}, "Waiting for 1 more player"},
		{"closed lobby", cribbage.Table{ID: 2, Status: cribbage.StatusClosed, Options: engine.Options{Players: 2, Target: 121}}, "closed"},
		{"playing", cribbage.Table{ID: 3, Status: cribbage.StatusPlaying, Options: g.Options, Seats: seats, State: g}, "Waiting for **Alice**"},
	} {
		r := render.Table(lang.English, &tc.table, "")
		if !r.V2 || !strings.Contains(r.Text(), tc.want) {
			t.Errorf("%s: %s", tc.name, r.Text())
		}
	}
}

// TestStoryShowsEveryRoundOfTheCutAndPartnersWin checks two announcements:
// a tied cut for deal shows each round of the re-cut, and a partnership
// wins in the plural.
func TestStoryShowsEveryRoundOfTheCutAndPartnersWin(t *testing.T) {
	two := &cribbage.Table{Options: engine.Options{Players: 2, Target: 121}, Seats: []cribbage.Seat{{Name: "Alice"}, {Name: "Bob"}}}
	cards, err := engine.ParseCards("KH KS 3C 9D")
	if err != nil {
		t.Fatal(err)
	}
	got := render.StoryLine(lang.English, two, engine.Event{Kind: engine.EvCutForDeal, Seat: 0, Cards: cards})
	want := "Cut for deal: Alice K♥, Bob K♠; a tie, so again: Alice 3♣, Bob 9♦. **Alice** cuts lowest and deals first."
	if got != want {
		t.Errorf("tied cut:\n got %s\nwant %s", got, want)
	}

	partners := &cribbage.Table{Options: engine.Options{Players: 4, Partners: true, Target: 121},
		Seats: []cribbage.Seat{{Name: "Alice"}, {Name: "Bob"}, {Name: "Carol"}, {Name: "Dan"}}}
	line := render.ResultLine(lang.English, partners, &engine.Result{Winner: 1, Scores: []int{100, 121}, Skunks: []int{0, 0}})
	if !strings.HasPrefix(line, "🏆 **Bob & Dan win** — ") {
		t.Errorf("partners: %s", line)
	}
	if line := render.ResultLine(lang.English, two, &engine.Result{Winner: 0, Scores: []int{121, 100}, Skunks: []int{0, 0}}); !strings.HasPrefix(line, "🏆 **Alice wins** — ") {
		t.Errorf("one player: %s", line)
	}
}

// TestUserMessagesNeverShowInternalText: errors players can cause are
// worded for them; anything else is the generic apology.
func TestUserMessagesNeverShowInternalText(t *testing.T) {
	_, badCard := engine.ParseCards("5H ZZ")
	_, twice := engine.ParseCards("5H 5h")
	tests := []struct {
		err   error
		want  string
		known bool
	}{
		{badCard, "`ZZ` isn't a card. Write cards like 5H, 10D, JC or Q♠.", true},
		{twice, "5h is there twice: a deck has one of each card.", true},
		{refusal.ErrUnknownCommand, "I don't know that command. `/cribbage help` lists what I can do.", true},
		{fmt.Errorf("store: save table: %w", errors.New("disk I/O error")), refusal.Apology(lang.English), false},
	}
	for _, tt := range tests {
		got, known := refusal.Words(lang.English, tt.err)
		if got != tt.want || known != tt.known {
			t.Errorf("refusal.Words(%v) = %q, %v; want %q, %v", tt.err, got, known, tt.want, tt.known)
		}
		if strings.Contains(got, "engine:") || strings.Contains(got, "store:") {
			t.Errorf("internal text reaches the player: %q", got)
		}
	}
}

// TestRecordsSpeakWhoseLanguage: a French client's stats and seasons,
// which only they see, are in French; the leaderboard they ask for is
// the channel's, in the server's language: English until an admin
// chooses French.
func TestRecordsSpeakWhoseLanguage(t *testing.T) {
	u := newUnit(t)
	club := func(sub string) *discordgo.InteractionResponse {
		ic := discordtest.CommandOf(command.Club, guild, channel, alice, sub)
		ic.Locale = discordgo.French
		return u.ok(ic)
	}
	if title := club("stats").Data.Embeds[0].Title; !strings.HasPrefix(title, "Stats de cribbage") {
		t.Errorf("a French client's stats: %q", title)
	}
	if title := club("seasons").Data.Embeds[0].Title; title != "Saisons de cribbage" {
		t.Errorf("a French client's seasons: %q", title)
	}
	if title, _ := panelOf(club("leaderboard")); !strings.HasPrefix(title, "Cribbage leaderboard") {
		t.Errorf("the leaderboard of an English server: %q", title)
	}
	if _, err := u.admin(ada, "settings", opt("language", "fr")); err != nil {
		t.Fatal(err)
	}
	if title, _ := panelOf(club("leaderboard")); !strings.HasPrefix(title, "Classement de cribbage") {
		t.Errorf("the leaderboard of a French server: %q", title)
	}
}

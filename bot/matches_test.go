package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// matchTable is game 2 of Alice and Bob's best of 3, Alice having won game
// 1 with a skunk.
func matchTable(t *testing.T) *cribbage.Table {
	t.Helper()
	g, err := engine.NewWithDealer(engine.Options{Players: 2, Target: 121}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &cribbage.Table{ID: 8, Status: cribbage.StatusPlaying, Options: g.Options, State: g,
		Seats: []cribbage.Seat{{UserID: "1", Name: "Alice"}, {UserID: "2", Name: "Bob"}},
		Match: &cribbage.Match{ID: 7, BestOf: 3, Game: 2, Games: []cribbage.MatchGame{{Table: 7, Winner: 0, Reason: engine.ReasonTarget, Points: 3, Skunk: 1}}}}
}

// TestTheMatchOnTheTable: a match's game shows the score as the issue asks,
// after the game the score and where the next game is, and at the end who
// won and how; its buttons leave out Rematch while the match goes on.
func TestTheMatchOnTheTable(t *testing.T) {
	tb := matchTable(t)
	if d := render.Table(lang.English, tb, "").Text(); !strings.Contains(d, "\n**Match:** Alice 1 – Bob 0 · game 2 of best of 3 · game points 3–0\n") {
		t.Errorf("game 2 in play:\n%s", d)
	}
	if f := render.Table(lang.English, tb, "").Text(); !strings.Contains(f, " · best of 3 · last move <t:") {
		t.Errorf("footer %q", f)
	}
	// Bob wins game 2: one all, and game 3 is table 9.
	tb.Status, tb.RematchID = cribbage.StatusFinished, 9
	tb.State.Phase = engine.PhaseOver
	tb.State.Result = &engine.Result{Reason: engine.ReasonTarget, Winner: 1, Scores: []int{100, 121}, Skunks: []int{0, 0}, Games: 1}
	tb.Match.Games = append(tb.Match.Games, cribbage.MatchGame{Table: 8, Winner: 1, Reason: engine.ReasonTarget, Points: 2})
	r := render.Table(lang.English, tb, "")
	for _, want := range []string{"**Match:** Alice 1 – Bob 1 after game 2 of best of 3 · game points 3–2", "Game 3 of the match is table 9"} {
		if !strings.Contains(r.Text(), want) {
			t.Errorf("after game 2, no %q:\n%s", want, r.Text())
		}
	}
	for _, b := range buttonsOf(r.Components) {
		if strings.HasPrefix(b.CustomID, "/rematch/") {
			t.Errorf("Rematch offered in the middle of a match")
		}
	}
	if story := render.StoryText(lang.English, tb, engine.Event{Kind: engine.EvGameOver, Result: tb.State.Result}).Text; !strings.Contains(story, "Game 3 follows") {
		t.Errorf("the story of game 2's end: %s", story)
	}
	// The hand view of the finished game leads to the next.
	hv := render.Hand(lang.English, tb, 0, 0, "")
	found := false
	for _, b := range buttonsOf(hv.Components) {
		found = found || b.CustomID == "/hand/9"
	}
	if !found || !strings.Contains(hv.Text(), "after game 2") {
		t.Errorf("the hand view after game 2: %q, %+v", hv.Text(), hv.Components)
	}
	// Had Alice resigned the match with game 2, Bob would have won it.
	tb.Match.Conceded, tb.RematchID = true, 0
	tb.Match.Games[1].Reason = engine.ReasonResigned
	if line := render.MatchLine(lang.English, tb); line != "🏆 **Bob wins the match** 1–1 · game points 2–3 — Alice resigned the match." {
		t.Errorf("a conceded match: %s", line)
	}
	if _, ok := buttonNamed(render.Table(lang.English, tb, "").Components, "/rematch/8"); !ok {
		t.Error("no Rematch once the match is over")
	}
}

// TestAChallengeOnTheTable: an open challenge pings the person challenged
// alone and offers Accept, Decline and Withdraw; once it is over it says
// how, and offers nothing.
func TestAChallengeOnTheTable(t *testing.T) {
	tb, err := cribbage.NewChallenge("g", "c", cribbage.Seat{UserID: "1", Name: "Alice"}, cribbage.Seat{UserID: "2", Name: "Bob"}, engine.Options{Players: 2, Target: 61}, 5)
	if err != nil {
		t.Fatal(err)
	}
	tb.ID, tb.CreatedAt = 4, time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	r := render.Table(lang.English, tb, "")
	if call := discordtest.TextDisplays(r.Components); len(call) == 0 || call[0] != "<@2>, **Alice** challenges you to cribbage!" || !slices.Equal(r.Mentions, []string{"2"}) {
		t.Errorf("the challenge's first words %q, mentions %q", call, r.Mentions)
	}
	if am := r.AllowedMentions(); len(am.Parse) != 0 || len(am.Users) != 1 || am.Users[0] != "2" {
		t.Errorf("allowed mentions %+v", am)
	}
	d := r.Text()
	if !strings.Contains(d, "**Alice** challenges **Bob** to cribbage — 61 points, a best-of-5 match.") || !strings.Contains(d, fmt.Sprintf("lapses <t:%d:R>", tb.CreatedAt.Add(24*time.Hour).Unix())) {
		t.Errorf("the challenge:\n%s", d)
	}
	for _, id := range []string{"/accept/4", "/decline/4", "/withdraw/4"} {
		if _, ok := buttonNamed(r.Components, id); !ok {
			t.Errorf("no %s button", id)
		}
	}
	if !strings.Contains(d, "**Seat 2** · *held for Bob*") {
		t.Errorf("seat 2 is not held for Bob:\n%s", d)
	}
	if _, err := cribbage.DeclineChallenge(tb, "2"); err != nil {
		t.Fatal(err)
	}
	r = render.Table(lang.English, tb, "")
	if d := r.Text(); strings.Contains(d, "challenges you") || len(buttonsOf(r.Components)) != 0 || !strings.Contains(d, "Bob declined Alice's challenge.") {
		t.Errorf("declined: %d buttons:\n%s", len(buttonsOf(r.Components)), d)
	}
}

// buttonsOf lists the buttons of components.
func buttonsOf(comps []discordgo.MessageComponent) []discordgo.Button {
	return discordtest.Buttons(comps)
}

// buttonNamed finds a button by its custom_id.
func buttonNamed(comps []discordgo.MessageComponent, customID string) (discordgo.Button, bool) {
	for _, b := range buttonsOf(comps) {
		if b.CustomID == customID {
			return b, true
		}
	}
	return discordgo.Button{}, false
}

// TestHelpExplainsChallengesAndMatches: /cribbage help tells players how
// to challenge, play a match and agree a rematch, within a message.
func TestHelpExplainsChallengesAndMatches(t *testing.T) {
	for _, want := range []string{"`challenge user: @name`", "**Challenge to cribbage**", "match: best of 3", "a skunk 3", "resigned or forfeited game 2", "everyone has accepted"} {
		if !strings.Contains(render.Help(lang.English), want) {
			t.Errorf("help says nothing of %q", want)
		}
	}
	if n := len([]rune(render.Help(lang.English))); n > render.MaxContent {
		t.Errorf("help is %d characters, over Discord's %d", n, render.MaxContent)
	}
}

// TestACancelledLobbyHadNoMatch: an admin cancels a best-of-3 challenge
// nobody has answered, and a match's game 2: only the game says its match
// ends with it, as no match began at the lobby.
func TestACancelledLobbyHadNoMatch(t *testing.T) {
	const ends = "Its match ends with it"
	lobby := &cribbage.Table{ID: 3, Status: cribbage.StatusLobby, Options: engine.Options{Players: 2, Target: 121}, HostID: "1",
		Seats: []cribbage.Seat{{UserID: "1", Name: "Alice"}}, Challenge: &cribbage.Challenge{UserID: "2", Name: "Bob"},
		Match: &cribbage.Match{BestOf: 3, Game: 1}}
	game := matchTable(t)
	for _, tb := range []*cribbage.Table{lobby, game} {
		if err := tb.Cancel("9", "spam"); err != nil {
			t.Fatal(err)
		}
	}
	if d := render.Table(lang.English, lobby, "").Text(); strings.Contains(d, ends) {
		t.Errorf("the cancelled challenge speaks of a match that never began:\n%s", d)
	}
	if d := render.Table(lang.English, game, "").Text(); !strings.Contains(d, ends) {
		t.Errorf("the cancelled game 2 does not say its match ends:\n%s", d)
	}
}

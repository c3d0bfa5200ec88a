package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
)

// accentOf is the accent of a message's first container.
func accentOf(t *testing.T, r Message) int {
	t.Helper()
	for _, c := range r.Components {
		if c, ok := c.(discordgo.Container); ok && c.AccentColor != nil {
			return *c.AccentColor
		}
	}
	t.Fatal("no container with an accent")
	return 0
}

// TestTheAccentSaysWhoseTurn: the table message's container is the
// colour of the side the table waits on, the same as its pegs; the hand
// view is its seat's side's colour on its turn only; a lobby and a
// finished game are neutral.
func TestTheAccentSaysWhoseTurn(t *testing.T) {
	for _, opts := range []engine.Options{{Players: 2, Target: 121}, {Players: 3, Target: 121}, {Players: 4, Partners: true, Target: 121}} {
		tb, _ := goldenTable(t, opts, midPlay)
		turn := tb.State.Turn
		want := sideAccent(opts.SideOf(turn))
		if got := accentOf(t, Table(lang.English, tb, "")); got != want {
			t.Errorf("%d players: the table's accent %06x, want %06x (side %d's pegs)", opts.Players, got, want, opts.SideOf(turn))
		}
		if got := accentOf(t, Hand(lang.English, tb, turn, 0, "")); got != want {
			t.Errorf("%d players: the view of the seat to play is %06x, want %06x", opts.Players, got, want)
		}
		other := (turn + 1) % opts.Players
		if got := accentOf(t, Hand(lang.English, tb, other, 0, "")); got != neutral {
			t.Errorf("%d players: the view of a seat waiting is %06x, want neutral", opts.Players, got)
		}
	}
	tb, _ := goldenTable(t, engine.Options{Players: 2, Target: 121}, midPlay)
	tb.Status = cribbage.StatusFinished
	tb.State.Result = &engine.Result{Winner: 0, Scores: []int{121, 90}, Skunks: []int{0, 0}}
	if got := accentOf(t, Table(lang.English, tb, "")); got != neutral {
		t.Errorf("a finished table is %06x, want neutral", got)
	}
	lobby := &cribbage.Table{ID: 1, Status: cribbage.StatusLobby, Options: engine.Options{Players: 2, Target: 121}, HostID: "1", Seats: []cribbage.Seat{{UserID: "1", Name: "Ann"}}}
	if got := accentOf(t, Table(lang.English, lobby, "")); got != neutral {
		t.Errorf("a lobby is %06x, want neutral", got)
	}
}

// TestAV2MessageSaysSoEverywhere: every way a V2 render is sent carries
// the flag and no content or embeds, and its edit clears the content and
// embeds a legacy message had.
func TestAV2MessageSaysSoEverywhere(t *testing.T) {
	tb, _ := goldenTable(t, engine.Options{Players: 2, Target: 121}, midPlay)
	r := Table(lang.English, tb, "")
	UploadBoard(lang.English, &r, tb)
	if s := r.Send(); s.Flags != discordgo.MessageFlagsIsComponentsV2 || s.Content != "" || len(s.Embeds) != 0 {
		t.Errorf("send: flags %d, content %q, %d embeds", s.Flags, s.Content, len(s.Embeds))
	}
	if d := r.Response(true); d.Flags != discordgo.MessageFlagsIsComponentsV2|discordgo.MessageFlagsEphemeral || d.Content != "" || len(d.Embeds) != 0 {
		t.Errorf("response: flags %d, content %q, %d embeds", d.Flags, d.Content, len(d.Embeds))
	}
	raw, _ := json.Marshal(r.Edit("c", "m"))
	var edit map[string]json.RawMessage
	json.Unmarshal(raw, &edit)
	if string(edit["content"]) != `""` || string(edit["embeds"]) != "[]" || string(edit["flags"]) != "32768" {
		t.Errorf("the edit does not clear a legacy message into V2: content %s, embeds %s, flags %s", edit["content"], edit["embeds"], edit["flags"])
	}
	if !strings.Contains(string(raw), `"attachment://board.png"`) || len(r.Files) != 1 || r.Files[0].Name != boardFile {
		t.Errorf("the board is not shown with its upload: %s", raw)
	}
}

// TestTheChallengePingsFromItsText: a V2 challenge's line to the person
// challenged is a text display above the table, and allowed_mentions
// lets it ping them alone.
func TestTheChallengePingsFromItsText(t *testing.T) {
	tb, err := cribbage.NewChallenge("g", "c", cribbage.Seat{UserID: "1", Name: "Ann"}, cribbage.Seat{UserID: "2", Name: "Bob"}, engine.Options{Players: 2, Target: 61}, 3)
	if err != nil {
		t.Fatal(err)
	}
	r := Table(lang.English, tb, "")
	first, ok := r.Components[0].(discordgo.TextDisplay)
	if !ok || !strings.HasPrefix(first.Content, "<@2>") {
		t.Fatalf("the challenge does not open with its line to Bob: %+v", r.Components[0])
	}
	if am := r.AllowedMentions(); len(am.Parse) != 0 || len(am.Users) != 1 || am.Users[0] != "2" {
		t.Errorf("allowed mentions %+v", am)
	}
}

// TestARecordFitsV2: a story message with hand records counts its text
// and components as Discord does, and FitMessage cuts an oversized one
// to them.
func TestARecordFitsV2(t *testing.T) {
	long := strings.Repeat("Ann 5♣ 11 · ", 400)
	m := StoryMessage{Content: "Cut for deal.", Embeds: []*discordgo.MessageEmbed{{Title: "Hand 1", Description: long, Color: handColour}}}
	if n := len([]rune(m.layout().Text())); n <= maxV2Text {
		t.Fatalf("the test's record is only %d characters", n)
	}
	fit := FitMessage(m)
	r := fit.layout()
	if n := len([]rune(r.Text())); n > maxV2Text {
		t.Errorf("fitted, the record is %d characters, over %d", n, maxV2Text)
	}
	if !r.V2 || countComponents(r.Components) > maxV2Components {
		t.Errorf("fitted: V2 %v, %d components", r.V2, countComponents(r.Components))
	}
}

package render

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// TestAStoryMessageAsEmbeds: drawn for a channel webhook, a story
// message is not V2: its lines are the content, each record an embed
// with the first picture of its show as its image, another picture an
// embed of its own, and every file uploaded is one an embed shows.
func TestAStoryMessageAsEmbeds(t *testing.T) {
	cards := picture.Cards{Hands: []picture.Hand{{Label: "Ann", Cards: []engine.Card{engine.MustParseCard("5C"), engine.MustParseCard("5D")}}},
		Starter: engine.MustParseCard("JH")}
	m := StoryMessage{Content: "Cut for deal.", Mentions: []string{"2"},
		Embeds:   []*discordgo.MessageEmbed{{Title: "Hand 1", Description: "Ann 4", Color: handColour}, {Title: "Hand 2", Description: "Bob 2", Color: handColour}},
		Pictures: []picture.Cards{cards, cards, cards}, shows: []int{0, 0, 1}}
	r := m.EmbedMessage()
	if r.V2 || r.Flags() != 0 || r.Content != "Cut for deal." || len(r.Components) != 0 {
		t.Fatalf("drawn as V2 %v, flags %d, content %q, %d components", r.V2, r.Flags(), r.Content, len(r.Components))
	}
	want := []struct{ title, image string }{{"Hand 1", "show-1.png"}, {"Hand 2", "show-3.png"}, {"", "show-2.png"}}
	if len(r.Embeds) != len(want) {
		t.Fatalf("%d embeds, want %d", len(r.Embeds), len(want))
	}
	shown := map[string]bool{}
	for i, w := range want {
		e := r.Embeds[i]
		if e.Title != w.title || e.Image == nil || e.Image.URL != "attachment://"+w.image {
			t.Errorf("embed %d: %q with %+v, want %q with %s", i, e.Title, e.Image, w.title, w.image)
			continue
		}
		shown[w.image] = true
	}
	if len(r.Files) != 3 {
		t.Errorf("%d files, want 3", len(r.Files))
	}
	for _, f := range r.Files {
		if !shown[f.Name] {
			t.Errorf("file %s uploaded, shown by no embed", f.Name)
		}
	}
	if m.Embeds[0].Image != nil {
		t.Error("drawing the embeds changed the message's own records")
	}
	if am := r.AllowedMentions(); len(am.Users) != 1 || am.Users[0] != "2" {
		t.Errorf("allowed mentions %+v", am)
	}
}

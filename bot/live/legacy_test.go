package live

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// TestLegacyMessagesAreEditedIntoV2: a table message and a hand view
// drawn before Components V2 (content and an embed) are edited into V2
// at the next move, the first with the bot token and the second through
// its token (a body of the bot's own: discordgo's WebhookEdit has no
// flags), each clearing what it showed; the fake refuses any edit that
// does not (the rig fails on a refusal).
func TestLegacyMessagesAreEditedIntoV2(t *testing.T) {
	r := newRig(t, 2)
	legacy := map[string]any{"content": "Alice opened a cribbage table.", "embeds": []any{map[string]any{"title": "Cribbage · table 1"}}}
	raw, err := r.client.Do(r.ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(channel),
		Bucket: rest.PostBucket(channel), Route: "POST /channels/{channel}/messages", Body: legacy})
	if err != nil {
		t.Fatal(err)
	}
	var posted discordgo.Message
	if err := json.Unmarshal(raw, &posted); err != nil {
		t.Fatal(err)
	}
	id := posted.ID
	if err := r.store.SetMessages(r.ctx, r.id, id, ""); err != nil {
		t.Fatal(err)
	}
	if err := r.store.RecordBoard(r.ctx, r.id, ""); err != nil { // it has none
		t.Fatal(err)
	}
	// Bob's view, as a legacy answer: content only.
	i := r.interaction(1, handClick(r.id))
	r.answer(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "**Your hand** · table 1", Flags: discordgo.MessageFlagsEphemeral}})
	r.record(i, 1, r.clock.Now())
	r.settle()

	r.move(1) // Bob throws: his view shows it
	r.settle()
	r.advance(tokenEditGap)
	for name, m := range map[string]func() (discordtest.Message, bool){
		"the table message": func() (discordtest.Message, bool) { return r.fake.Message(id) },
		"Bob's hand view":   func() (discordtest.Message, bool) { m, _, ok := r.fake.Original(i.Token); return m, ok },
	} {
		got, ok := m()
		if !ok {
			t.Fatalf("%s is gone", name)
		}
		if got.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 || got.Content != "" || len(got.Embeds) != 0 || len(discordtest.TextDisplays(got.Components)) == 0 {
			t.Errorf("%s was not edited into V2: flags %d, content %q, %d embeds", name, got.Flags, got.Content, len(got.Embeds))
		}
	}
}

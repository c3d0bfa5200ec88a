package live

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// TestRenderSumTellsApartWhatJSONDoes: over the table messages and hand
// views of a game, in two languages, and small changes to one of them
// (a button disabled, an accent colour taken off, a separator's divider
// said false rather than left out), two messages share a digest exactly
// when their JSON, as Discord would be sent it, is the same.
func TestRenderSumTellsApartWhatJSONDoes(t *testing.T) {
	r := newRig(t, 2)
	fr, _ := lang.ByCode("fr")
	var msgs []render.Message
	for moves := 0; moves < 30 && r.table().Status == cribbage.StatusPlaying; moves++ {
		tb := r.table()
		for _, l := range []lang.Lang{lang.English, fr} {
			msgs = append(msgs, render.Table(l, tb, ""), render.Hand(l, tb, 0, 0, ""), render.Hand(l, tb, 1, 0, "a note"))
		}
		msgs = append(msgs, render.Table(lang.English, tb, "")) // the same again
		r.act(tb.State.Waiting()[0])
	}
	base := msgs[0]
	accent := 0xff0000
	no := false
	for _, change := range []func(c *discordgo.Container){
		func(c *discordgo.Container) { c.AccentColor = nil },
		func(c *discordgo.Container) { c.AccentColor = &accent },
		func(c *discordgo.Container) { c.Spoiler = true },
		func(c *discordgo.Container) { c.Components = append(c.Components, discordgo.Separator{}) },
		func(c *discordgo.Container) { c.Components = append(c.Components, discordgo.Separator{Divider: &no}) },
		func(c *discordgo.Container) {
			c.Components = append(c.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "x", CustomID: "y"}}})
		},
		func(c *discordgo.Container) {
			c.Components = append(c.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "x", CustomID: "y", Disabled: true}}})
		},
	} {
		m := base
		c, ok := m.Components[0].(discordgo.Container)
		if !ok {
			t.Fatalf("the table message is not a container: %T", m.Components[0])
		}
		c.Components = append([]discordgo.MessageComponent(nil), c.Components...)
		change(&c)
		m.Components = []discordgo.MessageComponent{c}
		msgs = append(msgs, m)
	}
	asJSON := func(m render.Message) string {
		raw, err := json.Marshal(struct {
			Content    string
			Embeds     any
			Components any
		}{m.Content, m.Embeds, m.Components})
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	same, different := 0, 0
	for i := range msgs {
		for j := i + 1; j < len(msgs); j++ {
			sameJSON := asJSON(msgs[i]) == asJSON(msgs[j])
			if sameSum := renderSum(msgs[i]) == renderSum(msgs[j]); sameSum != sameJSON {
				t.Fatalf("messages %d and %d: same JSON %v, same digest %v", i, j, sameJSON, sameSum)
			}
			if sameJSON {
				same++
			} else {
				different++
			}
		}
	}
	if same == 0 || different == 0 {
		t.Errorf("%d pairs the same and %d different: the test compares nothing", same, different)
	}
}

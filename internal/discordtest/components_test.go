package discordtest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// componentsCorpus is component lists the fake reads: every kind
// discordgo knows, nested as V2 nests them, and the edge cases of its
// decoding (no list, an empty one, nulls where discordgo refuses them).
func componentsCorpus(t testing.TB) []string {
	colour, minimum, divider := 0x2e7d32, 1, true
	spacing := discordgo.SeparatorSpacingSizeLarge
	caption := "the board"
	all := []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: "**Your hand** · 8♠"},
		discordgo.Container{ID: 7, AccentColor: &colour, Spoiler: true, Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "Count: 11"},
			discordgo.ActionsRow{ID: 3, Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "8♦", Style: discordgo.PrimaryButton, CustomID: "/play/7/x/8D"},
				discordgo.Button{Label: "Hint", Style: discordgo.SecondaryButton, Disabled: true, Emoji: &discordgo.ComponentEmoji{Name: "💡"}, CustomID: "/hint/7"},
				discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com/rules"},
			}},
			discordgo.Section{ID: 4, Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "a"}},
				Accessory: discordgo.Thumbnail{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}, Description: &caption}},
			discordgo.Section{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "b"}},
				Accessory: discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: "/join/7"}},
			discordgo.MediaGallery{ID: 5, Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://show.png"}, Description: &caption, Spoiler: true}}},
			discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "attachment://game.txt"}, Spoiler: true},
			discordgo.Separator{Divider: &divider, Spacing: &spacing},
			discordgo.Separator{},
		}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.StringSelectMenu, CustomID: "/pick/7", Placeholder: "Choose", MinValues: &minimum, MaxValues: 2,
			Options: []discordgo.SelectMenuOption{{Label: "5♥", Value: "5H", Description: "five", Emoji: &discordgo.ComponentEmoji{Name: "♥️"}, Default: true}},
		}}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.ChannelSelectMenu, CustomID: "/where", ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText},
			DefaultValues: []discordgo.SelectMenuDefaultValue{{ID: "1", Type: discordgo.SelectMenuDefaultValueChannel}},
		}}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "/why", Label: "Why", Style: discordgo.TextInputParagraph,
			Placeholder: "say", Value: "v", Required: true, MinLength: 1, MaxLength: 100}}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Style: discordgo.PremiumButton, SKUID: "9"}}},
	}
	sent, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	return []string{
		string(sent),
		"", "null", "[]",
		`[{"type":1}]`, `[{"type":1,"components":null}]`, `[{"type":17,"components":[]}]`,
		`[{"type":9,"components":[{"type":10,"content":"x"}]}]`,
		`[{"type":9,"components":[],"accessory":null}]`,
		`[{"type":9,"components":[],"accessory":{"type":99}}]`,
		`[null]`, `[{"type":99}]`, `[{"type":1,"components":[{"type":0}]}]`,
		`[{"type":2,"label":"x","components":"not a list"}]`,
		`[{"type":2,"style":-1}]`, `[{"type":2,"Custom_ID":"mixed case"}]`,
		`[{"type":10,"content":"a","id":3}]`,
		`{"type":1}`, `[`,
		// A key twice: discordgo builds each list and accessory anew, and
		// refuses a bad one wherever it appears.
		`[{"type":1,"components":[{"type":2,"label":"a","custom_id":"x"}],"components":[{"type":2}]}]`,
		`[{"type":1,"components":[{"type":2,"label":"a","custom_id":"x"}],"Components":[{"type":2}]}]`,
		`[{"type":17,"components":[{"type":9,"components":[],"accessory":{"type":2}}],"components":[{"type":9,"components":[]}]}]`,
		`[{"type":17,"components":[{"type":11,"spoiler":true}],"components":[{"type":11}]}]`,
		`[{"type":1,"components":[null],"components":[]}]`,
		`[{"type":17,"components":[{"type":99}],"components":[]}]`,
		`[{"type":9,"components":[],"accessory":null,"accessory":{"type":2}}]`,
		`[{"type":2,"emoji":{"name":"x","id":"1"},"emoji":{"name":"y"}}]`,
	}
}

// TestComponentsDecodeAsDiscordgoDoes holds decodeComponents to
// discordgo's own decoding: the same values, or an error where it errs.
func TestComponentsDecodeAsDiscordgoDoes(t *testing.T) {
	for _, raw := range componentsCorpus(t) {
		sameAsDiscordgo(t, []byte(raw))
	}
}

// sameAsDiscordgo fails t if decodeComponents reads raw otherwise than
// discordgo.
func sameAsDiscordgo(t *testing.T, raw []byte) {
	t.Helper()
	want, wantErr := discordgoComponents(raw)
	got, err := decodeComponents(raw)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: error %v, discordgo's %v", raw, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s:\ndecoded %#v\n  (%s)\ndiscordgo %#v\n  (%s)", raw, got, g, want, w)
	}
}

// FuzzDecodeComponents reads whatever a message's components may be (the
// bot's bodies are untrusted input to the fake) as discordgo does.
func FuzzDecodeComponents(f *testing.F) {
	for _, raw := range componentsCorpus(f) {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameAsDiscordgo(t, raw)
	})
}

// BenchmarkDecodeComponents is a hand view's components, decoded as the
// fake decodes every answer's.
func BenchmarkDecodeComponents(b *testing.B) {
	colour := 29362
	row := func(ids ...string) discordgo.ActionsRow {
		var r discordgo.ActionsRow
		for _, id := range ids {
			r.Components = append(r.Components, discordgo.Button{Label: id, Style: discordgo.PrimaryButton, CustomID: "/play/7/x/" + id})
		}
		return r
	}
	raw, _ := json.Marshal([]discordgo.MessageComponent{discordgo.Container{AccentColor: &colour, Components: []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: "**Your hand** · table 7 · hand 1\nStarter: **8♠**\nCount: **11** — 6♥ 5♣\n**Your turn** — choose a card."},
		row("8D", "9H", "QC"), row("refresh", "hint"),
	}}})
	for _, c := range []struct {
		name   string
		decode func([]byte) ([]discordgo.MessageComponent, error)
	}{{"fake", decodeComponents}, {"discordgo", discordgoComponents}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.decode(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestWireComponentReadsEveryField: every field a kind of component has
// in discordgo has a field of the same JSON name in wireComponent, so
// that a discordgo that grows one fails here rather than the fake
// dropping it.
func TestWireComponentReadsEveryField(t *testing.T) {
	names := map[string]bool{}
	wire := reflect.TypeFor[wireComponent]()
	for i := range wire.NumField() {
		names[jsonName(wire.Field(i))] = true
	}
	for _, kind := range []any{discordgo.ActionsRow{}, discordgo.Button{}, discordgo.SelectMenu{}, discordgo.TextInput{},
		discordgo.Section{}, discordgo.TextDisplay{}, discordgo.Thumbnail{}, discordgo.MediaGallery{},
		discordgo.FileComponent{}, discordgo.Separator{}, discordgo.Container{}} {
		k := reflect.TypeOf(kind)
		for i := range k.NumField() {
			if name := jsonName(k.Field(i)); name != "-" && !names[name] {
				t.Errorf("%s's %s (%q) is not read by wireComponent", k.Name(), k.Field(i).Name, name)
			}
		}
	}
}

// jsonName is the key encoding/json reads a field from.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

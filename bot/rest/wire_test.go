package rest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// wireCorpus is every kind of component, in the shapes the bot sends and
// in the ones it does not: zero values, nil lists and pointers, ids, and
// strings encoding/json escapes.
func wireCorpus() []discordgo.MessageComponent {
	colour, zero := 0x72b2, 0
	divider, no := true, false
	spacing := discordgo.SeparatorSpacingSizeLarge
	desc, empty := "a <b> & \"c\"", ""
	one := 1
	awkward := []string{"", "plain", "8♦ Q♣ 10♥", "<b>&amp;</b>", "quote \" and \\ back", "line\nbreak\ttab\rcr\bbs\ffeed\x00\x1f",
		"sep \u2028 para \u2029", "bad \xff utf8 \xe2\x82", "emoji 💡🃏", "del \x7f", "\u00e9t\u00e9"}
	var cs []discordgo.MessageComponent
	for _, s := range awkward {
		cs = append(cs,
			discordgo.Button{Label: s, CustomID: s, URL: s, SKUID: s, Emoji: &discordgo.ComponentEmoji{Name: s, ID: s}},
			discordgo.TextDisplay{Content: s},
			discordgo.Thumbnail{Media: discordgo.UnfurledMediaItem{URL: s}, Description: &s},
		)
	}
	cs = append(cs,
		discordgo.Button{},
		discordgo.Button{Style: discordgo.DangerButton, Disabled: true, ID: 9, Emoji: &discordgo.ComponentEmoji{}},
		discordgo.Button{Emoji: &discordgo.ComponentEmoji{Animated: true}},
		discordgo.Button{Emoji: &discordgo.ComponentEmoji{ID: "123", Animated: true}},
		&discordgo.Button{Label: "pointer", Style: discordgo.LinkButton, URL: "https://example.com/?a=1&b=2"},
		(*discordgo.Button)(nil),
		discordgo.ActionsRow{},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{}, ID: 3},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "a"}, nil, &discordgo.Button{Label: "b"}}},
		&discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{CustomID: "menu", MinValues: &one, Options: []discordgo.SelectMenuOption{{Label: "x", Value: "y"}}}}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "points", Label: "Points", Style: discordgo.TextInputShort}}},
		(*discordgo.ActionsRow)(nil),
		discordgo.TextDisplay{},
		(*discordgo.TextDisplay)(nil),
		&discordgo.TextDisplay{Content: "pointer"},
		discordgo.Container{},
		discordgo.Container{ID: 4, AccentColor: &colour, Spoiler: true, Components: []discordgo.MessageComponent{}},
		discordgo.Container{AccentColor: &zero},
		&discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "**Your hand**"},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "8♦", CustomID: "/play/7/wuvd7g/8D"}}},
			discordgo.Separator{Divider: &no},
			discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
			discordgo.Section{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "a"}}, Accessory: discordgo.Thumbnail{}},
		}},
		(*discordgo.Container)(nil),
		discordgo.Section{},
		discordgo.Section{ID: 2, Components: []discordgo.MessageComponent{}, Accessory: &discordgo.Button{Label: "go"}},
		(*discordgo.Section)(nil),
		discordgo.Thumbnail{},
		discordgo.Thumbnail{ID: 5, Description: &empty, Spoiler: true},
		(*discordgo.Thumbnail)(nil),
		discordgo.MediaGallery{},
		discordgo.MediaGallery{ID: 6, Items: []discordgo.MediaGalleryItem{}},
		discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Description: &desc, Spoiler: true}, {}}},
		(*discordgo.MediaGallery)(nil),
		discordgo.FileComponent{},
		discordgo.FileComponent{ID: 7, File: discordgo.UnfurledMediaItem{URL: "attachment://game.txt"}, Spoiler: true},
		(*discordgo.FileComponent)(nil),
		discordgo.Separator{},
		discordgo.Separator{ID: 8},
		discordgo.Separator{Divider: &divider},
		discordgo.Separator{Spacing: &spacing},
		discordgo.Separator{ID: 1, Divider: &no, Spacing: &spacing},
		(*discordgo.Separator)(nil),
		discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu, Placeholder: "<who>"},
		wired{discordgo.TextDisplay{Content: "wired twice"}},
	)
	return cs
}

// TestWiredMarshalsAsDiscordgo holds wired to discordgo's bytes for every
// component of the corpus, alone, in a list and inside a message's body.
func TestWiredMarshalsAsDiscordgo(t *testing.T) {
	cs := wireCorpus()
	for i, c := range cs {
		want, werr := json.Marshal(c)
		got, gerr := json.Marshal(wired{c})
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Errorf("component %d (%T):\n got %s (%v)\nwant %s (%v)", i, c, got, gerr, want, werr)
		}
	}
	// In a list, a nil pointer is left out: discordgo's MarshalJSON panics
	// on one there, where wired writes null as it does for one alone.
	cs = slices.DeleteFunc(cs, func(c discordgo.MessageComponent) bool {
		v := reflect.ValueOf(c)
		return v.Kind() == reflect.Pointer && v.IsNil()
	})
	want, err := json.Marshal(&discordgo.MessageSend{Components: cs})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(&discordgo.MessageSend{Components: wire(cs)})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("a body of the whole corpus:\n got %s\nwant %s", got, want)
	}
	if wire(nil) != nil {
		t.Error("wire(nil) is not nil: a body would send [] where it sent null")
	}
}

// TestBodiesAreWired checks every kind of body MarshalBody wires: its
// bytes are json.Marshal's, the copy it marshals holds wired components
// (so none takes discordgo's slow path), and the body it was given still
// holds discordgo's own.
func TestBodiesAreWired(t *testing.T) {
	colour := 0x72b2
	cs := func() []discordgo.MessageComponent {
		return []discordgo.MessageComponent{
			discordgo.Container{AccentColor: &colour, Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "a <b>"}}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "8♦", CustomID: "/play/7/x/8D"}}},
		}
	}
	edit, send, params := cs(), cs(), cs()
	bodies := []struct {
		name  string
		body  any
		comps func(any) []discordgo.MessageComponent
	}{
		{"InteractionResponse", discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Components: cs()}},
			func(b any) []discordgo.MessageComponent {
				if r, ok := b.(*discordgo.InteractionResponse); ok {
					return r.Data.Components
				}
				return b.(discordgo.InteractionResponse).Data.Components
			}},
		{"*InteractionResponse", &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Components: cs(), Flags: 64}},
			func(b any) []discordgo.MessageComponent { return b.(*discordgo.InteractionResponse).Data.Components }},
		{"WebhookEdit", WebhookEdit{WebhookEdit: discordgo.WebhookEdit{Components: &edit}, Flags: discordgo.MessageFlagsIsComponentsV2},
			func(b any) []discordgo.MessageComponent { return *b.(WebhookEdit).Components }},
		{"*MessageEdit", &discordgo.MessageEdit{ID: "1", Channel: "2", Components: &edit},
			func(b any) []discordgo.MessageComponent { return *b.(*discordgo.MessageEdit).Components }},
		{"*MessageSend", &discordgo.MessageSend{Components: send},
			func(b any) []discordgo.MessageComponent { return b.(*discordgo.MessageSend).Components }},
		{"MessageCreate", MessageCreate{MessageSend: &discordgo.MessageSend{Components: send}, Nonce: "n1", EnforceNonce: true},
			func(b any) []discordgo.MessageComponent { return b.(MessageCreate).MessageSend.Components }},
		{"*WebhookParams", &discordgo.WebhookParams{Components: params},
			func(b any) []discordgo.MessageComponent { return b.(*discordgo.WebhookParams).Components }},
	}
	for _, tc := range bodies {
		want, err := json.Marshal(tc.body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalBody(tc.body)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tc.name, got, err, want)
		}
		for i, c := range tc.comps(wiredBody(tc.body)) {
			if _, ok := c.(wired); !ok {
				t.Errorf("%s: the marshalled copy's component %d is a %T, not wired", tc.name, i, c)
			}
		}
		for i, c := range tc.comps(tc.body) {
			if _, ok := c.(wired); ok {
				t.Errorf("%s: the body given has its component %d wired", tc.name, i)
			}
		}
	}
	for _, b := range []any{nil, (*discordgo.MessageEdit)(nil), &discordgo.MessageEdit{ID: "1"}, &discordgo.ThreadStart{Name: "t"}} {
		want, _ := json.Marshal(b)
		if got, err := MarshalBody(b); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%#v: %s (%v), want %s", b, got, err, want)
		}
	}
}

// TestWiredKnowsEveryField fails when a discordgo upgrade gives a
// component wired writes itself a field wired does not know: its JSON
// would be missing from what the bot sends.
func TestWiredKnowsEveryField(t *testing.T) {
	known := map[reflect.Type][]string{
		reflect.TypeFor[discordgo.ActionsRow]():        {"components", "id"},
		reflect.TypeFor[discordgo.Button]():            {"label", "style", "disabled", "emoji", "url", "custom_id", "sku_id", "id"},
		reflect.TypeFor[discordgo.ComponentEmoji]():    {"name", "id", "animated"},
		reflect.TypeFor[discordgo.TextDisplay]():       {"content"},
		reflect.TypeFor[discordgo.Container]():         {"id", "accent_color", "spoiler", "components"},
		reflect.TypeFor[discordgo.Section]():           {"id", "components", "accessory"},
		reflect.TypeFor[discordgo.Thumbnail]():         {"id", "media", "description", "spoiler"},
		reflect.TypeFor[discordgo.MediaGallery]():      {"id", "items"},
		reflect.TypeFor[discordgo.MediaGalleryItem]():  {"media", "description", "spoiler"},
		reflect.TypeFor[discordgo.FileComponent]():     {"id", "file", "spoiler"},
		reflect.TypeFor[discordgo.Separator]():         {"id", "divider", "spacing"},
		reflect.TypeFor[discordgo.UnfurledMediaItem](): {"url"},
	}
	for typ, fields := range known {
		var got []string
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			got = append(got, name)
		}
		if !slices.Equal(got, fields) {
			t.Errorf("discordgo's %s has the fields %q; wired writes %q", typ, got, fields)
		}
	}
}

// FuzzWired builds component trees from the fuzzer's bytes and strings
// and holds wired to discordgo's bytes for each.
func FuzzWired(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, "8♦", "<&>")
	f.Add([]byte{9, 9, 0, 1, 1, 2, 255, 128}, "line\n\u2028", "\xff")
	f.Add([]byte{3, 7, 7, 7, 2, 0, 4}, "", "💡")
	f.Fuzz(func(t *testing.T, shape []byte, s1, s2 string) {
		g := &treeGen{shape: shape, strs: []string{s1, s2, s1 + s2}}
		c := g.component(0)
		want, werr := json.Marshal(c)
		got, gerr := json.Marshal(wired{c})
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%#v:\n got %s (%v)\nwant %s (%v)", c, got, gerr, want, werr)
		}
	})
}

// treeGen makes a component tree from bytes, each byte choosing the next
// kind, field or string.
type treeGen struct {
	shape []byte
	at    int
	strs  []string
}

func (g *treeGen) next() int {
	if g.at >= len(g.shape) {
		return 0
	}
	g.at++
	return int(g.shape[g.at-1])
}

func (g *treeGen) str() string { return g.strs[g.next()%len(g.strs)] }

func (g *treeGen) strPtr() *string {
	if g.next()%2 == 0 {
		return nil
	}
	s := g.str()
	return &s
}

func (g *treeGen) list(depth int) []discordgo.MessageComponent {
	n := g.next() % 5
	if n == 4 {
		return nil
	}
	cs := make([]discordgo.MessageComponent, n)
	for i := range cs {
		cs[i] = g.component(depth + 1)
	}
	return cs
}

func (g *treeGen) component(depth int) discordgo.MessageComponent {
	kind := g.next() % 12
	if depth > 3 && kind <= 2 {
		kind = 4 // deep enough: a leaf
	}
	id := g.next() % 3
	switch kind {
	case 0:
		return discordgo.Container{ID: id, Spoiler: id == 1, Components: g.list(depth)}
	case 1:
		colour := g.next() << 8
		return &discordgo.Container{AccentColor: &colour, Components: g.list(depth)}
	case 2:
		return discordgo.ActionsRow{ID: id, Components: g.list(depth)}
	case 3:
		return discordgo.Section{ID: id, Components: g.list(depth + 3), Accessory: g.component(depth + 4)}
	case 4:
		b := discordgo.Button{Label: g.str(), Style: discordgo.ButtonStyle(g.next() % 6), Disabled: id == 2, CustomID: g.str(), ID: id}
		if g.next()%2 == 1 {
			b.Emoji = &discordgo.ComponentEmoji{Name: g.str(), Animated: id == 1}
		}
		if g.next()%3 == 0 {
			b.URL, b.SKUID = g.str(), g.str()
		}
		return b
	case 5:
		return discordgo.TextDisplay{Content: g.str()}
	case 6:
		return discordgo.Thumbnail{ID: id, Media: discordgo.UnfurledMediaItem{URL: g.str()}, Description: g.strPtr(), Spoiler: id == 2}
	case 7:
		items := make([]discordgo.MediaGalleryItem, g.next()%3)
		for i := range items {
			items[i] = discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: g.str()}, Description: g.strPtr(), Spoiler: g.next()%2 == 0}
		}
		return discordgo.MediaGallery{ID: id, Items: items}
	case 8:
		return discordgo.FileComponent{ID: id, File: discordgo.UnfurledMediaItem{URL: g.str()}, Spoiler: id == 1}
	case 9:
		s := discordgo.Separator{ID: id}
		if v := g.next() % 3; v > 0 {
			d := v == 2
			s.Divider = &d
		}
		if v := g.next() % 3; v > 0 {
			sp := discordgo.SeparatorSpacingSize(v)
			s.Spacing = &sp
		}
		return s
	case 10:
		return discordgo.SelectMenu{CustomID: g.str(), Placeholder: g.str()}
	}
	return nil
}

// BenchmarkWired is a hand view's edit body marshalled as the REST client
// does (MarshalBody: the body copied, its components wired) and as
// discordgo does (json.Marshal).
func BenchmarkWired(b *testing.B) {
	play := func(label, id string) discordgo.MessageComponent {
		return discordgo.Button{Label: label, Style: discordgo.PrimaryButton, CustomID: "/play/7/wuvd7g/" + id}
	}
	colour := 0x72b2
	view := []discordgo.MessageComponent{discordgo.Container{AccentColor: &colour, Components: []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: "**Your hand** · table 7 · hand 1 · Ann deals · Ann 0 · Bob 0\nStarter: **8♠**\nCount: **11** — 6♥ 5♣\nYou have played 6♥.\n**Your turn** — choose a card."},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{play("8♦", "8D"), play("9♥", "9H"), play("Q♣", "QC")}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Refresh", Style: discordgo.SecondaryButton, CustomID: "/refresh/7"},
			discordgo.Button{Label: "Hint", Style: discordgo.SecondaryButton, CustomID: "/hint/7/wuvd7g", Emoji: &discordgo.ComponentEmoji{Name: "💡"}}}},
	}}}
	body := WebhookEdit{WebhookEdit: discordgo.WebhookEdit{Components: &view}, Flags: discordgo.MessageFlagsIsComponentsV2}
	for _, run := range []struct {
		name    string
		marshal func(any) ([]byte, error)
	}{{"wired", MarshalBody}, {"discordgo", json.Marshal}} {
		b.Run(run.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := run.marshal(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package render

import (
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// Components V2 (message flag IS_COMPONENTS_V2): what players look at is
// laid out in components — a Container with an accent colour, Text
// Displays, a Media Gallery for a picture, and the buttons' action rows
// inside the container, under the text they act on. Such a message has
// no content or embeds, and once sent it stays V2: every edit of it says
// the flag (Message.Edit, and bot/live's edits through a token, which
// discordgo's WebhookEdit cannot flag).

// neutral is the accent of a container whose table waits on no one side:
// a lobby, a finished game, a throw everybody makes at once.
const neutral = 0x99aab5

// sideMarks are the emoji that stand for each side's pegs in text, in
// the order of picture.SideColour (vermillion, blue, green, purple).
var sideMarks = []string{"🟠", "🔵", "🟢", "🟣"}

// sideMark is the mark of a side's pegs.
func sideMark(side int) string { return sideMarks[side%len(sideMarks)] }

// sideAccent is a side's peg colour as an accent.
func sideAccent(side int) int {
	c := picture.SideColour(side)
	return int(c.R)<<16 | int(c.G)<<8 | int(c.B)
}

// turnAccent is the accent that says whose turn it is at t: the colour of
// the one side every seat it waits on belongs to, else neutral.
func turnAccent(t *cribbage.Table) int {
	if t.Status != cribbage.StatusPlaying || t.State == nil {
		return neutral
	}
	seats := t.Waiting()
	if len(seats) == 0 {
		return neutral
	}
	side := t.Options.SideOf(seats[0])
	for _, s := range seats[1:] {
		if t.Options.SideOf(s) != side {
			return neutral
		}
	}
	return sideAccent(side)
}

// TextDisplay is a Text Display of lines, or nil when they are all empty.
func TextDisplay(lines ...string) discordgo.MessageComponent {
	var kept []string
	for _, l := range lines {
		if l != "" {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return discordgo.TextDisplay{Content: strings.Join(kept, "\n")}
}

// Gallery shows one uploaded picture, named file, across the message.
func Gallery(file string) discordgo.MessageComponent {
	return discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + file}}}}
}

// Container is a Container of accent holding children, the nil ones
// left out.
func Container(accent int, children ...discordgo.MessageComponent) discordgo.Container {
	c := discordgo.Container{AccentColor: &accent}
	for _, ch := range children {
		if ch != nil {
			c.Components = append(c.Components, ch)
		}
	}
	return c
}

// V2 makes a message of components: V2, with no content or embeds.
func V2(components ...discordgo.MessageComponent) Message {
	r := Message{V2: true}
	for _, c := range components {
		if c != nil {
			r.Components = append(r.Components, c)
		}
	}
	return r
}

// Text is the words a message shows, in order: its content, its embeds'
// titles, descriptions, fields and footers, and its text displays
// wherever they sit. Logs and tests read a message through it, and
// TextOf reads a message Discord sent back the same way.
func (r Message) Text() string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(r.Content)
	for _, e := range r.Embeds {
		add(e.Title)
		add(e.Description)
		for _, f := range e.Fields {
			add(f.Name)
			add(f.Value)
		}
		if e.Footer != nil {
			add(e.Footer.Text)
		}
	}
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			// Values as rendered, pointers as read back from Discord.
			switch c := c.(type) {
			case discordgo.TextDisplay:
				add(c.Content)
			case *discordgo.TextDisplay:
				add(c.Content)
			case discordgo.Container:
				walk(c.Components)
			case *discordgo.Container:
				walk(c.Components)
			case discordgo.Section:
				walk(c.Components)
			case *discordgo.Section:
				walk(c.Components)
			}
		}
	}
	walk(r.Components)
	return strings.Join(parts, "\n")
}

// withPicture puts the picture of file into the message's first
// container, under its first text (the heading), unless a gallery is
// there already.
func (r *Message) withPicture(file string) {
	for i, c := range r.Components {
		c, ok := c.(discordgo.Container)
		if !ok {
			continue
		}
		for _, ch := range c.Components {
			if _, ok := ch.(discordgo.MediaGallery); ok {
				return
			}
		}
		at := min(1, len(c.Components))
		c.Components = append(c.Components[:at:at], append([]discordgo.MessageComponent{Gallery(file)}, c.Components[at:]...)...)
		r.Components[i] = c
		return
	}
}

// Above puts a line above all the message shows: its content, or for a
// V2 message a text display before its first component.
func (r *Message) Above(line string) {
	if !r.V2 {
		r.Content = line
		return
	}
	r.Components = append([]discordgo.MessageComponent{discordgo.TextDisplay{Content: line}}, r.Components...)
}

// Notice is a message of one line that takes the place of a message of
// components (a hand view once its player resigned): a V2 message stays
// V2, so the line is a text display, not content.
func Notice(text string) Message { return V2(TextDisplay(text)) }

// TextOf is the words a message Discord sent shows, as Message.Text
// words a render: a rendered message and Discord's copy of it read the
// same.
func TextOf(m *discordgo.Message) string {
	return Message{Content: m.Content, Embeds: m.Embeds, Components: m.Components}.Text()
}

// Panel is a list drawn in Components V2 (the leaderboard): one
// Container of accent with the title as a heading, the body under it,
// and foot, if any, in small print.
func Panel(accent int, title, body, foot string) Message {
	var small string
	if foot != "" {
		small = "-# " + foot
	}
	return V2(Container(accent, TextDisplay("### "+title), TextDisplay(body), TextDisplay(small)))
}

package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// The story is the table's record in its thread: what a reader wants to
// keep, not a ticker. The lines of a hand in progress are queued as they
// happen but wait (kindLine); the change that ends the hand, or deals the
// next, queues a post, and that post carries the hand's lines with it, as
// one embed a hand. Between hands come the cut for deal, each deal's
// commitment and the result. The table message and the hand views show
// the game live; the story needs no post per card.

// Outbox kinds, delivered by the sender (bot/sender) through bot/story.
const (
	KindPost   = "post"   // a story message for the table's thread (or channel): sent, with the lines before it
	KindLine   = "line"   // a line of a hand in progress: sent only with the post after it
	KindTable  = "table"  // bring the table message up to date (the live surface, bot/live)
	KindThread = "thread" // open the table's thread on its message
	KindOpen   = "open"   // post the table message of a table no interaction answers with (a match's next game, a rematch)
)

// PostPayload is a story item as queued. Pictures are drawn when it is
// sent, so the queue holds their few cards, not their pixels.
type PostPayload struct {
	// Content is a plain message (a reminder, a rematch's first line).
	Content string `json:"content,omitempty"`
	// Lines are the story's lines, each with its hand.
	Lines    []StoryEntry    `json:"lines,omitempty"`
	Mentions []string        `json:"mentions,omitempty"`
	Pictures []picture.Cards `json:"pictures,omitempty"`
}

// StoryEntry is one line of the story. Hand is the hand whose record it is
// in (0 for lines between games' hands, which go in the message's text);
// a fragment (Frag) joins the fragment before it on one line, so a run of
// the play reads "Bob A♣ 1 · Alice 5♣ 6 · …".
type StoryEntry struct {
	Text string `json:"text"`
	Hand int    `json:"hand,omitempty"`
	// Title is the title of its hand's record, in the story's language
	// ("" in lines queued before it was kept: English).
	Title string `json:"title,omitempty"`
	Frag  bool   `json:"frag,omitempty"`
	// End marks the fragment that ends a run of the play (a go, the last
	// card, 31): the next run starts a line of its own.
	End bool `json:"end,omitempty"`
	// Show marks a hand's or the crib's count at the show: the picture
	// of the show goes under the last of them.
	Show bool `json:"show,omitempty"`
}

// encode is the payload as queued. A post is strings only, which JSON
// always encodes; a failure would be a bug, and must not queue an empty
// announcement.
func (p PostPayload) encode() string {
	raw, err := json.Marshal(p)
	if err != nil {
		panic(fmt.Sprintf("bot: encode a post: %v", err))
	}
	return string(raw)
}

// Story turns a change's events into the story: one outbox item, a
// Post when the change ends a hand, deals one, cuts for deal or ends the
// game (so a deal's commitment is public before anyone plays a card), a
// waiting line otherwise. Nobody is mentioned: the table message and hand
// views say whose turn it is, and a player the table waits on is pinged
// only after a pause (timers.go).
func Story(l lang.Lang, t *cribbage.Table, events []engine.Event) []cribbage.Outbound {
	hand := t.State.HandNo
	for _, e := range events {
		if e.Kind == engine.EvDeal {
			hand--
		}
	}
	var lines []StoryEntry
	flush, ended := false, false
	for _, e := range events {
		h := hand
		switch e.Kind {
		case engine.EvDeal:
			// The deal closes the record of the hand that ended in the
			// same change: its commitment goes out with that post, before
			// anyone sees a card. A deal of its own (at muggins tables a
			// person deals) is a line between hands.
			h, hand, flush = 0, e.N, true
			if ended {
				h = e.N - 1
			}
		case engine.EvHandOver:
			flush, ended = true, true
		case engine.EvCutForDeal, engine.EvGameOver, engine.EvResign, engine.EvMuggins:
			// Muggins too: a penalty is news at the table.
			flush = true
		}
		if line := StoryText(l, t, e); line.Text != "" {
			line.Hand = h
			line.Show = e.Kind == engine.EvShow || e.Kind == engine.EvClaim
			if h != 0 {
				line.Title = l.T("record.title", "N", h)
			}
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	p := PostPayload{Lines: lines}
	if show, ok := showPicture(l, t, events); ok {
		p.Pictures = []picture.Cards{show}
	}
	kind := KindLine
	if flush {
		kind = KindPost
	}
	return []cribbage.Outbound{{ChannelID: t.ChannelID, Kind: kind, Payload: p.encode(), Waits: kind == KindLine}}
}

// StoryMessage is one message of the story as composed: the lines
// between hands (Content), each hand's record (an embed's title and
// lines), whom it pings and the pictures of its shows. Message draws it.
type StoryMessage struct {
	Content  string
	Embeds   []*discordgo.MessageEmbed
	Mentions []string
	Pictures []picture.Cards
	// shows is the hand record (an index in Embeds) each picture shows,
	// -1 for one outside any; showEnd is, for each record, where in its
	// lines its show's count ends (0: at their end), where its picture
	// goes.
	shows   []int
	showEnd map[int]int
}

// Discord's limits on a message.
const (
	MaxContent  = 2000 // characters of content
	maxMentions = 100  // users allowed_mentions may name
	maxFiles    = 10   // files uploaded with it
	maxEmbeds   = 10   // hand records in one message
	// A V2 message: text displays' characters in all, and components
	// counting nested ones.
	maxV2Text       = 4000
	maxV2Components = 40
)

// handColour is the colour of a hand's record.
const handColour = 0x2e7d32

// Gather returns the items one story message of a table carries, in order:
// from its first pending item, the lines of a hand and the post that ends
// it, then later posts with the lines before each, while they fit in one
// message (through, when set, is where a message sealed earlier ends, and
// then exactly those items go). Lines with no post after them wait: their
// hand is not over. It stops at a thread, which must be opened first. nil
// means nothing is ready. l is the table's language, which the message
// is measured in.
func Gather(l lang.Lang, pending []cribbage.OutboxItem, table, through int64) []cribbage.OutboxItem {
	var taken, run []cribbage.OutboxItem
	for _, it := range pending {
		if it.TableID != table || it.Kind == KindTable {
			continue
		}
		if through != 0 && it.ID > through {
			break
		}
		kind := storyKind(it)
		if kind != KindPost && kind != KindLine {
			break
		}
		run = append(run, it)
		if kind != KindPost {
			continue
		}
		if len(run) > 1 && plainPost(it) {
			// A reminder or a ping comes between moves: it goes alone,
			// and the hand's lines before it wait for the hand's record.
			if len(taken) == 0 {
				return []cribbage.OutboxItem{it}
			}
			break
		}
		if through == 0 && plainPost(it) && storyLines(taken) {
			// A plain post after a hand's record (a rematch offer after
			// the result) would read above it: Discord shows a message's
			// text before its embeds. It goes in a message of its own.
			break
		}
		if through == 0 && len(taken) > 0 {
			if _, ok := Compose(l, append(slices.Clone(taken), run...)); !ok {
				break
			}
		}
		taken, run = append(taken, run...), nil
	}
	return taken
}

// storyKind is how the story carries an item: a milestone's news, which
// the store queues itself (cribbage.OutboxMilestone), is a line of the
// hand that earned it, waiting for that hand's post when it waits and
// sent like a post otherwise; every other kind is its own.
func storyKind(it cribbage.OutboxItem) string {
	if it.Kind != cribbage.OutboxMilestone {
		return it.Kind
	}
	if it.Waits {
		return KindLine
	}
	return KindPost
}

// storyLines reports whether items carry story lines (a hand's record).
func storyLines(items []cribbage.OutboxItem) bool {
	for _, it := range items {
		if k := storyKind(it); k == KindLine || (k == KindPost && !plainPost(it)) {
			return true
		}
	}
	return false
}

// plainPost reports whether a post is a plain message (a reminder, a
// ping), not story lines.
func plainPost(it cribbage.OutboxItem) bool {
	if it.Kind == cribbage.OutboxMilestone {
		return false
	}
	var p PostPayload
	return json.Unmarshal([]byte(it.Payload), &p) == nil && len(p.Lines) == 0
}

// payloadOf reads an item as a post: a milestone's news as its line.
func payloadOf(l lang.Lang, it cribbage.OutboxItem) (PostPayload, bool) {
	if it.Kind == cribbage.OutboxMilestone {
		e, err := cribbage.ReadMilestoneNews(it.Payload)
		if err != nil {
			return PostPayload{}, false
		}
		return PostPayload{Lines: []StoryEntry{{Text: MilestoneLine(l, e), Hand: e.Hand}}}, true
	}
	var p PostPayload
	return p, json.Unmarshal([]byte(it.Payload), &p) == nil
}

// Compose builds the message that carries items, in the table's language
// l (a milestone's news is worded as it is sent), and reports whether it
// is within Discord's limits. An item that cannot be read is left out.
func Compose(l lang.Lang, items []cribbage.OutboxItem) (StoryMessage, bool) {
	var m StoryMessage
	var content []string
	joins := false // the next fragment joins the line before
	for _, it := range items {
		p, ok := payloadOf(l, it)
		if !ok {
			continue
		}
		if p.Content != "" {
			content = append(content, p.Content)
		}
		for _, ln := range p.Lines {
			if ln.Hand == 0 {
				content = append(content, ln.Text)
				continue
			}
			n := len(m.Embeds)
			title := ln.Title
			if title == "" {
				title = l.T("record.title", "N", ln.Hand)
			}
			if n == 0 || m.Embeds[n-1].Title != title {
				m.Embeds = append(m.Embeds, &discordgo.MessageEmbed{Title: title, Color: handColour})
				n++
				joins = false
			}
			e := m.Embeds[n-1]
			switch {
			case e.Description == "":
				e.Description = ln.Text
			case ln.Frag && joins:
				e.Description += " · " + ln.Text
			default:
				e.Description += "\n" + ln.Text
			}
			joins = ln.Frag && !ln.End
			if ln.Show {
				if m.showEnd == nil {
					m.showEnd = map[int]int{}
				}
				m.showEnd[n-1] = len(e.Description)
			}
		}
		for _, u := range p.Mentions {
			if !slices.Contains(m.Mentions, u) {
				m.Mentions = append(m.Mentions, u)
			}
		}
		for range p.Pictures {
			// A show's picture goes with the hand its lines are in.
			m.shows = append(m.shows, len(m.Embeds)-1)
		}
		m.Pictures = append(m.Pictures, p.Pictures...)
	}
	m.Content = strings.Join(content, "\n")
	r := m.layout()
	ok := utf8.RuneCountInString(m.Content) <= MaxContent && len(m.Embeds) <= maxEmbeds &&
		len(m.Mentions) <= maxMentions && len(m.Pictures) <= maxFiles
	return m, ok && utf8.RuneCountInString(r.Text()) <= maxV2Text && countComponents(r.Components) <= maxV2Components
}

// recordHeading is a hand record's title as its text display begins.
func recordHeading(title string) string { return "### " + title }

// Message draws a story message. One with hand records is Components V2:
// the lines between hands first, then each hand's record in a Container
// — its title and lines, then the pictures of its show under the
// breakdown. One without (a reminder, a ping) is plain content. Both
// ping exactly m.Mentions: Discord pings the mentions of a text display
// as it does content's, as allowed_mentions allows.
func (m StoryMessage) Message() Message {
	r := m.layout()
	r.Files = PictureFiles(m.Pictures)
	return r
}

// layout is the message without its pictures' pixels, which are drawn
// only to be sent.
func (m StoryMessage) layout() Message {
	if len(m.Embeds) == 0 {
		return Message{Content: m.Content, Mentions: m.Mentions}
	}
	r := V2(TextDisplay(m.Content))
	r.Mentions = m.Mentions
	pictures := make([][]discordgo.MessageComponent, len(m.Embeds))
	for i := range m.Pictures {
		if at := m.shownIn(i); at >= 0 {
			pictures[at] = append(pictures[at], Gallery(pictureName(i)))
		} else {
			r.Components = append(r.Components, Gallery(pictureName(i)))
		}
	}
	for i, e := range m.Embeds {
		// The record reads down to the show's count, its picture, and
		// what follows (the scores, the seed, the next deal).
		counted, after := e.Description, ""
		if end := m.showEnd[i]; end > 0 && end < len(e.Description) && len(pictures[i]) > 0 {
			counted, after = e.Description[:end], strings.TrimPrefix(e.Description[end:], "\n")
		}
		box := Container(e.Color, TextDisplay(recordHeading(e.Title), counted))
		box.Components = append(box.Components, pictures[i]...)
		if t := TextDisplay(after); t != nil {
			box.Components = append(box.Components, t)
		}
		r.Components = append(r.Components, box)
	}
	return r
}

// shownIn is the hand record picture i shows, or -1.
func (m StoryMessage) shownIn(i int) int {
	if i < len(m.shows) && m.shows[i] < len(m.Embeds) {
		return m.shows[i]
	}
	return -1
}

// countComponents counts components as Discord does, nested ones too.
func countComponents(cs []discordgo.MessageComponent) int {
	n := 0
	for _, c := range cs {
		n++
		switch c := c.(type) {
		case discordgo.ActionsRow:
			n += len(c.Components)
		case discordgo.Container:
			n += countComponents(c.Components)
		case discordgo.Section:
			n += countComponents(c.Components)
			if c.Accessory != nil {
				n++
			}
		}
	}
	return n
}

// FitMessage cuts a message that is over Discord's limits down to them,
// so that one too long to send cannot stop a table's story: a hand's
// record is far shorter, so this is only a guard.
func FitMessage(m StoryMessage) StoryMessage {
	m.Content = cutRunes(m.Content, MaxContent)
	if n := len(m.Embeds); n > maxEmbeds {
		m.Embeds = m.Embeds[n-maxEmbeds:]
		for i := range m.shows {
			m.shows[i] -= n - maxEmbeds
		}
		ends := map[int]int{}
		for i, end := range m.showEnd {
			ends[i-(n-maxEmbeds)] = end
		}
		m.showEnd = ends
	}
	// The text displays' budget: the lines between hands, then each
	// record's heading and lines (Message joins each with a newline).
	budget := maxV2Text - utf8.RuneCountInString(m.Content) - 1
	for _, e := range m.Embeds {
		head := utf8.RuneCountInString(recordHeading(e.Title)) + 1
		e.Description = cutRunes(e.Description, max(budget-head, 1))
		budget -= head + utf8.RuneCountInString(e.Description) + 1
	}
	if len(m.Mentions) > maxMentions {
		m.Mentions = m.Mentions[:maxMentions]
	}
	if len(m.Pictures) > maxFiles {
		m.Pictures = m.Pictures[:maxFiles]
	}
	for i := range m.shows {
		if m.shows[i] < 0 {
			m.shows[i] = -1
		}
	}
	return m
}

// cutRunes shortens s to at most n characters, marking the cut.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Post is a story message as an outbox entry.
func Post(t *cribbage.Table, content string, mentions []string) cribbage.Outbound {
	return cribbage.Outbound{ChannelID: t.ChannelID, Kind: KindPost, Payload: PostPayload{Content: content, Mentions: mentions}.encode()}
}

// Mentions writes user mentions.
func Mentions(ids []string) string {
	var out []string
	for _, id := range ids {
		out = append(out, "<@"+id+">")
	}
	return strings.Join(out, " ")
}

// Tell adds what a change the domain decided sends out: the story of
// what its game did, in the table's thread; what opens the table it opens
// (a rematch, a match's next game) before that table's own story; and,
// when the table closes, its table message's last refresh. A table
// without a person (a tournament's game between computer entrants) is
// played quietly: its result is on the standings. It returns the note of
// the game's events, what the hand views show above the cards (NoteOf);
// nil for a table with no game.
func Tell(l lang.Lang, ch *cribbage.Change, events []engine.Event) Note {
	t := ch.Table
	if len(ch.Events) > 0 && t.HasPerson() {
		ch.Outbox = append(ch.Outbox, Story(l, t, ch.Events)...)
	}
	if n := ch.Next; n != nil {
		Opened(l, n, Introduce(l, n.Follows, n.Table))
	}
	if !t.Status.Open() {
		// A table that closes leaves the open tables a restart shows
		// again: its last refresh is queued with it, so a process that
		// dies before showing it leaves it to the next.
		ch.Outbox = append(ch.Outbox, cribbage.Outbound{ChannelID: t.ChannelID, Kind: KindTable})
	}
	if t.State == nil {
		return nil
	}
	return NoteOf(t, events)
}

// Note is what a change did, as a hand view shows it above the cards:
// the plays, gos, shows and claims, kept as events and worded for each
// view in its player's language (Text).
type Note []engine.Event

// NoteOf is the note of a change's events at t: those the views' own
// lines do not say (the hand and the scores).
func NoteOf(t *cribbage.Table, events []engine.Event) Note {
	var note Note
	for _, e := range events {
		switch e.Kind {
		case engine.EvDeal, engine.EvHandOver, engine.EvCutForDeal, engine.EvReset:
			continue // the view's own lines say the hand and scores
		}
		if StoryLine(lang.English, t, e) != "" {
			note = append(note, e)
		}
	}
	return note
}

// Text is the note at t as the top of a hand view says it in l: the
// story's words, the last few lines; "" for none.
func (n Note) Text(l lang.Lang, t *cribbage.Table) string {
	var lines []string
	for _, e := range n {
		if line := StoryLine(l, t, e); line != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	const most = 6
	if len(lines) > most {
		lines = lines[len(lines)-most:]
	}
	return l.T("hand.last-move") + "\n" + strings.Join(lines, "\n")
}

// Opened words a new table's change: intro, what opens it, then its
// game's story; nothing for a table without a person.
func Opened(l lang.Lang, ch *cribbage.Change, intro []cribbage.Outbound) {
	if !ch.Table.HasPerson() {
		ch.Outbox = nil
		return
	}
	out := append(intro, ch.Outbox...)
	ch.Outbox = append(out, Story(l, ch.Table, ch.Events)...)
}

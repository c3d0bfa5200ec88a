package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

// queued builds outbox items of table 1 from kinds and texts: "l:text" is a
// line of hand 1 waiting for its post, "p:text" a post ending hand 1,
// "c:text" a plain post, "t" a table refresh, "h" a thread.
func queued(specs ...string) []cribbage.OutboxItem {
	var out []cribbage.OutboxItem
	for i, s := range specs {
		it := cribbage.OutboxItem{ID: int64(i + 1), TableID: 1}
		switch {
		case strings.HasPrefix(s, "l:"):
			it.Kind, it.Waits, it.Payload = KindLine, true, PostPayload{Lines: []StoryEntry{{Text: s[2:], Hand: 1}}}.encode()
		case strings.HasPrefix(s, "p:"):
			it.Kind, it.Payload = KindPost, PostPayload{Lines: []StoryEntry{{Text: s[2:], Hand: 1}}}.encode()
		case strings.HasPrefix(s, "c:"):
			it.Kind, it.Payload = KindPost, PostPayload{Content: s[2:], Mentions: []string{fmt.Sprint("u", len(s)%2)}}.encode()
		case s == "t":
			it.Kind = KindTable
		case s == "h":
			it.Kind = KindThread
		}
		out = append(out, it)
	}
	return out
}

func ids(items []cribbage.OutboxItem) []int64 {
	var out []int64
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

// TestGatherCarriesAHandWithItsPost: a hand's lines wait for the post that
// ends it and go out with it, passing over table refreshes; later posts
// join while they fit, but a plain post after a record (which would read
// above it) waits for a message of its own; a thread, or lines with no
// post after them, stop it.
func TestGatherCarriesAHandWithItsPost(t *testing.T) {
	long := strings.Repeat("x", 1998) // "a\n" and this make 2000 characters
	tests := []struct {
		name    string
		items   []cribbage.OutboxItem
		through int64
		want    []int64
	}{
		{"a hand's lines with its post, refreshes passed over", queued("l:a", "t", "l:b", "p:c", "t"), 0, []int64{1, 3, 4}},
		{"lines with no post wait", queued("l:a", "l:b"), 0, nil},
		{"the next hand's lines wait", queued("l:a", "p:b", "l:c"), 0, []int64{1, 2}},
		{"later posts join", queued("l:a", "p:b", "l:c", "p:d"), 0, []int64{1, 2, 3, 4}},
		{"a plain post after a record goes in a message of its own", queued("l:a", "p:b", "c:offer"), 0, []int64{1, 2}},
		{"a plain post before a record joins it", queued("c:intro", "l:a", "p:b"), 0, []int64{1, 2, 3}},
		{"stops at a thread", queued("c:a", "h", "c:b"), 0, []int64{1}},
		{"a reminder goes alone, the hand's lines wait", queued("l:a", "c:b", "l:c", "p:d"), 0, []int64{2}},
		{"a hand's record does not take a reminder's lines", queued("p:a", "l:b", "c:c"), 0, []int64{1}},
		{"stops at 2000 characters", queued("c:a", "c:"+long, "c:c"), 0, []int64{1, 2}},
		{"a sealed message carries exactly its items", queued("l:a", "p:b", "l:c", "p:d"), 2, []int64{1, 2}},
		{"another table's items stay out", append(queued("c:a"), cribbage.OutboxItem{ID: 9, TableID: 2, Kind: KindPost, Payload: `{"content":"z"}`}), 0, []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Gather(lang.English, tt.items, 1, tt.through)
			if !slices.Equal(ids(got), tt.want) {
				t.Errorf("gathered %v, want %v", ids(got), tt.want)
			}
			if m, ok := Compose(lang.English, got); len(got) > 1 && !ok {
				t.Errorf("over Discord's limits: %d characters", len([]rune(m.Content)))
			}
		})
	}
}

// TestComposeReadsAsAHand: a hand's record is one embed, the play's
// fragments on one line until a run ends, everything else on lines of
// their own; plain posts are the message's text; mentions are joined.
func TestComposeReadsAsAHand(t *testing.T) {
	items := []cribbage.OutboxItem{
		{ID: 1, TableID: 1, Kind: KindLine, Payload: PostPayload{Lines: []StoryEntry{{Text: "Bob A♣ 1", Hand: 2, Frag: true}, {Text: "Alice 5♣ 6", Hand: 2, Frag: true}}}.encode()},
		{ID: 2, TableID: 1, Kind: KindLine, Payload: PostPayload{Lines: []StoryEntry{{Text: "Bob go", Hand: 2, Frag: true}, {Text: "*go, one for Alice*", Hand: 2, Frag: true, End: true}}}.encode()},
		{ID: 3, TableID: 1, Kind: KindLine, Payload: PostPayload{Lines: []StoryEntry{{Text: "Bob 9♣ 9", Hand: 2, Frag: true}}}.encode()},
		{ID: 4, TableID: 1, Kind: KindPost, Payload: PostPayload{Lines: []StoryEntry{{Text: "Bob: 9♣ … — fifteen two.", Hand: 2}, {Text: "**Hand 3** — Bob deals.", Hand: 2}}, Mentions: []string{"1"}}.encode()},
		{ID: 5, TableID: 1, Kind: KindPost, Payload: PostPayload{Content: "⏰ reminder", Mentions: []string{"2", "1"}}.encode()},
	}
	m, ok := Compose(lang.English, items)
	if !ok {
		t.Fatal("over Discord's limits")
	}
	want := "Bob A♣ 1 · Alice 5♣ 6 · Bob go · *go, one for Alice*\nBob 9♣ 9\nBob: 9♣ … — fifteen two.\n**Hand 3** — Bob deals."
	if len(m.Embeds) != 1 || m.Embeds[0].Title != "Hand 2" || m.Embeds[0].Description != want {
		t.Errorf("embeds %+v, want one titled Hand 2 reading\n%s", m.Embeds, want)
	}
	if m.Content != "⏰ reminder" || !slices.Equal(m.Mentions, []string{"1", "2"}) {
		t.Errorf("content %q, mentions %v", m.Content, m.Mentions)
	}
}

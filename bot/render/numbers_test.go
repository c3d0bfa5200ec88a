package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
)

// news is a milestone's announcement at table 1 as the store queues it.
func news(id int64, e cribbage.Earned, waits bool) cribbage.OutboxItem {
	o := cribbage.MilestoneNews(e, "c", []cribbage.Outbound{{Waits: waits}})
	return cribbage.OutboxItem{ID: id, TableID: 1, ChannelID: "c", Kind: o.Kind, Payload: o.Payload, Waits: o.Waits}
}

// TestMilestoneNewsIsALineOfItsHand: the news goes out with the post of
// the change that earned it, in that hand's record; news that waits goes
// with the post that ends its hand; news queued after a post already
// sent goes by itself.
func TestMilestoneNewsIsALineOfItsHand(t *testing.T) {
	e := cribbage.Earned{UserID: "u0", Name: "Ann", Milestone: cribbage.TwentyNine, TableID: 1, Hand: 1}
	afterPost := append(queued("l:a", "p:b", "t"), news(4, e, false))
	if got := Gather(lang.English, afterPost, 1, 0); !slices.Equal(ids(got), []int64{1, 2, 4}) {
		t.Errorf("news after its post: gathered %v, want the hand with it", ids(got))
	}
	m, ok := Compose(lang.English, Gather(lang.English, afterPost, 1, 0))
	want := "a\nb\n🏅 **Ann** earns a milestone: **A 29 hand** — the perfect hand: three fives and the right jack, the fourth five turned up."
	if !ok || len(m.Embeds) != 1 || m.Embeds[0].Title != "Hand 1" || m.Embeds[0].Description != want {
		t.Errorf("the record: %+v, want one embed reading\n%s", m.Embeds, want)
	}
	waiting := append(queued("l:a"), news(2, e, true))
	if got := Gather(lang.English, waiting, 1, 0); got != nil {
		t.Errorf("waiting news went out before its post: %v", ids(got))
	}
	if got := Gather(lang.English, append(waiting, queued("l:x", "p:c")[1]), 1, 0); len(got) != 3 {
		t.Errorf("waiting news and its post: %v", ids(got))
	}
	alone := []cribbage.OutboxItem{news(7, e, false)}
	m, ok = Compose(lang.English, Gather(lang.English, alone, 1, 0))
	if !ok || len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Description, "A 29 hand") {
		t.Errorf("news alone: %+v", m)
	}
	champion := cribbage.Earned{UserID: "u0", Name: "Ann", Milestone: cribbage.TournamentWon, TableID: 1}
	if m, _ := Compose(lang.English, []cribbage.OutboxItem{news(8, champion, false)}); !strings.Contains(m.Content, "Tournament champion") || len(m.Embeds) != 0 {
		t.Errorf("news of no hand is the message's text: %+v", m)
	}
}

// TestEveryMilestoneHasWords: players never read a milestone's id, in
// any language.
func TestEveryMilestoneHasWords(t *testing.T) {
	for _, m := range cribbage.AllMilestones {
		for _, code := range lang.Codes() {
			if l, _ := lang.ByCode(code); !HasWords(l, m) {
				t.Errorf("%s has no words in %s", m, code)
			}
		}
	}
}

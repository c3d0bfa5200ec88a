package bot

import (
	"context"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
)

// answerFunc sends nothing: the test says what happens while the answer
// is on its way.
func answerFunc(f func()) answer.Send {
	return func(context.Context, *discordgo.Interaction, intake.Out, *discordgo.InteractionResponse, bool) string {
		f()
		return ""
	}
}

// TestTheNewerViewIsRecordedThoughAnsweredFirst: a player clicks Show my
// hand twice; the first click's answer is slow, and the second arrives and
// is answered while it is on its way. The seat's view is the second's,
// the one the player opened last, though its answer was noted first.
func TestTheNewerViewIsRecordedThoughAnsweredFirst(t *testing.T) {
	u := newUnit(t)
	tb := u.twoPlayers()
	ctx := context.Background()
	show := func(id, token string) *discordgo.Interaction {
		ic := discordtest.Click(guild, channel, alice, "table-message", "/hand/1")
		ic.ID, ic.Token = id, token
		return ic
	}
	u.b.handle(ctx, show("901", "first"), intake.Out{}, answerFunc(func() {
		u.clock = u.clock.Add(time.Second)
		u.b.handle(ctx, show("902", "second"), intake.Out{}, answerFunc(func() {}))
		u.clock = u.clock.Add(time.Second)
	}))
	views, err := u.store.HandViews(ctx, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	seat := tb.SeatOf(alice.ID)
	for _, v := range views {
		if v.Seat == seat && v.Token.Token != "second" {
			t.Errorf("the seat's view is the %s click's, want the second's", v.Token.Token)
		}
	}
	if len(views) != 1 {
		t.Errorf("%d views recorded, want 1", len(views))
	}
}

package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/answer"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/engine"
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

// TestAReplayOverHTTPIsDeferredBeforeItIsDrawn: over the interactions
// endpoint, a replay's handler writes its deferral as the HTTP response
// before it draws the page, whose answer then completes it: "thinking…"
// in a private message when opened from the table message, a quiet
// acknowledgement when a page is turned in place.
func TestAReplayOverHTTPIsDeferredBeforeItIsDrawn(t *testing.T) {
	for _, c := range []struct {
		name      string
		ephemeral bool // clicked on a private replay page, not the table message
		deferral  string
		answer    discordgo.InteractionResponseType
	}{
		{"opened from the table message", false, `"type":5`, discordgo.InteractionResponseChannelMessageWithSource},
		{"a page turned", true, `"type":6`, discordgo.InteractionResponseUpdateMessage},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := newUnit(t)
			u.twoPlayers()
			playFirstHand(t, u)
			ic := discordtest.Click(guild, channel, alice, "replay-page", "/replay/1/1")
			if c.ephemeral {
				ic.Message.Flags = discordgo.MessageFlagsEphemeral
			}
			ic.ID, ic.Token = "901", "token"
			body, written := make(chan []byte, 1), make(chan struct{})
			out := intake.Out{Body: body, Written: written}
			var first []byte
			go func() {
				first = <-body
				close(written)
			}()
			var got *discordgo.InteractionResponse
			u.b.handle(context.Background(), ic, out, func(_ context.Context, _ *discordgo.Interaction, _ intake.Out, resp *discordgo.InteractionResponse, _ bool) string {
				// The deferral was written before the page was drawn.
				select {
				case <-written:
				default:
					t.Error("the answer came with no deferral written before it")
				}
				got = resp
				return ""
			})
			if !strings.Contains(string(first), c.deferral) {
				t.Errorf("the HTTP response %s, want %s", first, c.deferral)
			}
			if got == nil || got.Type != c.answer || got.Data == nil || len(got.Data.Files) == 0 {
				t.Fatalf("the answer %+v, want type %d with the hand's pictures", got, c.answer)
			}
		})
	}
}

// playFirstHand plays table 1's first hand out, from each seat's view: a
// replay has a hand to show once one is over.
func playFirstHand(t *testing.T, u *unit) {
	t.Helper()
	people := []discordtest.User{alice, bob}
	for g := u.table(1).State; g.HandNo == 1; g = u.table(1).State {
		var c click.ID
		switch g.Phase {
		case engine.PhaseDiscard:
			seat := g.Waiting()[0]
			cards := g.Hands[seat].Cards()[:g.Options.DiscardSize()]
			c = click.ID{Action: click.Discard, Table: 1, View: click.ViewVersion(g.ViewFor(seat)), Cards: engine.SetOf(cards...)}
			if _, err := u.clickView(people[seat], c.String()); err != nil {
				t.Fatal(err)
			}
		case engine.PhasePlay:
			c = click.ID{Action: click.Play, Table: 1, View: click.ViewVersion(g.ViewFor(g.Turn)), Card: g.LegalPlays(g.Turn)[0]}
			if _, err := u.clickView(people[g.Turn], c.String()); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("phase %v in a hand counted automatically", g.Phase)
		}
	}
}

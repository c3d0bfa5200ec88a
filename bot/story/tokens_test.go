package story

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// groupDM is a group DM only a user's install of the app reaches.
const groupDM = "500000000000000077"

// TestATableOnlyTokensReachTellsItsStoryAsFollowups: at a table in a
// group DM, where the fake refuses the bot's token as Discord does, a
// hand's post goes out as a followup of the freshest token the bot holds
// for the table; with none usable it waits, and goes out through the
// next one recorded (a player's click, days later). No thread, no
// request with the bot's token.
func TestATableOnlyTokensReachTellsItsStoryAsFollowups(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	tb, err := r.store.CreateTable(ctx, &cribbage.Table{ChannelID: groupDM, HostID: "2", TokenOnly: true,
		Options: engine.Options{Players: 2, Target: 121}, Status: cribbage.StatusLobby,
		Seats: []cribbage.Seat{{UserID: "2", Name: "Ann"}, {UserID: "3", Name: "Bob"}}}, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	ann := discordtest.User{ID: "2", Name: "Ann"}
	token := func() string {
		i := r.fake.Prepare(discordtest.InGroupDM(discordtest.Command("", groupDM, ann, "hand")))
		return i.Token
	}
	first := token()
	if err := r.store.RecordEditToken(ctx, tb.ID, cribbage.MessageToken{MessageID: "m", Token: first, At: r.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	r.queue(tb.ID, cribbage.Outbound{ChannelID: groupDM, Kind: "thread"}, ends(1, "Ann wins the first hand."))
	r.drain()
	posts := r.fake.ChannelMessages(groupDM)
	if len(posts) != 1 || !strings.Contains(posts[0].Text(), "Ann wins the first hand.") || posts[0].Token != first {
		t.Fatalf("the hand's post: %+v", posts)
	}
	if m := r.message(tb.ID); m.ThreadID != "" {
		t.Errorf("a thread %s", m.ThreadID)
	}

	// Two days on, no token is usable: the post waits.
	r.clock.Advance(48 * time.Hour)
	r.fake.Advance(48 * time.Hour)
	r.queue(tb.ID, ends(2, "Bob wins the second hand."))
	r.drain()
	if n := len(r.fake.ChannelMessages(groupDM)); n != 1 || r.pending(tb.ID) != 1 {
		t.Fatalf("%d posts, %d pending, with no usable token", n, r.pending(tb.ID))
	}
	// Bob opens his hand: his click's token takes the post.
	second := token()
	if err := r.store.RecordHandView(ctx, tb.ID, cribbage.HandView{Seat: 1, Token: cribbage.MessageToken{MessageID: "v", Token: second, At: r.clock.Now()}, Version: tb.Version}); err != nil {
		t.Fatal(err)
	}
	r.after(noTokenWait)
	posts = r.fake.ChannelMessages(groupDM)
	if len(posts) != 2 || !strings.Contains(posts[1].Text(), "Bob wins the second hand.") || posts[1].Token != second || r.pending(tb.ID) != 0 {
		t.Fatalf("after a click: %d posts, %d pending", len(posts), r.pending(tb.ID))
	}
	if n := r.requests(http.MethodPost, "/messages") + r.requests(http.MethodPost, "/threads"); n != 0 {
		t.Errorf("%d requests with the bot's token", n)
	}
}

// TestARematchWhereOnlyTokensReach: a rematch's table, opened by the
// outbox as render.Introduce queues it, at a table only tokens reach: its
// table message goes out as a followup of the freshest token the bot
// holds (the click that made the rematch), is recorded, and its story
// follows it; no thread, no request with the bot's token.
func TestARematchWhereOnlyTokensReach(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	tb, err := r.store.CreateTable(ctx, &cribbage.Table{ChannelID: groupDM, HostID: "2", TokenOnly: true,
		Options: engine.Options{Players: 2, Target: 121}, Status: cribbage.StatusLobby,
		Seats: []cribbage.Seat{{UserID: "2", Name: "Ann"}, {UserID: "3", Name: "Bob"}}}, "", nil, cribbage.Hold{})
	if err != nil {
		t.Fatal(err)
	}
	// A rematch starts as it opens, so its message has a board to show.
	tb, err = servicetest.Update(ctx, r.store, tb.ID, "", func(t *cribbage.Table) (*cribbage.Change, error) {
		ch, _, err := cribbage.Start(t, cribbage.Env{Now: r.clock.Now(), Seeds: func() engine.Seed { return engine.SeedFromUint64(7) }})
		return ch, err
	})
	if err != nil {
		t.Fatal(err)
	}
	i := r.fake.Prepare(discordtest.InGroupDM(discordtest.Command("", groupDM, discordtest.User{ID: "3", Name: "Bob"}, "hand")))
	if err := r.store.RecordHandView(ctx, tb.ID, cribbage.HandView{Seat: 1, Token: cribbage.MessageToken{MessageID: "v", Token: i.Token, At: r.clock.Now()}, Version: tb.Version}); err != nil {
		t.Fatal(err)
	}
	r.queue(tb.ID, cribbage.Outbound{ChannelID: groupDM, Kind: render.KindOpen}, cribbage.Outbound{ChannelID: groupDM, Kind: render.KindThread},
		render.Post(tb, "**Rematch** of table 1.", nil))
	r.drain()
	m := r.message(tb.ID)
	posts := r.fake.ChannelMessages(groupDM)
	if m.MessageID == "" || m.ThreadID != "" || len(posts) != 2 || posts[0].ID != m.MessageID || !strings.Contains(posts[1].Text(), "**Rematch** of table 1.") {
		t.Fatalf("recorded %+v; posted %+v", m, posts)
	}
	if n := r.requests(http.MethodPost, "/messages") + r.requests(http.MethodPost, "/threads"); n != 0 {
		t.Errorf("%d requests with the bot's token", n)
	}
	// Posted without its board (a followup's V2 message cannot upload
	// files), it has it at once by an edit through the same token.
	if got, ok := r.fake.Message(m.MessageID); !ok || len(got.Attachments) != 1 || m.Board == "" {
		t.Errorf("the table message's board: attachments %+v, recorded %q", got.Attachments, m.Board)
	}
}

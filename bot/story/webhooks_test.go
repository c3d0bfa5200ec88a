package story

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/bot/sender"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/internal/picture"
)

// opened opens a table in channelID as the outbox does (its message, its
// thread), and returns it with its thread.
func (r *rig) opened(channelID string) (*cribbage.Table, string) {
	r.t.Helper()
	tb := r.table(channelID, "Alice", "Bob")
	r.queue(tb.ID, cribbage.Outbound{ChannelID: channelID, Kind: render.KindOpen}, cribbage.Outbound{ChannelID: channelID, Kind: render.KindThread})
	for range 100 {
		if r.pending(tb.ID) == 0 {
			break
		}
		r.after(time.Second)
	}
	thread := r.message(tb.ID).ThreadID
	if thread == "" {
		r.t.Fatalf("table %d: no thread opened", tb.ID)
	}
	return tb, thread
}

// endHand queues the post that ends a table's first hand, with the
// picture of its show.
func (r *rig) endHand(tb *cribbage.Table) {
	raw, err := json.Marshal(render.PostPayload{
		Lines: []render.StoryEntry{{Text: fmt.Sprintf("Table %d: Alice 21 · Bob 4.", tb.ID), Hand: 1, Show: true}},
		Pictures: []picture.Cards{{Hands: []picture.Hand{{Label: "Alice", Cards: []engine.Card{engine.MustParseCard("5C"), engine.MustParseCard("5D"),
			engine.MustParseCard("5H"), engine.MustParseCard("JS")}}}, Starter: engine.MustParseCard("5S")}}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.queue(tb.ID, cribbage.Outbound{ChannelID: tb.ChannelID, Kind: render.KindPost, Payload: string(raw)})
}

// webhookOf reads what the store keeps of a channel's webhook.
func (r *rig) webhookOf(channelID string) (cribbage.ChannelWebhook, bool) {
	r.t.Helper()
	w, err := r.store.ChannelWebhook(context.Background(), channelID)
	if errors.Is(err, cribbage.ErrNotFound) {
		return w, false
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return w, true
}

// TestAChannelGetsOneWebhookForItsTables: opening the first table's thread
// in a channel makes the channel's webhook, with the bot token, before the
// thread; the second table there uses it and makes none. A post that
// could go at once goes with the bot token, under its nonce.
func TestAChannelGetsOneWebhookForItsTables(t *testing.T) {
	r := newRig(t)
	first, thread := r.opened(channel)
	r.opened(channel)
	if n := r.requests(http.MethodPost, "/channels/"+channel+"/webhooks"); n != 1 {
		t.Errorf("%d requests to make the channel's webhook, want 1", n)
	}
	w, ok := r.webhookOf(channel)
	if !ok || w.ID == "" || w.Token == "" {
		t.Fatalf("the channel's webhook recorded as %+v (%v), want one made", w, ok)
	}
	r.endHand(first)
	r.drain()
	ms := r.fake.ChannelMessages(thread)
	if len(ms) != 1 || ms[0].WebhookID != "" || ms[0].Nonce == "" {
		t.Fatalf("the thread has %d messages (%+v), want the record, posted with the bot token under its nonce", len(ms), ms)
	}
}

// TestABurstOfRecordsGoesBothWays: when more hands end at once than the
// bot token's budget sends in a second, the records it holds back go
// through their channels' webhooks, which Discord counts apart: twice the
// budget's records are all in their threads within the second, none
// refused, and the rest go the next second.
func TestABurstOfRecordsGoesBothWays(t *testing.T) {
	r := newRig(t)
	type table struct {
		tb     *cribbage.Table
		thread string
	}
	var all []table
	for i := range 2*rest.GlobalBudget + 10 {
		ch := fmt.Sprint(600000000000000000 + i)
		r.fake.AddChannel(ch)
		tb, thread := r.opened(ch)
		all = append(all, table{tb, thread})
	}
	r.after(2 * time.Second) // the budgets' seconds pass
	for _, x := range all {
		r.endHand(x.tb)
	}
	r.drain()
	for range 40 { // within the second
		r.after(rest.BusyRetry)
	}
	byWay := map[bool]int{}
	for _, x := range all {
		for _, m := range r.fake.ChannelMessages(x.thread) {
			byWay[m.WebhookID != ""]++
			// A webhook's V2 message cannot upload files: its record is
			// an embed with the show's picture.
			if m.WebhookID != "" && (len(m.Embeds) != 1 || m.Embeds[0].Image == nil || len(m.Attachments) != 1 || m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0) {
				t.Errorf("table %d's record through the webhook: %d embeds, %d attachments, flags %d; want one embed with its picture", x.tb.ID, len(m.Embeds), len(m.Attachments), m.Flags)
			}
		}
	}
	if byWay[false] != rest.GlobalBudget || byWay[true] != rest.GlobalBudget {
		t.Errorf("in the first second, %d records with the bot token and %d through webhooks, want %d each", byWay[false], byWay[true], rest.GlobalBudget)
	}
	for range 100 {
		r.after(rest.BusyRetry)
	}
	for _, x := range all {
		if ms := r.fake.ChannelMessages(x.thread); len(ms) != 1 {
			t.Errorf("table %d's thread has %d messages, want its record once", x.tb.ID, len(ms))
		}
	}
	if limited := r.fake.RateLimited(); len(limited) != 0 {
		t.Errorf("Discord answered 429: %v", limited)
	}
}

// TestWithoutManageWebhooksTheStoryKeepsTheBotToken: a server that does
// not let the bot make webhooks refuses once; the refusal is recorded, the
// thread opens and the story goes with the bot token, and the channel is
// not asked again until a day has passed.
func TestWithoutManageWebhooksTheStoryKeepsTheBotToken(t *testing.T) {
	r := newRig(t)
	r.fake.DenyBotPermission(channel, discordgo.PermissionManageWebhooks)
	tb, thread := r.opened(channel)
	if w, ok := r.webhookOf(channel); !ok || w.ID != "" || w.RefusedAt.IsZero() {
		t.Errorf("recorded %+v (%v), want the refusal", w, ok)
	}
	r.endHand(tb)
	r.drain()
	if ms := r.fake.ChannelMessages(thread); len(ms) != 1 || ms[0].WebhookID != "" {
		t.Errorf("the thread has %+v, want the record with the bot token", ms)
	}
	r.opened(channel)
	if n := r.requests(http.MethodPost, "/channels/"+channel+"/webhooks"); n != 1 {
		t.Errorf("%d requests to make a webhook within the day, want the one refused", n)
	}
	r.clock.Advance(webhookRefusedWait)
	r.opened(channel)
	if n := r.requests(http.MethodPost, "/channels/"+channel+"/webhooks"); n != 2 {
		t.Errorf("%d requests to make a webhook after a day, want it asked again", n)
	}
}

// TestADeletedWebhookIsForgotten: an admin deletes the channel's webhook;
// the records that would have gone through it go with the bot token,
// each once, and the webhook is forgotten.
func TestADeletedWebhookIsForgotten(t *testing.T) {
	r := newRig(t)
	var tables []*cribbage.Table
	var threads []string
	for range rest.GlobalBudget + 5 {
		tb, thread := r.opened(channel)
		tables, threads = append(tables, tb), append(threads, thread)
	}
	w, ok := r.webhookOf(channel)
	if !ok || w.ID == "" {
		t.Fatalf("no webhook made: %+v", w)
	}
	r.fake.DeleteWebhook(w.ID)
	r.after(2 * time.Second)
	for _, tb := range tables {
		r.endHand(tb)
	}
	r.drain()
	for range 200 {
		r.after(rest.BusyRetry)
	}
	for i, th := range threads {
		ms := r.fake.ChannelMessages(th)
		if len(ms) != 1 || ms[0].WebhookID != "" {
			t.Errorf("table %d's thread has %d messages, want its record once, with the bot token", tables[i].ID, len(ms))
		}
	}
	if _, ok := r.webhookOf(channel); ok {
		t.Error("the deleted webhook is still recorded")
	}
	// Deliveries that chose the webhook before the first 404 came back
	// (one a sender's worker at most) try it too; none after.
	var sent, refused int
	for _, q := range r.fake.Requests() {
		if q.ChannelWebhook {
			sent++
			if q.Status == http.StatusNotFound {
				refused++
			}
		}
	}
	if sent == 0 || sent > sender.Workers || refused != sent {
		t.Errorf("%d requests through the deleted webhook, %d answered 404; want one to one a worker, all 404", sent, refused)
	}
}

// TestAPostThatFailedKeepsTheBotToken: with the bot token's second used,
// a post goes through the channel's webhook, but not one that failed
// before: an attempt whose answer was lost may have posted, and only the
// bot token's nonce makes its resend safe, so it waits for the bot token.
func TestAPostThatFailedKeepsTheBotToken(t *testing.T) {
	r := newRig(t)
	var tables []*cribbage.Table
	for i := range rest.GlobalBudget + 2 {
		ch := fmt.Sprint(600000000000000000 + i)
		r.fake.AddChannel(ch)
		tb, _ := r.opened(ch)
		tables = append(tables, tb)
	}
	r.after(2 * time.Second)
	for _, tb := range tables[:rest.GlobalBudget] {
		r.endHand(tb)
	}
	r.drain() // the bot token's second, used
	for k, tb := range tables[rest.GlobalBudget:] {
		r.endHand(tb)
		items, err := r.store.TablePending(context.Background(), tb.ID)
		if err != nil || len(items) != 1 {
			t.Fatalf("pending %v, %v", items, err)
		}
		it := items[0]
		it.Attempts = 1 - k // the first failed once, the second never
		_, err = r.story.Deliver(context.Background(), it)
		var paced *rest.Paced
		thread := r.message(tb.ID).ThreadID
		switch ms := r.fake.ChannelMessages(thread); {
		case k == 0 && (!errors.As(err, &paced) || len(ms) != 0):
			t.Errorf("a post that failed before: %v, %d posted; want it held back for the bot token", err, len(ms))
		case k == 1 && (err != nil || len(ms) != 1 || ms[0].WebhookID == ""):
			t.Errorf("a post never tried: %v, %d posted; want it through the webhook", err, len(ms))
		}
	}
}

// TestARefusedWebhookPostIsTriedWithTheBotToken: a webhook post Discord
// refuses for another reason than the webhook being gone (here a 403) is
// a failed attempt, not the post's refusal: the webhook is kept, the
// channel does not try it again for a while, and the post goes with the
// bot token once its second frees.
func TestARefusedWebhookPostIsTriedWithTheBotToken(t *testing.T) {
	r := newRig(t)
	var tables []*cribbage.Table
	var threads []string
	for i := range rest.GlobalBudget + 1 {
		ch := fmt.Sprint(600000000000000000 + i)
		r.fake.AddChannel(ch)
		tb, thread := r.opened(ch)
		tables, threads = append(tables, tb), append(threads, thread)
	}
	last := tables[len(tables)-1]
	w, ok := r.webhookOf(last.ChannelID)
	if !ok || w.ID == "" {
		t.Fatal("no webhook made")
	}
	r.fake.FailNext(http.MethodPost, "/webhooks/"+w.ID+"/", http.StatusForbidden, 1)
	r.after(2 * time.Second)
	for _, tb := range tables[:len(tables)-1] {
		r.endHand(tb)
	}
	r.drain() // the bot token's second, used
	r.endHand(last)
	r.drain()
	if n := r.requests(http.MethodPost, "/webhooks/"+w.ID+"/"+w.Token); n != 1 {
		t.Fatalf("%d requests through its webhook, want the one refused", n)
	}
	if n := r.pending(last.ID); n != 1 {
		t.Fatalf("%d of its announcements pending after the refusal, want its record still to go", n)
	}
	for range 150 {
		r.after(rest.BusyRetry)
	}
	ms := r.fake.ChannelMessages(threads[len(threads)-1])
	if len(ms) != 1 || ms[0].WebhookID != "" {
		t.Errorf("its thread shows %d messages, want its record once, with the bot token", len(ms))
	}
	if got, ok := r.webhookOf(last.ChannelID); !ok || got.ID != w.ID {
		t.Errorf("the webhook recorded is %+v, want it kept", got)
	}
}

// TestALostAnswerToMakingTheWebhookMakesNoSecond: Discord makes the
// channel's webhook but its answer is lost; the thread opens without it,
// and the next table's thread finds the webhook the bot made among the
// channel's (Get Channel Webhooks) and takes it, rather than making a
// second that would stay unused in the channel's settings.
func TestALostAnswerToMakingTheWebhookMakesNoSecond(t *testing.T) {
	r := newRig(t)
	r.fake.LoseNextAnswers(http.MethodPost, "/channels/"+channel+"/webhooks", http.StatusInternalServerError, 1)
	r.opened(channel)
	made := r.fake.ChannelWebhooks(channel)
	if len(made) != 1 {
		t.Fatalf("the channel has %d webhooks after the lost answer, want the one made", len(made))
	}
	if w, ok := r.webhookOf(channel); ok {
		t.Fatalf("recorded %+v after the lost answer, want nothing yet", w)
	}
	r.opened(channel)
	if got := r.fake.ChannelWebhooks(channel); len(got) != 1 {
		t.Errorf("the channel has %d webhooks, want still the one", len(got))
	}
	if w, ok := r.webhookOf(channel); !ok || w.ID != made[0] || w.Token == "" {
		t.Errorf("recorded %+v (%v), want the webhook made, %s, with its token", w, ok, made[0])
	}
}

// TestAFullChannelTakesOnlyTheBotsOwnWebhook: a channel has Discord's
// fifteen webhooks. When one of them is the bot's own (made by another
// process, say, which the store does not know), the bot takes it; when
// all are its members', none is taken, and the refusal is recorded.
func TestAFullChannelTakesOnlyTheBotsOwnWebhook(t *testing.T) {
	r := newRig(t)
	r.opened(channel)
	own, ok := r.webhookOf(channel)
	if !ok || own.ID == "" {
		t.Fatalf("no webhook made: %+v", own)
	}
	if err := r.store.ForgetChannelWebhook(context.Background(), channel, own.ID); err != nil {
		t.Fatal(err)
	}
	full := "500000000000000077"
	r.fake.AddChannel(full)
	for range 14 {
		r.fake.AddMembersWebhook(channel, "Announcements")
		r.fake.AddMembersWebhook(full, "Announcements")
	}
	r.fake.AddMembersWebhook(full, "Announcements")
	r.clock.Advance(webhookNoneWait)
	r.opened(channel)
	if w, ok := r.webhookOf(channel); !ok || w.ID != own.ID || w.Token != own.Token {
		t.Errorf("recorded %+v (%v), want the bot's own webhook %s", w, ok, own.ID)
	}
	r.opened(full)
	if w, ok := r.webhookOf(full); !ok || w.ID != "" || w.RefusedAt.IsZero() {
		t.Errorf("recorded %+v (%v) in a channel full of members' webhooks, want the refusal", w, ok)
	}
	if n := len(r.fake.ChannelWebhooks(channel)); n != 15 {
		t.Errorf("the channel has %d webhooks, want 15", n)
	}
}

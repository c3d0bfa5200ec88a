// Package story delivers a table's story to Discord: what sending one
// queued announcement means. A hand's lines go out in one message with the
// post that ends the hand; the table's thread is opened on its table
// message, and the story goes into it; a table no interaction answered
// with has its table message posted here; a table refresh is handed to the
// live surface. When to send, pacing, retries and leases are the sender's
// (bot/sender): a Deliverer's Deliver is its sender.Deliverer.
//
// Every post carries a nonce Discord enforces, so a post sent just before
// a crash or a lost answer is not posted twice on the retry.
package story

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/bot/sender"
)

// Store is what delivering reads of a table, its messages and its outbox,
// and records: the seal of a message before it is sent, and the thread
// once opened.
type Store interface {
	// Table returns a table, or cribbage.ErrNotFound.
	Table(ctx context.Context, id int64) (*cribbage.Table, error)
	TableMessage(ctx context.Context, id int64) (cribbage.TableMessage, error)
	TablePending(ctx context.Context, tableID int64) ([]cribbage.OutboxItem, error)
	Seal(ctx context.Context, id, through int64) error
	SetMessages(ctx context.Context, id int64, messageID, threadID string) error
	// RecordBoard and HandViews serve a table only tokens reach
	// (tokens.go): the board its followed table message shows, and the
	// tokens of its open hand views.
	RecordBoard(ctx context.Context, id int64, key string) error
	HandViews(ctx context.Context, id int64) ([]cribbage.HandView, error)
	// ChannelWebhook, RecordChannelWebhook and ForgetChannelWebhook keep
	// the webhook the story may post through (webhooks.go).
	ChannelWebhook(ctx context.Context, channelID string) (cribbage.ChannelWebhook, error)
	RecordChannelWebhook(ctx context.Context, w cribbage.ChannelWebhook) error
	ForgetChannelWebhook(ctx context.Context, channelID, webhookID string) error
}

// Live is what delivering needs of the live surface (bot/live's Surface).
type Live interface {
	// PostTableMessage posts a table's message under nonce and records it
	// with the table's thread.
	PostTableMessage(ctx context.Context, t *cribbage.Table, threadID, nonce string) error
	// Touch brings a table's message and hand views up to date, in the
	// background.
	Touch(table int64)
}

// Options are a Deliverer's parts.
type Options struct {
	Store Store
	// REST sends the posts and opens the threads, within Discord's rate
	// limits, on the clock those run on.
	REST *rest.Client
	Live Live
	// AppID is the application's id, for followups through interactions'
	// tokens; Now the clock their life is counted on. Both serve tables
	// only tokens reach (tokens.go).
	AppID func() string
	Now   func() time.Time
	// Followups counts the followups made through each token (a new
	// count when nil).
	Followups *Followups
	// Speak is the language of what a table's channel sees, which a
	// table message sent as a followup speaks; English if nil.
	Speak func(ctx context.Context, t *cribbage.Table) lang.Lang
}

// Deliverer sends the story's announcements.
type Deliverer struct {
	store     Store
	rest      *rest.Client
	live      Live
	appID     func() string
	now       func() time.Time
	followups *Followups
	speak     func(ctx context.Context, t *cribbage.Table) lang.Lang
	webhooks  webhooks
}

// New returns a Deliverer.
func New(o Options) *Deliverer {
	d := &Deliverer{store: o.Store, rest: o.REST, live: o.Live, appID: o.AppID, now: o.Now, followups: o.Followups, speak: o.Speak}
	if d.followups == nil {
		d.followups = &Followups{}
	}
	if d.now == nil {
		d.now = time.Now
	}
	if d.speak == nil {
		d.speak = func(context.Context, *cribbage.Table) lang.Lang { return lang.English }
	}
	if d.appID == nil {
		d.appID = func() string { return "" }
	}
	return d
}

var _ sender.Deliverer = (&Deliverer{}).Deliver

// threadAttempts is how many times opening a thread waits for the table
// message before the story goes to the channel instead.
const threadAttempts = 5

// threadArchiveMinutes is how long a quiet thread stays open: a week, the
// longest Discord allows, since games last days.
const threadArchiveMinutes = 7 * 24 * 60

// errTableMessageUnknown defers opening a table's thread until the table
// message is recorded.
var errTableMessageUnknown = errors.New("story: the table message is not known yet")

// Aside reports whether an announcement goes to the live surface (Handle)
// rather than in the story's order: a table refresh, which must never wait
// behind the story.
func Aside(it cribbage.OutboxItem) bool { return it.Kind == render.KindTable }

// Handle hands an announcement set aside (Aside) to the live surface.
func (d *Deliverer) Handle(it cribbage.OutboxItem) { d.live.Touch(it.TableID) }

// Deliver sends one announcement, and returns the others it carried: the
// story items that went out in the same message.
func (d *Deliverer) Deliver(ctx context.Context, it cribbage.OutboxItem) ([]int64, error) {
	m, err := d.store.TableMessage(ctx, it.TableID)
	turn := rest.OutboxTurn(it.ID)
	// hook is the channel's webhook, if a post may go through it, and
	// via is set when it goes that way.
	var hook *cribbage.ChannelWebhook
	via := false
	if bucket := waitsOn(it, m); err == nil && bucket != "" && !m.TokenOnly {
		// A post or a thread that would wait for its rate limit goes no
		// further, and reads no more: when hundreds of tables sit down or
		// end their hands at once, each is tried again until its turn,
		// and reading the table each time was a good part of the bot's
		// work. A table only tokens reach sends nothing with the bot
		// token.
		//
		// A post may go through the channel's webhook instead, which
		// another budget counts (webhooks.go). One that failed before
		// keeps the bot token: an attempt whose answer was lost may have
		// posted, and only the bot token's post has a nonce that makes
		// its resend safe.
		ways := []rest.Way{{Bucket: bucket, Budget: rest.BotToken}}
		if it.Kind != render.KindThread && it.Attempts == 0 {
			if w, ok := d.webhook(ctx, it.ChannelID); ok {
				hook = &w
				ways = append(ways, rest.Way{Bucket: rest.WebhookBucket(w.ID), Budget: rest.Address})
			}
		}
		way, until, ok := d.rest.Limits.ReadyAny(turn, ways...)
		if !ok {
			return nil, &rest.Paced{Until: until}
		}
		via = way == 1
	}
	var t *cribbage.Table
	if err == nil {
		t, err = d.store.Table(ctx, it.TableID)
	}
	if errors.Is(err, cribbage.ErrNotFound) {
		return nil, sender.ErrGiveUp
	}
	if err != nil {
		return nil, err
	}
	switch it.Kind {
	case render.KindPost, cribbage.OutboxMilestone:
		return d.deliverPost(ctx, t, m, it, turn, hook, via)
	case render.KindThread:
		return nil, d.openThread(ctx, t, m, it.Attempts, turn)
	case render.KindOpen:
		if m.MessageID != "" {
			return nil, nil // posted already: the live surface's repost, or an attempt whose answer was lost
		}
		if t.TokenOnly {
			return nil, d.openFollowup(ctx, t, m)
		}
		return nil, d.live.PostTableMessage(ctx, t, m.ThreadID, render.OpenNonce(t))
	}
	return nil, sender.ErrGiveUp
}

// waitsOn is the rate-limit bucket of the bot-token request that
// delivering it makes, given its table's message m: a post's channel
// (the thread, once there is one) or the thread opened on the table
// message; "" for the others.
func waitsOn(it cribbage.OutboxItem, m cribbage.TableMessage) string {
	switch it.Kind {
	case render.KindPost, cribbage.OutboxMilestone:
		if m.ThreadID != "" {
			return rest.PostBucket(m.ThreadID)
		}
		return rest.PostBucket(it.ChannelID)
	case render.KindThread:
		if m.ThreadID != "" {
			return "" // opened already: openThread sends nothing
		}
		return rest.ThreadBucket(it.ChannelID)
	}
	return ""
}

// deliverPost sends a story post, in the table's thread (m.ThreadID) once
// it has one, with the items it carries: through the channel's webhook
// hook if via is set, else with the bot token, or through hook after all
// if another request took the bot token's place meanwhile.
func (d *Deliverer) deliverPost(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, it cribbage.OutboxItem, turn string,
	hook *cribbage.ChannelWebhook, via bool) ([]int64, error) {
	dest := t.ChannelID
	if m.ThreadID != "" {
		dest = m.ThreadID
	}
	// Nothing is sealed for a post that would wait (Deliver asked): the
	// lines queued meanwhile go with it when it goes.
	// The post carries the lines its hand queued before it, and the posts
	// (with their lines) queued after it that fit: read afresh, since the
	// sender's pass reads only what is ready to send.
	pending, err := d.store.TablePending(ctx, it.TableID)
	if err != nil {
		return nil, err
	}
	l := d.speak(ctx, t)
	items, err := d.seal(ctx, l, it, pending)
	if err != nil {
		return nil, err
	}
	story, _ := render.Compose(l, items)
	var carried []int64
	for _, c := range items {
		if c.ID != it.ID {
			carried = append(carried, c.ID)
		}
	}
	if t.TokenOnly {
		return carried, d.postFollowup(ctx, t, m, render.FitMessage(story))
	}
	if via {
		return carried, d.postWebhook(ctx, *hook, m.ThreadID, render.FitMessage(story), turn)
	}
	err = d.post(ctx, dest, render.FitMessage(story), fmt.Sprintf("cb%d", items[0].ID), turn)
	var paced *rest.Paced
	if errors.As(err, &paced) && hook != nil {
		// Ready claims no place, and deliveries run side by side: the
		// last of the bot token's places may have gone to another. The
		// post was not made; the webhook may take it now rather than the
		// back of the bot token's queue, if the limits say it can (not
		// when the thread's own limit held it).
		ways := []rest.Way{{Bucket: rest.PostBucket(dest), Budget: rest.BotToken}, {Bucket: rest.WebhookBucket(hook.ID), Budget: rest.Address}}
		if way, _, ok := d.rest.Limits.ReadyAny(turn, ways...); ok && way == 1 {
			err = d.postWebhook(ctx, *hook, m.ThreadID, render.FitMessage(story), turn)
		}
	}
	return carried, err
}

// seal returns the items one story message carries, from the table's
// first pending one (see render.Gather). The first time, it records the
// last of them on the first before anything is sent; every later attempt
// carries exactly those again, so a resend after a crash sends the same
// message under the same nonce.
func (d *Deliverer) seal(ctx context.Context, l lang.Lang, it cribbage.OutboxItem, pending []cribbage.OutboxItem) ([]cribbage.OutboxItem, error) {
	var first cribbage.OutboxItem
	for _, p := range pending {
		if p.TableID == it.TableID && p.Kind != render.KindTable {
			first = p
			break
		}
	}
	items := render.Gather(l, pending, it.TableID, first.SealedThrough)
	if len(items) == 0 || !slices.ContainsFunc(items, func(c cribbage.OutboxItem) bool { return c.ID == it.ID }) {
		// The pending read missed it (a race with another sender that
		// has since lost the lease): the post alone.
		items = []cribbage.OutboxItem{it}
	}
	if items[0].SealedThrough != 0 {
		return items, nil
	}
	if err := d.store.Seal(ctx, items[0].ID, items[len(items)-1].ID); err != nil {
		return nil, err
	}
	return items, nil
}

// messageCreate is a channel message with Discord's enforced nonce, which
// discordgo's MessageSend lacks: plain content, or (a hand's record) V2
// components with the flag.
type messageCreate struct {
	Content         string                            `json:"content,omitempty"`
	Components      []discordgo.MessageComponent      `json:"components,omitempty"`
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Nonce           string                            `json:"nonce"`
	EnforceNonce    bool                              `json:"enforce_nonce"`
}

// post sends a story message to a channel, notifying only the users it
// mentions. The pictures are drawn now, from the cards queued: the same
// post resent after a failure carries the same pictures.
func (d *Deliverer) post(ctx context.Context, channelID string, m render.StoryMessage, nonce, turn string) error {
	r := m.Message()
	body := messageCreate{Content: r.Content, Components: r.Components, Flags: r.Flags(), Nonce: nonce, EnforceNonce: true,
		AllowedMentions: r.AllowedMentions()}
	_, err := d.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(channelID),
		Bucket: rest.PostBucket(channelID), Route: "POST /channels/{channel}/messages", Body: body, Files: r.Files, Turn: turn})
	return err
}

// openThread starts the table's thread on its message, m, where the story
// of the game goes so a busy channel stays readable. Without permission to
// open threads the story goes to the channel instead.
//
// A table outside a server has none: a DM cannot have threads, and the
// story goes into the DM. Nor has a table only tokens reach: the bot
// cannot open one there, and its story goes as followups (tokens.go).
func (d *Deliverer) openThread(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, attempts int, turn string) error {
	if m.ThreadID != "" || t.GuildID == "" || t.TokenOnly {
		return nil
	}
	if m.MessageID == "" {
		if attempts >= threadAttempts {
			return sender.ErrGiveUp
		}
		return errTableMessageUnknown
	}
	if err := d.ensureWebhook(ctx, t.ChannelID, turn); err != nil {
		return err
	}
	var ch discordgo.Channel
	raw, err := d.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessageThread(t.ChannelID, m.MessageID),
		Bucket: rest.ThreadBucket(t.ChannelID), Route: "POST /channels/{channel}/messages/{message}/threads",
		Body: &discordgo.ThreadStart{Name: threadName(t), AutoArchiveDuration: threadArchiveMinutes}, Turn: turn})
	if err == nil {
		err = json.Unmarshal(raw, &ch)
	}
	if discordCode(err) == codeThreadExists {
		// An earlier attempt opened it but its answer was lost (a timeout,
		// or a crash before it was recorded): the message names it.
		ch, err = d.messageThread(ctx, t.ChannelID, m.MessageID, err)
	}
	if err != nil {
		return err
	}
	return d.store.SetMessages(ctx, t.ID, m.MessageID, ch.ID)
}

// threadName names a table's thread: its number and players, within
// Discord's 100 characters.
func threadName(t *cribbage.Table) string {
	names := ""
	for i, s := range t.Seats {
		if i > 0 {
			names += " vs "
		}
		names += s.Name
	}
	name := fmt.Sprintf("Cribbage %d · %s", t.ID, names)
	if r := []rune(name); len(r) > 100 {
		name = string(r[:100])
	}
	return name
}

// messageThread returns the thread on the table message, messageID in
// channelID, which Discord said (refused) it has; refused itself if it has
// none after all.
func (d *Deliverer) messageThread(ctx context.Context, channelID, messageID string, refused error) (discordgo.Channel, error) {
	raw, err := d.rest.Do(ctx, rest.Request{Method: http.MethodGet, URL: discordgo.EndpointChannelMessage(channelID, messageID),
		Bucket: "get " + channelID, Route: "GET /channels/{channel}/messages/{message}"})
	var m discordgo.Message
	if err == nil {
		err = json.Unmarshal(raw, &m)
	}
	if err != nil {
		return discordgo.Channel{}, err
	}
	if m.Thread == nil {
		return discordgo.Channel{}, refused
	}
	return *m.Thread, nil
}

// codeThreadExists is Discord's error code for a second thread on one
// message.
const codeThreadExists = 160004

// discordCode returns the JSON error code of Discord's refusal, or 0.
func discordCode(err error) int {
	var api *rest.APIError
	if errors.As(err, &api) {
		return api.Code
	}
	return 0
}

package story

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// A channel's webhook (cribbage.ChannelWebhook) is a second way for the
// story into the channel and its tables' threads. Discord counts the bot
// token's requests at 50 a second, and requests with no authorization,
// such as a webhook executed with its own token, at 50 a second of the
// bot's address, apart: when hundreds of tables end their hands in the
// same seconds (a synchronized start, a tournament round), the records go
// both ways, and the burst clears in half the time. The bot makes the
// webhook when it opens a table's thread (one a channel, shared by its
// tables: 15 is Discord's most a channel), with the bot token, once; a
// server that does not give the bot Manage Webhooks keeps the bot token
// alone, and is asked again after a day.
//
// A post through the webhook has no enforced nonce (Execute Webhook takes
// none), so a post whose answer was lost may show twice, as a followup
// may. So the bot token's post is preferred whenever it could go at once,
// and a post that failed before goes with the bot token alone; a post a
// crash cut short may still go the other way on its retry.

// webhookName is the name the webhook's posts show, the bot's own.
const webhookName = "Cribbage"

// webhookRefusedWait is how long a server that refused a webhook is not
// asked again: an admin may grant Manage Webhooks later.
const webhookRefusedWait = 24 * time.Hour

// webhookNoneWait is how long this process believes a channel has no
// webhook before reading the store again: another process may have made
// one.
const webhookNoneWait = time.Minute

// webhooks are the channels' webhooks this process has read or made, by
// channel: a post held back reads its channel's without the store.
type webhooks struct {
	mu    sync.Mutex
	known map[string]knownWebhook
	// unsured are the channels where an attempt to make the webhook had
	// no answer: it may have made one.
	unsured map[string]bool
}

// unsure reports whether an attempt to make channelID's webhook had no
// answer here.
func (k *webhooks) unsure(channelID string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.unsured[channelID]
}

// markUnsure records that an attempt to make channelID's webhook had no
// answer.
func (k *webhooks) markUnsure(channelID string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.unsured == nil {
		k.unsured = map[string]bool{}
	}
	k.unsured[channelID] = true
}

// knownWebhook is a channel's webhook (w.ID empty for none) and when it
// was read.
type knownWebhook struct {
	w    cribbage.ChannelWebhook
	read time.Time
}

// get returns what is known of channelID's webhook, unless it is that it
// has none and was read webhookNoneWait ago or more.
func (k *webhooks) get(channelID string, now time.Time) (cribbage.ChannelWebhook, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.known[channelID]
	if !ok || e.w.ID == "" && now.Sub(e.read) >= webhookNoneWait {
		return cribbage.ChannelWebhook{}, false
	}
	return e.w, true
}

// put records what is known of w.ChannelID's webhook, read or made now.
// One entry a channel the bot posts in: no more than the store keeps.
func (k *webhooks) put(w cribbage.ChannelWebhook, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.known == nil {
		k.known = map[string]knownWebhook{}
	}
	k.known[w.ChannelID] = knownWebhook{w: w, read: now}
	if w.ID != "" || !w.RefusedAt.IsZero() {
		delete(k.unsured, w.ChannelID) // settled, one way or the other
	}
}

// webhook returns channelID's webhook, if it has one: from what this
// process knows, else the store.
func (d *Deliverer) webhook(ctx context.Context, channelID string) (cribbage.ChannelWebhook, bool) {
	now := d.now()
	if w, ok := d.webhooks.get(channelID, now); ok {
		return w, w.ID != ""
	}
	w, err := d.store.ChannelWebhook(ctx, channelID)
	switch {
	case errors.Is(err, cribbage.ErrNotFound):
		w = cribbage.ChannelWebhook{ChannelID: channelID}
	case err != nil:
		return cribbage.ChannelWebhook{}, false // the bot token alone, this time
	}
	d.webhooks.put(w, now)
	return w, w.ID != ""
}

// ensureWebhook makes channelID's webhook unless it has one, or refused
// one within a day. It is asked of the delivery that opens a table's
// thread, before the thread, so that the table's story can take either
// way from its first record. A request held back by the rate limits holds
// the thread back with it; one that failed otherwise does not: the
// thread opens, and the next table's thread in the channel asks again.
func (d *Deliverer) ensureWebhook(ctx context.Context, channelID, turn string) error {
	w, err := d.store.ChannelWebhook(ctx, channelID)
	switch {
	case err == nil && (w.ID != "" || d.now().Sub(w.RefusedAt) < webhookRefusedWait):
		d.webhooks.put(w, d.now())
		return nil
	case err != nil && !errors.Is(err, cribbage.ErrNotFound):
		return nil // the thread does not wait on the store for a webhook
	}
	made, err := d.takeOrMakeWebhook(ctx, channelID, turn)
	var paced *rest.Paced
	var limited *rest.RateLimited
	switch {
	case errors.As(err, &paced), errors.As(err, &limited):
		return err // its turn comes: the thread waits that long
	case rest.Permanent(err):
		// No Manage Webhooks, or the channel has its fifteen: the story
		// goes with the bot token alone.
		w = cribbage.ChannelWebhook{ChannelID: channelID, RefusedAt: d.now()}
	case err != nil:
		// A server error or a lost answer: the thread does not wait for
		// a webhook, which the next table's thread here asks for again,
		// looking first for one this attempt may have made.
		d.webhooks.markUnsure(channelID)
		return nil
	default:
		w = cribbage.ChannelWebhook{ChannelID: channelID, ID: made.ID, Token: made.Token}
	}
	if err := d.store.RecordChannelWebhook(ctx, w); err != nil {
		return nil // as above: asked again with the next table's thread
	}
	d.webhooks.put(w, d.now())
	return nil
}

// codeMaxWebhooks is Discord's refusal of a sixteenth webhook in a
// channel.
const codeMaxWebhooks = 30007

// channelWebhook is what the bot reads of a webhook Discord describes.
type channelWebhook struct {
	ID            string `json:"id"`
	Type          int    `json:"type"`
	Token         string `json:"token"`
	ApplicationID string `json:"application_id"`
}

// takeOrMakeWebhook returns the bot's own webhook in channelID when one
// may be there unrecorded, else makes one. It may be there after an
// attempt here had no answer (it may have made one), or when the channel
// has its fifteen (another process may have made one): taking it, rather
// than making a second or recording a refusal, keeps one a channel.
func (d *Deliverer) takeOrMakeWebhook(ctx context.Context, channelID, turn string) (channelWebhook, error) {
	if d.webhooks.unsure(channelID) {
		if own, err := d.ownWebhook(ctx, channelID, turn); err != nil || own.ID != "" {
			return own, err
		}
	}
	made, err := d.makeWebhook(ctx, channelID, turn)
	if discordCode(err) == codeMaxWebhooks {
		// Not finding its own, the story keeps the bot token.
		if own, ownErr := d.ownWebhook(ctx, channelID, turn); ownErr == nil && own.ID != "" {
			return own, nil
		}
	}
	return made, err
}

// makeWebhook makes a webhook in channelID with the bot token (Create
// Webhook).
func (d *Deliverer) makeWebhook(ctx context.Context, channelID, turn string) (channelWebhook, error) {
	raw, err := d.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelWebhooks(channelID),
		Bucket: "webhooks " + channelID, Route: "POST /channels/{channel}/webhooks",
		Body: map[string]string{"name": webhookName}, Turn: turn})
	var made channelWebhook
	if err == nil {
		err = json.Unmarshal(raw, &made)
	}
	return made, err
}

// ownWebhook returns a webhook in channelID that this application made,
// with its token, if it has one (Get Channel Webhooks); the ID is empty
// if none. A webhook a member made is never taken: its token is theirs to
// revoke, and its name and picture theirs.
func (d *Deliverer) ownWebhook(ctx context.Context, channelID, turn string) (channelWebhook, error) {
	raw, err := d.rest.Do(ctx, rest.Request{Method: http.MethodGet, URL: discordgo.EndpointChannelWebhooks(channelID),
		Bucket: "webhooks " + channelID, Route: "GET /channels/{channel}/webhooks", Turn: turn})
	var all []channelWebhook
	if err == nil {
		err = json.Unmarshal(raw, &all)
	}
	if err != nil {
		return channelWebhook{}, err
	}
	for _, w := range all {
		// Type 1 is an incoming webhook, the kind that posts with a token.
		if w.Type == 1 && w.Token != "" && w.ApplicationID != "" && w.ApplicationID == d.appID() {
			return w, nil
		}
	}
	return channelWebhook{}, nil
}

// webhookPost is Execute Webhook's body for a story message: what the bot
// token's post sends, but the nonce, which it does not take.
type webhookPost struct {
	Content         string                            `json:"content,omitempty"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	Components      []discordgo.MessageComponent      `json:"components,omitempty"`
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

// postWebhook sends a story message through the channel's webhook w, into
// threadID if it is set. A webhook Discord no longer knows (an admin
// deleted it) is forgotten, and the post is tried again the bot token's
// way.
func (d *Deliverer) postWebhook(ctx context.Context, w cribbage.ChannelWebhook, threadID string, m render.StoryMessage, turn string) error {
	r := m.WebhookMessage()
	q := url.Values{"wait": {"true"}}
	if threadID != "" {
		q.Set("thread_id", threadID)
	}
	body := webhookPost{Content: r.Content, Embeds: r.Embeds, Components: r.Components, Flags: r.Flags(), AllowedMentions: r.AllowedMentions()}
	_, err := d.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointWebhookToken(w.ID, w.Token) + "?" + q.Encode(),
		Bucket: rest.WebhookBucket(w.ID), Route: "POST /webhooks/{webhook}/{token}", Body: body, Files: r.Files, Turn: turn, Webhook: true})
	var api *rest.APIError
	if !errors.As(err, &api) || api.Status >= 500 {
		return err
	}
	if api.Code == codeUnknownWebhook || api.Code == codeInvalidWebhookToken {
		if ferr := d.store.ForgetChannelWebhook(ctx, w.ChannelID, w.ID); ferr != nil {
			return ferr
		}
	}
	// Refused for any reason, the webhook is not tried again in the
	// channel for webhookNoneWait (Discord: a webhook that answers 404
	// is not to be used again; repeated refusals count towards the
	// address's invalid requests), unless the store still has it then.
	d.webhooks.put(cribbage.ChannelWebhook{ChannelID: w.ChannelID}, d.now())
	// Whatever the webhook was refused for (it is gone, the thread is
	// locked to it), the bot token may still post: a failed attempt, not
	// Discord's refusal of the post, which would give it up. The retry
	// has failed once, so it goes with the bot token.
	return fmt.Errorf("story: through the channel's webhook: %v", api)
}

// Discord's error codes for a webhook that is gone, and for a token that
// is not its own.
const (
	codeUnknownWebhook      = 10015
	codeInvalidWebhookToken = 50027
)

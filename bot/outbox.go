package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/bot/sender"
)

// The bot's part of delivering the outbox: what each announcement says and
// the request that sends it. When to send, pacing, retries and leases are
// the sender package's (b.outbox). A story post carries a nonce Discord
// enforces, so a post sent just before a crash is not posted twice on the
// retry.

// threadAttempts is how many times opening a thread waits for the table
// message before the story goes to the channel instead.
const threadAttempts = 5

// threadArchiveMinutes is how long a quiet thread stays open: a week, the
// longest Discord allows, since games last days.
const threadArchiveMinutes = 7 * 24 * 60

// errTableMessageUnknown defers opening a table's thread until the table
// message is recorded.
var errTableMessageUnknown = errors.New("bot: the table message is not known yet")

// deliver sends one announcement, and returns the others it carried: the
// story items that went out in the same message.
func (b *Bot) deliver(ctx context.Context, it cribbage.OutboxItem) ([]int64, error) {
	t, err := b.store.Table(ctx, it.TableID)
	if errors.Is(err, cribbage.ErrNotFound) {
		return nil, sender.ErrGiveUp
	}
	if err != nil {
		return nil, err
	}
	switch it.Kind {
	case render.KindPost:
		dest := t.ChannelID
		if t.ThreadID != "" {
			dest = t.ThreadID
		}
		// Nothing is sealed for a post that would wait: the lines queued
		// meanwhile go with it when it goes.
		if until, ok := b.rest.Limits.Ready(rest.PostBucket(dest), true); !ok {
			return nil, &rest.Paced{Until: until}
		}
		// The post carries the lines its hand queued before it, and the
		// posts (with their lines) queued after it that fit: read afresh,
		// since the sender's pass reads only what is ready to send.
		pending, err := b.store.TablePending(ctx, it.TableID)
		if err != nil {
			return nil, err
		}
		items, err := b.seal(ctx, it, pending)
		if err != nil {
			return nil, err
		}
		m, _ := render.Compose(items)
		var carried []int64
		for _, c := range items {
			if c.ID != it.ID {
				carried = append(carried, c.ID)
			}
		}
		return carried, b.post(ctx, dest, render.FitMessage(m), fmt.Sprintf("cb%d", items[0].ID))
	case render.KindThread:
		return nil, b.openThread(ctx, t, it.Attempts)
	case render.KindOpen:
		if t.MessageID != "" {
			return nil, nil // posted already: the live surface's repost, or an attempt whose answer was lost
		}
		return nil, b.live.PostTableMessage(ctx, t, render.OpenNonce(t))
	}
	return nil, sender.ErrGiveUp
}

// seal returns the items one story message carries, from the table's
// first pending one (see gather). The first time, it records the last of
// them on the first before anything is sent; every later attempt carries
// exactly those again, so a resend after a crash sends the same message
// under the same nonce.
func (b *Bot) seal(ctx context.Context, it cribbage.OutboxItem, pending []cribbage.OutboxItem) ([]cribbage.OutboxItem, error) {
	var first cribbage.OutboxItem
	for _, p := range pending {
		if p.TableID == it.TableID && p.Kind != render.KindTable {
			first = p
			break
		}
	}
	items := render.Gather(pending, it.TableID, first.SealedThrough)
	if len(items) == 0 || !slices.ContainsFunc(items, func(c cribbage.OutboxItem) bool { return c.ID == it.ID }) {
		// The pending read missed it (a race with another sender that
		// has since lost the lease): the post alone.
		items = []cribbage.OutboxItem{it}
	}
	if items[0].SealedThrough != 0 {
		return items, nil
	}
	if err := b.store.Seal(ctx, items[0].ID, items[len(items)-1].ID); err != nil {
		return nil, err
	}
	return items, nil
}

// messageCreate is a channel message with Discord's enforced nonce, which
// discordgo's MessageSend lacks.
type messageCreate struct {
	Content         string                            `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Nonce           string                            `json:"nonce"`
	EnforceNonce    bool                              `json:"enforce_nonce"`
}

// post sends a story message to a channel, notifying only the users it
// mentions. The pictures are drawn now, from the cards queued: the same
// post resent after a failure carries the same pictures.
func (b *Bot) post(ctx context.Context, channelID string, m render.StoryMessage, nonce string) error {
	body := messageCreate{Content: m.Content, Embeds: m.Embeds, Nonce: nonce, EnforceNonce: true,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: m.Mentions}}
	_, err := b.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessages(channelID),
		Bucket: rest.PostBucket(channelID), Route: "POST /channels/{channel}/messages", Body: body, Files: render.PictureFiles(m.Pictures)})
	return err
}

// openThread starts the table's thread on its message, where the story of
// the game goes so a busy channel stays readable. Without permission to
// open threads the story goes to the channel instead.
func (b *Bot) openThread(ctx context.Context, t *cribbage.Table, attempts int) error {
	if t.ThreadID != "" {
		return nil
	}
	if t.MessageID == "" {
		if attempts >= threadAttempts {
			return sender.ErrGiveUp
		}
		return errTableMessageUnknown
	}
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
	var ch discordgo.Channel
	raw, err := b.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointChannelMessageThread(t.ChannelID, t.MessageID),
		Bucket: rest.ThreadBucket(t.ChannelID), Route: "POST /channels/{channel}/messages/{message}/threads",
		Body: &discordgo.ThreadStart{Name: name, AutoArchiveDuration: threadArchiveMinutes}})
	if err == nil {
		err = json.Unmarshal(raw, &ch)
	}
	if discordCode(err) == codeThreadExists {
		// An earlier attempt opened it but its answer was lost (a timeout,
		// or a crash before it was recorded): the message names it.
		raw, gerr := b.rest.Do(ctx, rest.Request{Method: http.MethodGet, URL: discordgo.EndpointChannelMessage(t.ChannelID, t.MessageID),
			Bucket: "get " + t.ChannelID, Route: "GET /channels/{channel}/messages/{message}"})
		var m discordgo.Message
		if gerr == nil {
			gerr = json.Unmarshal(raw, &m)
		}
		if gerr != nil {
			return gerr
		}
		if m.Thread == nil {
			return err
		}
		ch, err = *m.Thread, nil
	}
	if err != nil {
		return err
	}
	return b.store.SetMessages(ctx, t.ID, t.MessageID, ch.ID)
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

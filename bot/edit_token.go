package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
)

// The table message is edited through an interaction token while one is
// alive. Discord lets the bot edit an interaction's original response
// through its token for 15 minutes, and the original response of
// /cribbage start is the table message, as is the message whose button a
// response updates (Join, Start, Deal…). Those edits do not count against
// the 50 requests a second the bot token is allowed in all, which story
// posts need; so a game played in one sitting costs the bot token one
// post a turn or less, and its table message nothing.

// noteEditToken records, after a click on a public message has been
// answered by updating that message, the click's token as one that can
// edit the message. The table checks, when it uses the token, that the
// message is its own.
func (b *Bot) noteEditToken(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse) {
	if ic.Type != discordgo.InteractionMessageComponent || ic.Message == nil || ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0 ||
		resp == nil || (resp.Type != discordgo.InteractionResponseUpdateMessage && resp.Type != discordgo.InteractionResponseDeferredMessageUpdate) {
		return
	}
	c, err := parseClickID(ic.MessageComponentData().CustomID)
	if err != nil || c.Table == 0 {
		return
	}
	b.recordEditToken(ctx, ic, c.Table, ic.Message.ID)
}

// noteHandView records, after a response that showed a player their hand
// view, the interaction's token as the one that edits that view: a new
// private message (the token's original response) or the view the click
// was on (which an update makes the original response). Recorded only once
// the response is sent, so no edit through the token can come before it.
func (b *Bot) noteHandView(ctx context.Context, ic *discordgo.Interaction, rep reply) {
	if rep.hand == nil || rep.resp == nil || rep.resp.Data == nil || rep.resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		return
	}
	id := ""
	switch rep.resp.Type {
	case discordgo.InteractionResponseUpdateMessage:
		if ic.Message == nil {
			return
		}
		id = ic.Message.ID
	case discordgo.InteractionResponseChannelMessageWithSource:
	default:
		return
	}
	h := rep.hand
	b.live.answered(seatKey{h.table, h.seat}, h.version)
	v := cribbage.HandView{Seat: h.seat, Version: h.version, Token: cribbage.MessageToken{MessageID: id, Token: ic.Token, At: b.now()}}
	if err := b.store.RecordHandView(ctx, h.table, v); err != nil && ctx.Err() == nil {
		b.log.Warn("could not record a hand view", "interaction", ic.ID, "table", h.table, "err", err)
		return
	}
	// The table may have moved on while the response was on its way: then
	// the view is brought up to date through the token just recorded.
	if t, err := b.store.Table(ctx, h.table); err == nil && t.Version != h.version {
		b.touchTable(h.table)
	}
}

// recordEditToken records ic's token as one that edits message id of a
// table. Failing to is harmless: the bot token edits the message instead.
// The token's life is counted from now, moments after Discord made it; the
// table stops using it a minute before it would expire.
func (b *Bot) recordEditToken(ctx context.Context, ic *discordgo.Interaction, table int64, id string) {
	tok := cribbage.MessageToken{MessageID: id, Token: ic.Token, At: b.now()}
	if err := b.store.RecordEditToken(ctx, table, tok); err != nil && ctx.Err() == nil {
		b.log.Warn("could not record an edit token", "interaction", ic.ID, "table", table, "err", err)
	}
}

// editTableMessage edits the table message to what draw renders: through
// the table's live interaction token if it has one, with the bot token
// otherwise, or when Discord no longer takes the token. It returns the key
// of the board the message now shows. draw is called for each attempt,
// since a request consumes the files it uploads: a retry with the bot
// token after the token was refused carries its own board.
func (b *Bot) editTableMessage(ctx context.Context, t *cribbage.Table, draw func() (rendered, string)) (string, error) {
	if tok := t.EditToken; tok.Edits(t.MessageID, b.now()) {
		bucket := fmt.Sprintf("table-token/%d", t.ID)
		if next, ok := b.live.spaced(bucket, time.Now()); !ok {
			return t.Board, &pacedError{until: next}
		}
		r, key := draw()
		err := b.pace.sendFree(b.session, bucket, func() error {
			// The token's life is checked as the request goes, after any
			// wait for its bucket.
			if !tok.Edits(t.MessageID, b.now()) {
				return errTokenExpired
			}
			return b.editThroughToken(ctx, tok.Token, bucket, r)
		})
		if err == nil || !(tokenRefused(err) || errors.Is(err, errTokenExpired)) {
			return key, err
		}
		b.log.Info("live: the table's edit token was refused; editing with the bot token", "table", t.ID, "err", err)
	}
	r, key := draw()
	err := b.pace.send(b.session, discordgo.EndpointChannelMessage(t.ChannelID, ""), func() error {
		_, err := b.session.ChannelMessageEditComplex(r.edit(t.ChannelID, t.MessageID), outboxRequest(ctx)...)
		return err
	})
	if err == nil {
		b.live.mu.Lock()
		b.live.botEdits[t.ID] = time.Now()
		b.live.mu.Unlock()
	}
	return key, err
}

// editThroughToken edits an interaction's original response. discordgo's
// InteractionResponseEdit would put every token's edit without files in one
// bucket, whose lock it holds for the whole request, so edits of different
// tables would wait on each other; each table has a bucket of its own
// here, named by the table rather than the token so that discordgo keeps
// one bucket a table, not one for every token it ever used.
func (b *Bot) editThroughToken(ctx context.Context, token, bucket string, r rendered) error {
	endpoint := discordgo.EndpointWebhookMessage(b.appID, token, "@original")
	e := r.edit("", "")
	body := discordgo.WebhookEdit{Content: e.Content, Embeds: e.Embeds, Components: e.Components, Attachments: e.Attachments, AllowedMentions: e.AllowedMentions}
	if len(r.Files) == 0 {
		_, err := b.session.RequestWithBucketID(http.MethodPatch, endpoint, body, bucket, outboxRequest(ctx)...)
		return err
	}
	contentType, raw, err := discordgo.MultipartBodyWithJSON(body, r.Files)
	if err != nil {
		return err
	}
	_, err = b.session.RequestRaw(http.MethodPatch, endpoint, contentType, raw, bucket, 0, outboxRequest(ctx)...)
	return err
}

// errTokenExpired says an interaction token was too old to use when its
// request was about to go.
var errTokenExpired = errors.New("bot: the interaction token is too old to use")

// tokenRefused reports whether Discord refused an interaction token or
// the message it names (expired, or the message deleted): the bot token
// may still do what the token could not.
func tokenRefused(err error) bool {
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response == nil {
		return false
	}
	return rest.Response.StatusCode == http.StatusUnauthorized || rest.Response.StatusCode == http.StatusNotFound
}

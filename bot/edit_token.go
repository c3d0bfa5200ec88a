package bot

import (
	"context"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/sender"
)

// Interaction tokens that edit the live surface. Discord lets the bot edit
// an interaction's original response through its token for 15 minutes,
// outside the 50 requests a second the bot token is allowed in all. The
// original response of /cribbage start is the table message, as is the
// message whose button a response updates (Join, Start, Claim the win);
// a hand view is the original response of the click that showed it. So
// the table message and every open view cost the bot token nothing while
// their tokens live, and the story has its budget.

// noteEditToken records, after a click on a public message has been
// answered by updating that message, the click's token as one that can
// edit the message. The table checks, when it uses the token, that the
// message is its own.
func (b *Bot) noteEditToken(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse) {
	if ic.Type != discordgo.InteractionMessageComponent || ic.Message == nil || ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0 ||
		resp == nil || (resp.Type != discordgo.InteractionResponseUpdateMessage && resp.Type != discordgo.InteractionResponseDeferredMessageUpdate) {
		return
	}
	c, err := click.Parse(ic.MessageComponentData().CustomID)
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
	k := seatKey{h.table, h.seat}
	b.live.answered(k, h.version, h.view)
	tok := cribbage.MessageToken{MessageID: id, Token: ic.Token, At: b.now()}
	// A click on the view already recorded, whose token has long to live,
	// changes nothing worth a write: the recorded token edits the same
	// message for nine minutes more at the least.
	if !b.live.recordedFresh(k, tok) {
		if err := b.store.RecordHandView(ctx, h.table, cribbage.HandView{Seat: h.seat, Version: h.version, Token: tok}); err != nil {
			if ctx.Err() == nil {
				b.log.Warn("could not record a hand view", "interaction", ic.ID, "table", h.table, "err", err)
			}
			return
		}
		b.live.record(k, tok)
	}
	// The table may have moved on while the response was on its way, or
	// its message be behind (another process made the change and did not
	// live to show it): then both are brought up to date.
	if t, err := b.store.Table(ctx, h.table); err == nil && (t.Version != h.version || b.live.behind(t.ID, t.Version)) {
		b.touchTable(h.table)
	}
}

// handTokenRenew is how old a seat's recorded token may grow before a
// click on the same view records the click's newer token.
const handTokenRenew = 5 * time.Minute

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
func (b *Bot) editTableMessage(ctx context.Context, t *cribbage.Table, draw func() (render.Message, string)) (string, error) {
	if tok := t.EditToken; sender.TokenEdits(tok, t.MessageID, b.now()) {
		if next, ok := b.live.spaced(tokenBucket(tok.Token), b.now()); !ok {
			return t.Board, &sender.Paced{Until: next}
		}
		r, key := draw()
		err := b.editThroughToken(ctx, tok, r)
		if err == nil || !sender.TokenRefused(err) {
			return key, err
		}
		b.log.Info("live: the table's edit token was refused; editing with the bot token", "table", t.ID, "err", err)
	}
	r, key := draw()
	e := r.Edit(t.ChannelID, t.MessageID)
	_, err := b.rest.Do(ctx, sender.Request{Method: http.MethodPatch, URL: discordgo.EndpointChannelMessage(t.ChannelID, t.MessageID),
		Bucket: editBucket(t.ChannelID), Route: "PATCH /channels/{channel}/messages/{message}", Body: e, Files: e.Files})
	return key, err
}

// editThroughToken edits an interaction's original response through its
// token: outside the bot token's global limit, in the token's own bucket.
func (b *Bot) editThroughToken(ctx context.Context, tok cribbage.MessageToken, r render.Message) error {
	e := r.Edit("", "")
	body := discordgo.WebhookEdit{Content: e.Content, Embeds: e.Embeds, Components: e.Components, Attachments: e.Attachments, AllowedMentions: e.AllowedMentions}
	_, err := b.rest.Do(ctx, sender.Request{Method: http.MethodPatch, URL: discordgo.EndpointWebhookMessage(b.appID, tok.Token, "@original"),
		Bucket: tokenBucket(tok.Token), Route: "PATCH /webhooks/{application}/{token}/messages/@original", Body: body, Files: r.Files,
		Interaction: true, TokenAt: tok.At})
	return err
}

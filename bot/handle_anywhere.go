package bot

import (
	"context"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// A table only interactions' tokens reach (cribbage.Table.TokenOnly: a
// group DM through a user's install) keeps its table message current
// through the clicks on it, since Discord refuses the bot's token there
// and a token lives 15 minutes. So Show my hand there answers by updating
// the table message (which brings a token that can edit it, however long
// the table has waited) and sends the hand view as a private followup.
// The followup's first click answers by updating it, and from then on
// the hand view is kept current through that click's token, as anywhere.

// handByFollowup answers Show my hand on the table message of a table
// only tokens reach.
func (b *Bot) handByFollowup(ctx context.Context, ic *discordgo.Interaction, t *cribbage.Table, seat int) (reply, error) {
	m, err := b.store.TableMessage(ctx, t.ID)
	if err != nil {
		return reply{}, err
	}
	hand := render.Hand(t, seat, 0, "")
	at := b.now()
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: render.Table(t, m.Board).Response(false)},
		after: func(ctx context.Context) { b.sendHand(ctx, ic, hand, at) }}, nil
}

// sendHand sends a hand view as a private followup of ic, counted among
// the five followups Discord allows an interaction there.
func (b *Bot) sendHand(ctx context.Context, ic *discordgo.Interaction, hand render.Message, at time.Time) {
	if !b.followups.Take(ic.Token) {
		b.logger(ic).Warn("no followup left to show a hand view")
		return
	}
	body := &discordgo.WebhookParams{Content: hand.Content, Embeds: hand.Embeds, Components: hand.Components, Files: hand.Files,
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: hand.AllowedMentions()}
	_, err := b.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointWebhookToken(b.applicationID(), ic.Token),
		Bucket: rest.TokenBucket(ic.Token), Route: "POST /webhooks/{application}/{token}", Body: body, Files: hand.Files,
		Interaction: true, TokenAt: at})
	if err != nil {
		b.followups.GiveBack(ic.Token)
		b.logger(ic).Warn("could not send the hand view", "err", err)
	}
}

package bot

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/command"
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
	// The table message speaks its channel's language, the hand view its
	// player's.
	speak, err := b.speak(ctx, t)
	if err != nil {
		return reply{}, err
	}
	hand := render.Hand(command.Lang(ic), t, seat, 0, "")
	at := b.now()
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: render.Table(speak, t, m.Board).Response(false)},
		after: func(ctx context.Context) { b.sendHand(ctx, ic, hand, at) }}, nil
}

// handPatience bounds how long a hand view sent as a followup waits for
// its token's bucket, and maxHandWait each wait: the bucket takes one
// request at a time, and the table message's edit or the story's
// followup ahead of it through the same token may take seconds on a busy
// machine.
const (
	handPatience = 15 * time.Second
	maxHandWait  = 2 * time.Second
)

// sendHand sends a hand view as a private followup of ic, counted among
// the five followups Discord allows an interaction there.
func (b *Bot) sendHand(ctx context.Context, ic *discordgo.Interaction, hand render.Message, at time.Time) {
	if !b.followups.Take(ic.Token) {
		b.logger(ic).Warn("no followup left to show a hand view")
		return
	}
	var err error
	for start := time.Now(); ; {
		// Held back (Paced), nothing was sent: the files are unread.
		body := &discordgo.WebhookParams{Content: hand.Content, Embeds: hand.Embeds, Components: hand.Components, Files: hand.Files,
			Flags: discordgo.MessageFlagsEphemeral | hand.Flags(), AllowedMentions: hand.AllowedMentions()}
		_, err = b.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointWebhookToken(b.applicationID(), ic.Token),
			Bucket: rest.TokenBucket(ic.Token), Route: "POST /webhooks/{application}/{token}", Body: body, Files: hand.Files,
			Interaction: true, TokenAt: at})
		var paced *rest.Paced
		if !errors.As(err, &paced) || time.Since(start) > handPatience {
			break
		}
		// The token's bucket is spent (the story may have gone through
		// it): the player is waiting for this view, so wait for it.
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(max(paced.Until.Sub(b.now()), rest.BusyRetry), maxHandWait)):
		}
	}
	if err != nil {
		b.followups.GiveBack(ic.Token)
		b.logger(ic).Warn("could not send the hand view", "err", err)
	}
}

package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/refusal"
)

// InteractionsHandler returns the handler for the Interactions Endpoint
// URL, verifying every request against the application's public key (the
// hex key of the Developer Portal). It answers 503 until Run has started.
func (b *Bot) InteractionsHandler(publicKey ed25519.PublicKey) http.Handler {
	return intake.New(publicKey, b.now, b.running, func(ctx context.Context, ic *discordgo.Interaction, respond func([]byte)) {
		b.handle(ctx, ic, &httpAnswer{b: b, respond: respond})
	})
}

// httpAnswer answers in the HTTP response. A response carrying files
// cannot go there (Discord takes only JSON in it), so it is deferred and
// then edited in through the interaction's token, which costs nothing of
// the bot token's rate limit.
type httpAnswer struct {
	b       *Bot
	respond func(body []byte)
}

func (a *httpAnswer) answer(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, tableID int64, arrived time.Time) {
	if resp == nil {
		return
	}
	first := resp
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		first = deferredFor(resp)
	}
	body, err := json.Marshal(first)
	if err != nil {
		a.b.log.Error("could not encode an answer", "interaction", ic.ID, "err", err)
		apology, _ := json.Marshal(refusal.Apology(command.Lang(ic)))
		body = []byte(`{"type":4,"data":{"content":` + string(apology) + `,"flags":64}}`)
	}
	a.respond(body)
	var m *discordgo.Message
	if first != resp {
		d := resp.Data
		m, err = a.b.session.InteractionResponseEdit(ic, &discordgo.WebhookEdit{Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
			Files: d.Files, Attachments: d.Attachments, AllowedMentions: d.AllowedMentions}, discordgo.WithContext(ctx))
		if err != nil {
			a.b.log.Warn("could not complete a deferred answer", "interaction", ic.ID, "err", err)
			return
		}
	}
	if tableID == 0 {
		return
	}
	if m == nil {
		if m, err = a.b.session.InteractionResponse(ic, discordgo.WithContext(ctx)); err != nil {
			a.b.log.Warn("could not read the table message", "interaction", ic.ID, "table", tableID, "err", err)
			return
		}
	}
	a.b.recordTableMessage(ctx, ic, tableID, m.ID, arrived)
}

// deferredFor is the deferred answer standing for resp until its files are
// edited in: "thinking…" for a new message, a quiet acknowledgement for an
// update of the clicked message.
func deferredFor(resp *discordgo.InteractionResponse) *discordgo.InteractionResponse {
	if resp.Type == discordgo.InteractionResponseUpdateMessage {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: resp.Data.Flags & discordgo.MessageFlagsEphemeral}}
}

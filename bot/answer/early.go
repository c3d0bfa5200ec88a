package answer

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// An answer over HTTP cannot carry files: one that shows pictures is
// deferred and its pictures edited in (inHTTP). A handler that draws many
// (a replay's hands) defers it before it draws them, with Defer, so the
// drawing no longer counts against Discord's 3 seconds: on a busy machine
// it took longer than that. Over the gateway the answer's own callback
// carries the pictures, and Defer does nothing: deferring there would
// cost a request.

// early is an HTTP answer a handler may defer ahead of itself: where the
// answer goes, and the deferral sent there, if one was.
type early struct {
	out  intake.Out
	mu   sync.Mutex
	sent discordgo.InteractionResponseType
}

type earlyKey struct{}

// Awaiting returns ctx carrying out, the HTTP response an interaction's
// answer goes to, for Defer and Send; ctx itself when the interaction
// did not come over HTTP.
func Awaiting(ctx context.Context, out intake.Out) context.Context {
	if out.Body == nil {
		return ctx
	}
	return context.WithValue(ctx, earlyKey{}, &early{out: out})
}

// Defer answers, over HTTP, the interaction ctx's handler is answering
// with a deferral now, ahead of the answer it is about to draw: a quiet
// acknowledgement when the answer updates the clicked message in place
// (update), else "thinking…" in a private message. The answer then edits
// the deferral (Send). It does nothing over the gateway, or when an
// answer or a deferral went already.
func Defer(ctx context.Context, update bool) {
	e, ok := ctx.Value(earlyKey{}).(*early)
	if !ok {
		return
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}
	if update {
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	body, err := rest.MarshalBody(resp)
	if err != nil {
		return // the answer goes whole, later
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sent != 0 {
		return
	}
	e.sent = resp.Type
	e.out.Body <- body
	<-e.out.Written
}

// sent records that the HTTP response for ctx's answer went, as kind:
// a Defer after it must not send another.
func sent(ctx context.Context, kind discordgo.InteractionResponseType) {
	if e, ok := ctx.Value(earlyKey{}).(*early); ok {
		e.mu.Lock()
		e.sent = kind
		e.mu.Unlock()
	}
}

// deferred is the deferral Defer sent ahead of ctx's answer, or 0.
func deferred(ctx context.Context) discordgo.InteractionResponseType {
	e, ok := ctx.Value(earlyKey{}).(*early)
	if !ok {
		return 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sent
}

// completeDeferred sends resp, the answer whose deferral (kind) went
// ahead of it: as an edit of the deferral's message (the clicked message
// for a quiet acknowledgement, "thinking…" otherwise), or, for a new
// message after a quiet acknowledgement (a refusal where a page was to
// be turned), as a followup. It returns Discord's answer, the message.
func (a answering) completeDeferred(ctx context.Context, kind discordgo.InteractionResponseType, resp *discordgo.InteractionResponse) ([]byte, error) {
	d := resp.Data
	if d == nil {
		d = &discordgo.InteractionResponseData{}
	}
	switch {
	case resp.Type == discordgo.InteractionResponseUpdateMessage,
		resp.Type == discordgo.InteractionResponseChannelMessageWithSource && kind == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		return a.editDeferred(ctx, d)
	case resp.Type == discordgo.InteractionResponseChannelMessageWithSource:
		body := &discordgo.WebhookParams{Content: d.Content, Embeds: d.Embeds, Components: d.Components,
			AllowedMentions: d.AllowedMentions, Flags: d.Flags}
		if d.Attachments != nil {
			body.Attachments = *d.Attachments
		}
		uri := discordgo.EndpointWebhookToken(a.ic.AppID, a.ic.Token)
		return a.do(ctx, http.MethodPost, uri, rest.TokenBucket(a.ic.Token), "POST /webhooks/{application}/{token}", body, d.Files)
	}
	return nil, fmt.Errorf("answer: a response of type %d cannot follow a deferral", resp.Type)
}

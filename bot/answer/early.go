package answer

import (
	"context"
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
// answer goes, and the kind of response written there, once one was.
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
	writeHTTP(ctx, e.out, resp.Type, body)
}

// writeHTTP writes body, a response of kind, as the HTTP response (out)
// of ctx's answer and waits until it is written, unless one was written
// already.
func writeHTTP(ctx context.Context, out intake.Out, kind discordgo.InteractionResponseType, body []byte) {
	if e, ok := ctx.Value(earlyKey{}).(*early); ok {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.sent != 0 {
			return
		}
		e.sent = kind
	}
	out.Body <- body
	<-out.Written
}

// written is the kind of the HTTP response already written for ctx's
// answer (a deferral Defer wrote ahead of it), or 0.
func written(ctx context.Context) discordgo.InteractionResponseType {
	e, ok := ctx.Value(earlyKey{}).(*early)
	if !ok {
		return 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sent
}

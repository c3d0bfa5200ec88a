package answer

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// An answer over HTTP cannot carry files: one that shows pictures is
// deferred and its pictures edited in (inHTTP). A handler that draws many
// (a replay's hands) defers it before it draws them, with Defer, so the
// drawing no longer counts against Discord's 3 seconds: on a busy machine
// it took longer than that, over HTTP and over the gateway alike (the
// suite with a second one beside it). Over the gateway the deferral costs
// a request, the callback and then the edit where one callback would do;
// the handlers that defer (a replay's pages) are not moves.

// early is an answer a handler may defer ahead of itself: where the
// answer goes (the HTTP response, or over the gateway the callback that
// posts one), and the kind of response sent there, once one was.
type early struct {
	out      intake.Out
	callback func(context.Context, *discordgo.InteractionResponse) bool
	mu       sync.Mutex
	sent     discordgo.InteractionResponseType
	// tried is a deferral posted to the callback route whose fate is not
	// known (the request failed, but may have reached Discord): see
	// deferral.
	tried discordgo.InteractionResponseType
}

type earlyKey struct{}

// Awaiting returns ctx carrying where an interaction's answer goes, for
// Defer and Send: out, the HTTP response, when the interaction came over
// HTTP; else callback, which posts a response to Discord's callback route
// (Callback makes it).
func Awaiting(ctx context.Context, out intake.Out, callback func(context.Context, *discordgo.InteractionResponse) bool) context.Context {
	if out.Body == nil && callback == nil {
		return ctx
	}
	return context.WithValue(ctx, earlyKey{}, &early{out: out, callback: callback})
}

// Callback returns, for Awaiting, what posts a response to ic's callback
// route through rc, and says whether Discord took it: a 40060 (answered
// already) says it did, to a sending after a 502 that reached Discord
// after all. now is the bot's clock; ic's token dates from arrived.
func Callback(rc *rest.Client, now func() time.Time, arrived time.Time, log *slog.Logger, ic *discordgo.Interaction) func(context.Context, *discordgo.InteractionResponse) bool {
	a := answering{rc: rc, log: log, now: now, ic: ic, at: arrived}
	return func(ctx context.Context, resp *discordgo.InteractionResponse) bool {
		_, err := a.do(ctx, http.MethodPost, discordgo.EndpointInteractionResponse(ic.ID, ic.Token), rest.CallbackBucket(ic.ID),
			"POST /interactions/{interaction}/{token}/callback", *resp, nil)
		if err != nil && !answeredAlready(err) {
			log.Warn("could not defer an answer", "interaction", ic.ID, "err", err)
			return false
		}
		return true
	}
}

// answeredAlready says whether err is Discord's 40060: the interaction
// has an answer already.
func answeredAlready(err error) bool { return rest.Code(err) == 40060 }

// Defer answers the interaction ctx's handler is answering with a
// deferral now, ahead of the answer it is about to draw: a quiet
// acknowledgement when the answer updates the clicked message in place
// (update), else "thinking…" in a private message. The answer then edits
// the deferral (Send). It does nothing when an answer or a deferral went
// already, or when Discord did not take the deferral (the answer then
// goes whole).
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
	if e.out.Body == nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.sent != 0 {
			return
		}
		if e.callback(ctx, resp) {
			e.sent = resp.Type
		} else {
			e.tried = resp.Type
		}
		return
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

// deferral is what Defer did for ctx's answer: sent, the kind of
// deferral the answer already has (as the HTTP response, or posted to the
// callback route), and tried, the kind it posted to the callback route
// without learning whether Discord took it; 0 for none. An answer that
// meets 40060 (answered already) after a tried deferral completes it.
func deferral(ctx context.Context) (sent, tried discordgo.InteractionResponseType) {
	e, ok := ctx.Value(earlyKey{}).(*early)
	if !ok {
		return 0, 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sent, e.tried
}

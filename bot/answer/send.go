package answer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// New returns the bot's Send, made once: it answers an interaction that
// came over HTTP in the HTTP response (out), any other through Discord's
// interaction callback route; an answer its handler deferred (Defer)
// completes the deferral instead. Every request goes through the bot's REST
// client (rc), with the interaction's token: discordgo's own client keeps
// a rate-limit bucket for every URL it is given, forever, and each
// answer's URL holds its interaction's id and token, so a bot answering
// through it grew by a bucket a click for as long as it ran. now is the
// bot's clock, which dates the token.
func New(rc *rest.Client, now func() time.Time, log *slog.Logger) Send {
	return func(ctx context.Context, ic *discordgo.Interaction, out intake.Out, resp *discordgo.InteractionResponse, posted bool) string {
		if resp == nil {
			return ""
		}
		a := answering{rc: rc, log: log, now: now, ic: ic, at: now()}
		if out.Body != nil {
			return a.inHTTP(ctx, out, resp, posted)
		}
		return a.byREST(ctx, resp, posted)
	}
}

// answering is one interaction being answered, from at on the bot's clock
// (now): moments after the interaction came, which dates its token.
type answering struct {
	rc  *rest.Client
	log *slog.Logger
	now func() time.Time
	ic  *discordgo.Interaction
	at  time.Time
}

// badGatewayTries is how many times a request is sent when Discord's edge
// answers 502. Sending again after one may meet an answer Discord applied
// after all: the interaction callback then says 40060 (answered already),
// and the message is as the first sending left it.
const badGatewayTries = 3

// answerWindow is how long Discord waits for an interaction's answer; no
// request of an answer (the callback, or completing a deferred one) waits
// longer than that in all for a rate limit.
const answerWindow = 3 * time.Second

// do makes one request with the interaction's token, in bucket: again
// after a 502, and after the wait a rate limit asks for: the limits' when
// the bucket is busy (an interaction Discord delivered twice, answered
// twice at once), Discord's after a 429. A request with files is sent
// with the same bytes each time.
func (a answering) do(ctx context.Context, method, url, bucket, route string, body any, files []*discordgo.File) ([]byte, error) {
	kept, err := keepFiles(files)
	if err != nil {
		return nil, err
	}
	var waited time.Duration
	for try := 1; ; {
		r := rest.Request{Method: method, URL: url, Bucket: bucket, Route: route, Body: body, Files: kept.readers(), Interaction: true, TokenAt: a.at}
		raw, err := a.rc.Do(ctx, r)
		var api *rest.APIError
		var paced *rest.Paced
		var limited *rest.RateLimited
		var d time.Duration
		switch {
		case errors.As(err, &api) && api.Status == http.StatusBadGateway && try < badGatewayTries:
			try++
			continue
		case errors.As(err, &paced):
			d = paced.Until.Sub(a.now())
		case errors.As(err, &limited):
			d = limited.RetryAfter
		default:
			return raw, err
		}
		if waited >= answerWindow {
			return raw, err
		}
		d = min(max(d, time.Millisecond), answerWindow-waited)
		waited += d
		wait := time.NewTimer(d)
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return nil, ctx.Err()
		}
	}
}

// keptFile is a file's name, type and bytes, read once.
type keptFile struct {
	name, contentType string
	data              []byte
}

type keptFiles []keptFile

// keepFiles reads files once: a request's body is made from their
// readers, which a first sending leaves empty.
func keepFiles(files []*discordgo.File) (keptFiles, error) {
	var out keptFiles
	for _, f := range files {
		data, err := io.ReadAll(f.Reader)
		if err != nil {
			return nil, fmt.Errorf("answer: read %s: %w", f.Name, err)
		}
		out = append(out, keptFile{f.Name, f.ContentType, data})
	}
	return out, nil
}

// readers are the files, each to be read from its start.
func (k keptFiles) readers() []*discordgo.File {
	if len(k) == 0 {
		return nil
	}
	out := make([]*discordgo.File, len(k))
	for i, f := range k {
		out[i] = &discordgo.File{Name: f.name, ContentType: f.contentType, Reader: bytes.NewReader(f.data)}
	}
	return out
}

// byREST answers through Discord's interaction callback route, or, when
// the handler deferred the answer there (Defer), completes the deferral.
// A response that posts a message whose id is wanted asks for it in
// Discord's answer (with_response), so the table message is known before
// any announcement of its table can need it.
func (a answering) byREST(ctx context.Context, resp *discordgo.InteractionResponse, posted bool) string {
	sent, tried := deferral(ctx)
	if sent != 0 {
		return a.completeByREST(ctx, sent, resp, posted)
	}
	endpoint := discordgo.EndpointInteractionResponse(a.ic.ID, a.ic.Token)
	if posted {
		endpoint += "?with_response=true"
	}
	var files []*discordgo.File
	if resp.Data != nil {
		files = resp.Data.Files
	}
	body, err := a.do(ctx, http.MethodPost, endpoint, rest.CallbackBucket(a.ic.ID), "POST /interactions/{interaction}/{token}/callback", *resp, files)
	if tried != 0 && answeredAlready(err) {
		// The deferral Defer saw fail reached Discord after all.
		return a.completeByREST(ctx, tried, resp, posted)
	}
	if err != nil {
		a.log.Warn("could not answer interaction", "interaction", a.ic.ID, "err", err)
		return ""
	}
	if !posted {
		return ""
	}
	var answer struct {
		Resource struct {
			Message struct {
				ID string `json:"id"`
			} `json:"message"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || answer.Resource.Message.ID == "" {
		a.log.Warn("Discord's answer names no message", "interaction", a.ic.ID, "err", err)
	}
	return answer.Resource.Message.ID
}

// completeByREST completes, with resp, the answer whose deferral (kind)
// went to the callback route ahead of it, and returns the id of the
// message it posted if posted is asked for.
func (a answering) completeByREST(ctx context.Context, kind discordgo.InteractionResponseType, resp *discordgo.InteractionResponse, posted bool) string {
	raw, err := a.completeDeferred(ctx, kind, resp)
	if err != nil {
		a.log.Warn("could not complete a deferred answer", "interaction", a.ic.ID, "err", err)
		return ""
	}
	if !posted {
		return ""
	}
	return a.messageID(raw)
}

// inHTTP answers in the HTTP response, handing its body to the request's
// goroutine (intake.Out). A response carrying files cannot go there
// (Discord takes only JSON in it), so it is deferred and then edited in
// through the interaction's token, which costs nothing of the bot token's
// rate limit; one whose handler deferred it already (Defer) is only
// edited in.
func (a answering) inHTTP(ctx context.Context, out intake.Out, resp *discordgo.InteractionResponse, posted bool) string {
	kind, _ := deferral(ctx) // the handler's deferral (Defer), if it made one
	if kind == 0 {
		first := resp
		if resp.Data != nil && len(resp.Data.Files) > 0 {
			first = deferredFor(resp)
		}
		body, err := rest.MarshalBody(first)
		if err != nil {
			a.log.Error("could not encode an answer", "interaction", a.ic.ID, "err", err)
			apology, _ := json.Marshal(refusal.Apology(command.Lang(a.ic)))
			body = []byte(`{"type":4,"data":{"content":` + string(apology) + `,"flags":64}}`)
		}
		writeHTTP(ctx, out, first.Type, body)
		if first != resp {
			kind = first.Type
		}
	}
	var raw []byte
	var err error
	if kind != 0 {
		if raw, err = a.completeDeferred(ctx, kind, resp); err != nil {
			a.log.Warn("could not complete a deferred answer", "interaction", a.ic.ID, "err", err)
			return ""
		}
	}
	if !posted {
		return ""
	}
	if raw == nil {
		if raw, err = a.original(ctx); err != nil {
			a.log.Warn("could not read the message an answer posted", "interaction", a.ic.ID, "err", err)
			return ""
		}
	}
	return a.messageID(raw)
}

// unknownFirstWait is how long untilKnown waits before it asks again
// about a message Discord did not know yet; each wait doubles, up to
// unknownLastWait.
const (
	unknownFirstWait = 100 * time.Millisecond
	unknownLastWait  = 1600 * time.Millisecond
)

// untilKnown makes a request about @original, the message an HTTP
// response made or updated, with try. Such a request follows the HTTP
// response at once and may reach Discord before Discord has taken the
// response in: an Unknown Message (10008) is asked again, a few times,
// further apart each time (3.1 s in all), unless ctx ends first.
func untilKnown(ctx context.Context, try func() ([]byte, error)) ([]byte, error) {
	for wait := unknownFirstWait; ; wait *= 2 {
		raw, err := try()
		if rest.Code(err) != 10008 || wait > unknownLastWait {
			return raw, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
	}
}

// original reads the message the HTTP response posted (@original), the
// way to learn its id, once Discord knows it (untilKnown). Given up, the
// table's message stays unrecorded until a click on it.
func (a answering) original(ctx context.Context) ([]byte, error) {
	uri := discordgo.EndpointWebhookMessage(a.ic.AppID, a.ic.Token, "@original")
	return untilKnown(ctx, func() ([]byte, error) {
		return a.do(ctx, http.MethodGet, uri, rest.TokenBucket(a.ic.Token), "GET /webhooks/{application}/{token}/messages/@original", nil, nil)
	})
}

// messageID is the id of the message raw, Discord's answer, is.
func (a answering) messageID(raw []byte) string {
	var m struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.ID == "" {
		a.log.Warn("Discord's answer names no message", "interaction", a.ic.ID, "err", err)
	}
	return m.ID
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

// completeDeferred sends resp, the answer whose deferral (kind) went
// ahead of it, its handler's (Defer) or inHTTP's for its pictures: as an
// edit of the deferral's message (the clicked message for a quiet
// acknowledgement, "thinking…" otherwise), or, for a new message after a
// quiet acknowledgement (a refusal where a page was to be turned), as a
// followup. It returns Discord's answer, the message.
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

// editDeferred edits a deferred answer into d through the interaction's
// token, with d's flags: discordgo's WebhookEdit has none, and every
// edit of a Components V2 message must say IS_COMPONENTS_V2
// (rest.WebhookEdit). Over HTTP the edit may reach Discord before the
// deferral has (untilKnown). It returns Discord's answer: the message.
func (a answering) editDeferred(ctx context.Context, d *discordgo.InteractionResponseData) ([]byte, error) {
	body := rest.WebhookEdit{WebhookEdit: discordgo.WebhookEdit{Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
		Attachments: d.Attachments, AllowedMentions: d.AllowedMentions}, Flags: d.Flags &^ discordgo.MessageFlagsEphemeral}
	uri := discordgo.EndpointWebhookMessage(a.ic.AppID, a.ic.Token, "@original")
	// Each sending reads its files from their start.
	kept, err := keepFiles(d.Files)
	if err != nil {
		return nil, err
	}
	return untilKnown(ctx, func() ([]byte, error) {
		return a.do(ctx, http.MethodPatch, uri, rest.TokenBucket(a.ic.Token), "PATCH /webhooks/{application}/{token}/messages/@original", body, kept.readers())
	})
}

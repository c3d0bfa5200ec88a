package answer

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// New returns the bot's Send, made once: it answers an interaction that
// came over HTTP in the HTTP response (out), any other through Discord's
// interaction callback route.
func New(s *discordgo.Session, log *slog.Logger) Send {
	return func(ctx context.Context, ic *discordgo.Interaction, out intake.Out, resp *discordgo.InteractionResponse, posted bool) string {
		if resp == nil {
			return ""
		}
		if out.Body != nil {
			return inHTTP(ctx, s, log, ic, out, resp, posted)
		}
		return byREST(ctx, s, log, ic, resp, posted)
	}
}

// byREST answers through Discord's interaction callback route. A
// response that posts a message whose id is wanted asks for it in
// Discord's answer (with_response), so the table message is known before
// any announcement of its table can need it.
func byREST(ctx context.Context, s *discordgo.Session, log *slog.Logger, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, posted bool) string {
	if !posted {
		if err := s.InteractionRespond(ic, resp, discordgo.WithContext(ctx)); err != nil {
			log.Warn("could not answer interaction", "interaction", ic.ID, "err", err)
		}
		return ""
	}
	endpoint := discordgo.EndpointInteractionResponse(ic.ID, ic.Token)
	body, err := s.RequestWithBucketID(http.MethodPost, endpoint+"?with_response=true", *resp, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		log.Warn("could not answer interaction", "interaction", ic.ID, "err", err)
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
		log.Warn("Discord's answer names no message", "interaction", ic.ID, "err", err)
	}
	return answer.Resource.Message.ID
}

// inHTTP answers in the HTTP response, handing its body to the request's
// goroutine (intake.Out). A response carrying files cannot go there
// (Discord takes only JSON in it), so it is deferred and then edited in
// through the interaction's token, which costs nothing of the bot token's
// rate limit.
func inHTTP(ctx context.Context, s *discordgo.Session, log *slog.Logger, ic *discordgo.Interaction, out intake.Out, resp *discordgo.InteractionResponse, posted bool) string {
	first := resp
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		first = deferredFor(resp)
	}
	body, err := json.Marshal(first)
	if err != nil {
		log.Error("could not encode an answer", "interaction", ic.ID, "err", err)
		apology, _ := json.Marshal(refusal.Apology(command.Lang(ic)))
		body = []byte(`{"type":4,"data":{"content":` + string(apology) + `,"flags":64}}`)
	}
	out.Body <- body
	<-out.Written
	var m *discordgo.Message
	if first != resp {
		d := resp.Data
		m, err = editDeferred(ctx, s, ic, d)
		if err != nil {
			log.Warn("could not complete a deferred answer", "interaction", ic.ID, "err", err)
			return ""
		}
	}
	if !posted {
		return ""
	}
	if m == nil {
		if m, err = s.InteractionResponse(ic, discordgo.WithContext(ctx)); err != nil {
			log.Warn("could not read the message an answer posted", "interaction", ic.ID, "err", err)
			return ""
		}
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

// editDeferred edits a deferred answer into d through the interaction's
// token, with d's flags: discordgo's WebhookEdit has none, and every
// edit of a Components V2 message must say IS_COMPONENTS_V2. It makes the
// request discordgo's own edit makes, with the bot's body (rest.WebhookEdit).
func editDeferred(ctx context.Context, s *discordgo.Session, ic *discordgo.Interaction, d *discordgo.InteractionResponseData) (*discordgo.Message, error) {
	body := rest.WebhookEdit{WebhookEdit: discordgo.WebhookEdit{Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
		Attachments: d.Attachments, AllowedMentions: d.AllowedMentions}, Flags: d.Flags &^ discordgo.MessageFlagsEphemeral}
	uri := discordgo.EndpointWebhookMessage(ic.AppID, ic.Token, "@original")
	var raw []byte
	var err error
	if len(d.Files) > 0 {
		contentType, multipart, merr := discordgo.MultipartBodyWithJSON(body, d.Files)
		if merr != nil {
			return nil, merr
		}
		raw, err = s.RequestRaw(http.MethodPatch, uri, contentType, multipart, uri, 0, discordgo.WithContext(ctx))
	} else {
		raw, err = s.RequestWithBucketID(http.MethodPatch, uri, body, discordgo.EndpointWebhookToken("", ""), discordgo.WithContext(ctx))
	}
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

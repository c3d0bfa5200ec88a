package story

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// A table where only interactions' tokens reach (cribbage.Table.TokenOnly:
// a group DM, a server that did not install the bot) has its story sent
// as followups of its players' interactions: Discord refuses the bot's
// own token there. Each post goes through the freshest token the bot
// holds for the table (the table message's, each open hand view's: the
// move that closed a hand is among them), within Discord's five followups
// an interaction when only a user installed the app, and while the token
// is usable. With none, the post waits: the next click at the table
// brings a token, however many days later. A followup has no enforced
// nonce, so a resend after a lost answer may show a post twice; the
// bot token's post, which has one, cannot be used there.

// maxFollowups is how many followups one interaction may make when only
// a user's install of the app authorized it.
const maxFollowups = 5

// codeFollowupsSpent is Discord's error code for a followup past the
// five an interaction may make.
const codeFollowupsSpent = 40094

// noTokenWait is how long a post waits for a usable token before it
// looks again: a click records one at once.
const noTokenWait = 2 * time.Second

// Followups counts the followups made through each token, in this
// process: the story's, and the hand views the bot sends as followups
// (one counter for both, handed to New).
type Followups struct {
	mu   sync.Mutex
	made map[string]int
}

// Take counts a followup through token, reporting false if it has had
// its five.
func (f *Followups) Take(token string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.made == nil {
		f.made = map[string]int{}
	}
	if f.made[token] >= maxFollowups {
		return false
	}
	f.made[token]++
	return true
}

// spend counts a token's followups as all made.
func (f *Followups) spend(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.made[token] = maxFollowups
}

// GiveBack uncounts a followup that was not made.
func (f *Followups) GiveBack(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.made[token]--
}

// tokensOf returns the table's tokens usable at now, the freshest first.
func (d *Deliverer) tokensOf(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, now time.Time) ([]cribbage.MessageToken, error) {
	views, err := d.store.HandViews(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	all := []cribbage.MessageToken{m.EditToken}
	for _, v := range views {
		all = append(all, v.Token)
	}
	var out []cribbage.MessageToken
	for _, tok := range all {
		if tok.Token != "" && now.Sub(tok.At) < rest.TokenUsable && !slices.ContainsFunc(out, func(o cribbage.MessageToken) bool { return o.Token == tok.Token }) {
			out = append(out, tok)
		}
	}
	slices.SortFunc(out, func(a, b cribbage.MessageToken) int { return b.At.Compare(a.At) })
	return out, nil
}

// followup sends a message as a followup of one of the table's usable
// tokens and returns it, with the token that made it (which can edit it);
// *rest.Paced when none can take it now.
func (d *Deliverer) followup(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, send *discordgo.WebhookParams) (discordgo.Message, cribbage.MessageToken, error) {
	now := d.now()
	tokens, err := d.tokensOf(ctx, t, m, now)
	if err != nil {
		return discordgo.Message{}, cribbage.MessageToken{}, err
	}
	for _, tok := range tokens {
		if !d.followups.Take(tok.Token) {
			continue
		}
		raw, err := d.rest.Do(ctx, rest.Request{Method: http.MethodPost, URL: discordgo.EndpointWebhookToken(d.appID(), tok.Token),
			Bucket: rest.TokenBucket(tok.Token), Route: "POST /webhooks/{application}/{token}", Body: send, Files: send.Files,
			Interaction: true, TokenAt: tok.At})
		var msg discordgo.Message
		if err == nil {
			err = json.Unmarshal(raw, &msg)
		}
		if err == nil || !rest.TokenRefused(err) && discordCode(err) != codeFollowupsSpent {
			if err != nil {
				d.followups.GiveBack(tok.Token)
			}
			return msg, tok, err
		}
		// Refused (expired early, or its five made by another process,
		// which this one does not count): the next token.
		d.followups.spend(tok.Token)
	}
	return discordgo.Message{}, cribbage.MessageToken{}, &rest.Paced{Until: now.Add(noTokenWait)}
}

// postFollowup sends a story message as a followup, notifying only the
// users it mentions.
func (d *Deliverer) postFollowup(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, sm render.StoryMessage) error {
	r := sm.WebhookMessage()
	_, _, err := d.followup(ctx, t, m, &discordgo.WebhookParams{Content: r.Content, Embeds: r.Embeds, Components: r.Components, Files: r.Files,
		AllowedMentions: r.AllowedMentions(), Flags: r.Flags()})
	return err
}

// openFollowup posts a table message no interaction answered with (a
// rematch, a match's next game) as a followup, and records it: a click
// on it then renews its token.
func (d *Deliverer) openFollowup(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage) error {
	l := d.speak(ctx, t)
	// Posted without its board: a followup's V2 message cannot upload
	// files (Execute Webhook), while an edit of it may. The board follows
	// at once, through the same token.
	send := render.Table(l, t, "").Send()
	msg, tok, err := d.followup(ctx, t, m, &discordgo.WebhookParams{Content: send.Content, Embeds: send.Embeds, Components: send.Components,
		AllowedMentions: send.AllowedMentions, Flags: send.Flags})
	if err != nil {
		return err
	}
	if err := d.store.SetMessages(ctx, t.ID, msg.ID, ""); err != nil {
		return err
	}
	r := render.Table(l, t, "")
	key := render.UploadBoard(l, &r, t)
	if key == "" {
		return nil
	}
	e := r.Edit("", "")
	body := rest.WebhookEdit{WebhookEdit: discordgo.WebhookEdit{Content: e.Content, Embeds: e.Embeds, Components: e.Components, Attachments: e.Attachments,
		AllowedMentions: e.AllowedMentions}, Flags: e.Flags}
	if _, err := d.rest.Do(ctx, rest.Request{Method: http.MethodPatch, URL: discordgo.EndpointWebhookMessage(d.appID(), tok.Token, msg.ID),
		Bucket: rest.TokenBucket(tok.Token), Route: "PATCH /webhooks/{application}/{token}/messages/{message}", Body: body, Files: r.Files,
		Interaction: true, TokenAt: tok.At}); err != nil {
		// The message is posted and recorded, and shows the table with
		// the scores in words. Failing it would post it again: it stays
		// without the picture, which no board is recorded for.
		return nil
	}
	return d.store.RecordBoard(ctx, t.ID, key)
}

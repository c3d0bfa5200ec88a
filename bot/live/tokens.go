package live

import (
	"context"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/bot/rest"
)

// Interaction tokens that edit the live surface. Discord lets the bot edit
// an interaction's original response through its token for 15 minutes,
// outside the 50 requests a second the bot token is allowed in all. The
// original response of /cribbage start is the table message, as is the
// message whose button a response updates (Join, Start, Claim the win);
// a hand view is the original response of the click that showed it. So
// the table message and every open view cost the bot token nothing while
// their tokens live, and the story has its budget.

// Shown is a hand view a response has just shown a player: the seat's
// view of version of the table, and the token that edits it.
type Shown struct {
	Table   int64
	Seat    int
	Version int64
	// View is the seat's view version (click.ViewVersion) it shows.
	View  string
	Token cribbage.MessageToken
	// Clicked is the text of the view the click was on (render.TextOf),
	// as Discord sent it with the click, when the answer updated that
	// view: a live edit
	// of it under way whose text it shows had landed before the click,
	// so before the answer.
	Clicked string
	// Shows is the view as the answer rendered it, if known: a pass that
	// would render the same sends nothing.
	Shows *render.Message
	// Lang is the player's language, which the edits that keep the view
	// current speak.
	Lang lang.Lang
}

// Answered records, once a response that showed a player their hand view
// is sent, the interaction's token as the one that edits that view (so no
// edit through the token can come before the response), and brings the
// table up to date if it moved on while the response was on its way.
func (s *Surface) Answered(ctx context.Context, v Shown) {
	k := seatKey{v.Table, v.Seat}
	if s.l.superseded(k, v.Token) {
		// The player opened another view after this one (its answer was
		// noted first): that one is kept current, and what this one shows
		// says nothing of it. The store would keep the newer too.
		return
	}
	// clobbered: a live edit of the view was under way and may land after
	// this response, showing an older table with its buttons. The pass
	// after it writes the view again, now rather than at the table's next
	// move (a player clicking the older buttons meanwhile was told the
	// table had moved on).
	var sum *[32]byte
	if v.Shows != nil {
		s := renderSum(*v.Shows)
		sum = &s
	}
	clobbered := s.l.answered(k, v, sum)
	if clobbered {
		defer s.Touch(v.Table)
	}
	// What the answer showed is recorded with the view, so a process that
	// starts does not edit the view to it again; unknown if clobbered. An
	// earlier click's answer noted after a later one's records nothing of
	// what the view shows: the later one's landed last.
	shown, late := "", s.l.lateAnswer(k, v.Token)
	if sum != nil && !clobbered {
		shown = SumString(*sum)
	}
	// A click on the view already recorded, whose token has long to live,
	// needs no new token: the recorded token edits the same message for
	// nine minutes more at the least, and only what the view shows is
	// recorded. The click's own token is recorded all the same when the
	// view must be written again: the edit under way has just used the
	// recorded token's turn (tokenEditGap).
	if clobbered || !s.l.recordedFresh(k, v.Token) {
		if err := s.opts.Store.RecordHandView(ctx, v.Table, cribbage.HandView{Seat: v.Seat, Version: v.Version, Shown: shown, Token: v.Token, Lang: v.Lang.Code()}); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("could not record a hand view", "table", v.Table, "err", err)
			}
			return
		}
		s.l.record(k, v.Token, v.Version)
	} else if !late {
		s.recordViewShown(ctx, v.Table, v.Seat, v.Token, v.Version, shown)
	}
	// The table may have moved on while the response was on its way, or
	// its message be behind (another process made the change and did not
	// live to show it): then both are brought up to date. A message behind
	// needs no pass of its own while a pass over the table is to show
	// this version (passing): that pass shows the table as it reads it.
	// Every change this process makes after the read touches the table
	// again (Moved), which runs another pass after it. At 900 tables such
	// a second pass came after 0.4 of the moves, and found nothing to do.
	if now, err := s.opts.Store.TableVersion(ctx, v.Table); err == nil && (now != v.Version || s.l.behind(v.Table, now) && !s.l.passing(v.Table, now)) {
		s.Touch(v.Table)
	}
}

// handTokenRenew is how old a seat's recorded token may grow before a
// click on the same view records the click's newer token.
const handTokenRenew = 5 * time.Minute

// EditToken records tok as one that edits the table message. Failing to
// is harmless: the bot token edits the message instead. The table checks,
// when it uses the token, that the message is its own, and stops using it
// a minute before it would expire.
func (s *Surface) EditToken(ctx context.Context, table int64, tok cribbage.MessageToken) {
	if err := s.opts.Store.RecordEditToken(ctx, table, tok); err != nil && ctx.Err() == nil {
		s.log.Warn("could not record an edit token", "table", table, "err", err)
	}
}

// editTableMessage edits the table message, m, to what draw renders:
// through its live interaction token if viaToken, with the bot token
// otherwise, or when Discord no longer takes the token. It returns the key
// of the board the message now shows. draw is called for each attempt,
// since a request consumes the files it uploads: a retry with the bot
// token after the token was refused carries its own board.
func (s *Surface) editTableMessage(ctx context.Context, t *cribbage.Table, m cribbage.TableMessage, viaToken bool, draw func() (render.Message, string)) (string, error) {
	if tok := m.EditToken; viaToken {
		if next, ok := s.l.spaced(rest.TokenBucket(tok.Token), s.opts.Now()); !ok {
			return m.Board, &rest.Paced{Until: next}
		}
		r, key := draw()
		err := s.editThroughToken(ctx, tok, r)
		if err == nil || !rest.TokenRefused(err) {
			return key, err
		}
		// Discord refused a token the bot's clock holds usable (its clock
		// ahead of ours, or the token revoked): it is not tried again, or
		// every move would spend a refused request on it (a 401 counts
		// against Discord's invalid requests) before the bot token's edit.
		// That edit keeps the bot token's spacing and budget, as any
		// other edit of the message with it does.
		s.l.refuseToken(t.ID, tok.Token)
		if t.TokenOnly {
			// No bot token where only tokens reach: the next click
			// brings one.
			return m.Board, nil
		}
		s.log.Info("live: the table's edit token was refused; editing with the bot token", "table", t.ID, "err", err)
		if until, ok := s.l.takeBotEdit(t.ID, s.opts.Now()); !ok {
			return m.Board, &rest.Paced{Until: until}
		}
	}
	r, key := draw()
	e := r.Edit(t.ChannelID, m.MessageID)
	_, err := s.opts.REST.Do(ctx, rest.Request{Method: http.MethodPatch, URL: discordgo.EndpointChannelMessage(t.ChannelID, m.MessageID),
		Bucket: rest.EditBucket(t.ChannelID), Route: "PATCH /channels/{channel}/messages/{message}", Body: e, Files: e.Files})
	return key, err
}

// editThroughToken edits an interaction's original response through its
// token: outside the bot token's global limit, in the token's own bucket.
// The body is the bot's own (rest.WebhookEdit): a V2 message's edit must
// carry the flag, which discordgo's WebhookEdit cannot.
func (s *Surface) editThroughToken(ctx context.Context, tok cribbage.MessageToken, r render.Message) error {
	e := r.Edit("", "")
	body := rest.WebhookEdit{WebhookEdit: discordgo.WebhookEdit{Content: e.Content, Embeds: e.Embeds, Components: e.Components, Attachments: e.Attachments, AllowedMentions: e.AllowedMentions},
		Flags: e.Flags}
	_, err := s.opts.REST.Do(ctx, rest.Request{Method: http.MethodPatch, URL: discordgo.EndpointWebhookMessage(s.opts.AppID(), tok.Token, "@original"),
		Bucket: rest.TokenBucket(tok.Token), Route: "PATCH /webhooks/{application}/{token}/messages/@original", Body: body, Files: r.Files,
		Interaction: true, TokenAt: tok.At})
	return err
}

// tokenEdits reports whether token m may edit message id at now: it is
// that message's token and rest.TokenUsable has not passed since its
// interaction.
func tokenEdits(m cribbage.MessageToken, id string, now time.Time) bool {
	return m.Token != "" && id != "" && m.MessageID == id && now.Sub(m.At) < rest.TokenUsable
}

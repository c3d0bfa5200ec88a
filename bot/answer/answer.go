// Package answer sends an interaction's initial response, over REST when
// the interaction came through the gateway and in the HTTP response when
// it came to the interactions endpoint, and then hands the live surface
// the tokens that can edit what the response showed.
//
// Discord lets the bot edit an interaction's original response through its
// token for 15 minutes, outside the 50 requests a second the bot token is
// allowed in all. The original response of /cribbage start is the table
// message, as is the message whose button a response updates (Join, Start,
// Claim the win); a hand view is the original response of the click that
// showed it. So the table message and every open view cost the bot token
// nothing while their tokens live, and the story has its budget.
package answer

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/intake"
	"github.com/cribbage-bot/cribbage/bot/live"
	"github.com/cribbage-bot/cribbage/bot/render"
)

// Reply is a handler's answer to an interaction.
type Reply struct {
	Resp *discordgo.InteractionResponse
	// TableMessage, when set, is the table whose message the response
	// posts: its id is recorded from Discord's answer.
	TableMessage int64
	// Hand, when set, is the seat's hand view the response shows; the
	// interaction's token becomes the one that edits it (Hand.Token and
	// Hand.Clicked are filled in here).
	Hand *live.Shown
	// Table, when set, is the table message as the response renders it.
	Table *TableShown
}

// TableShown is a table and its message as a response renders it, and
// the id of the table's message as the change read it ("" for a message
// the response posts). When the response posts that message, or updates
// it in place (a click on it), the live surface records what it shows,
// so that no pass edits it to that again.
type TableShown struct {
	Table     *cribbage.Table
	Render    render.Message
	MessageID string
}

// Send sends an interaction's answer: its initial response, in the HTTP
// response when out carries one (intake.Out), or, when its handler
// deferred it (Defer), the edit or followup that completes the deferral.
// It returns the id of the message it posted when posted is asked for
// ("" if it is not, or cannot be learnt).
type Send func(ctx context.Context, ic *discordgo.Interaction, out intake.Out, resp *discordgo.InteractionResponse, posted bool) string

// Store records a table's message.
type Store interface {
	RecordTableMessage(ctx context.Context, table int64, messageID string) error
}

// Tokens hands the live surface, once an interaction is answered, the
// tokens that can edit what its answer showed.
type Tokens struct {
	Store Store
	Live  *live.Surface
	Log   *slog.Logger
}

// Settle waits, before rep is sent, for a live edit under way of the
// message rep's answer updates in place (the clicked hand view, or the
// table message): the answer then lands after it, and is what the message
// shows (live.SettleView).
func (tk Tokens) Settle(ctx context.Context, ic *discordgo.Interaction, rep Reply) {
	if rep.Resp == nil || rep.Resp.Type != discordgo.InteractionResponseUpdateMessage || ic.Message == nil {
		return
	}
	if h := rep.Hand; h != nil && ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		tk.Live.SettleView(ctx, h.Table, h.Seat, ic.Message.ID, render.TextOf(ic.Message))
	}
	if s := rep.Table; s != nil && s.MessageID != "" && ic.Message.ID == s.MessageID {
		tk.Live.SettleTable(ctx, s.Table.ID)
	}
}

// Sent records what rep, answered to ic, showed: the table message it
// posted (postedID, from Discord's answer), the message a click updated,
// and the hand view it showed. Each token is dated arrived, when ic
// arrived on the bot's clock: its life counts from then (Discord made it
// moments before), and of a seat's views, or a table message's tokens, the
// store keeps the newest by that date. Dated when the answer had been
// sent, a click answered slowly outdated a later one answered quickly: a
// player who played a card from one view and at once opened another had
// the older view recorded, and kept current, while the one they looked at
// stood still.
func (tk Tokens) Sent(ctx context.Context, ic *discordgo.Interaction, rep Reply, postedID string, arrived time.Time) {
	token := func(messageID string) cribbage.MessageToken {
		return cribbage.MessageToken{MessageID: messageID, Token: ic.Token, At: arrived}
	}
	if rep.TableMessage != 0 && postedID != "" {
		if err := tk.Store.RecordTableMessage(ctx, rep.TableMessage, postedID); err != nil {
			tk.Log.Error("could not record the table message", "interaction", ic.ID, "table", rep.TableMessage, "err", err)
		} else {
			tk.Live.EditToken(ctx, rep.TableMessage, token(postedID))
		}
	}
	resp := rep.Resp
	if resp == nil {
		return
	}
	if s := rep.Table; s != nil {
		posted := resp.Type == discordgo.InteractionResponseChannelMessageWithSource && rep.TableMessage == s.Table.ID
		updated := resp.Type == discordgo.InteractionResponseUpdateMessage && ic.Message != nil && s.MessageID != "" && ic.Message.ID == s.MessageID
		if posted || updated {
			tk.Live.TableAnswered(s.Table, s.Render)
		}
	}
	// A click on a public message answered by updating it: the click's
	// token can edit that message.
	if ic.Type == discordgo.InteractionMessageComponent && ic.Message != nil && ic.Message.Flags&discordgo.MessageFlagsEphemeral == 0 &&
		(resp.Type == discordgo.InteractionResponseUpdateMessage || resp.Type == discordgo.InteractionResponseDeferredMessageUpdate) {
		if c, err := click.Parse(ic.MessageComponentData().CustomID); err == nil && c.Table != 0 {
			tk.Live.EditToken(ctx, c.Table, token(ic.Message.ID))
		}
	}
	// A hand view, shown as a new private message (the token's original
	// response) or in place of the view the click was on (which an update
	// makes the original response).
	if rep.Hand == nil || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		return
	}
	id, clicked := "", ""
	switch resp.Type {
	case discordgo.InteractionResponseUpdateMessage:
		if ic.Message == nil {
			return
		}
		// A V2 view's words are in its text displays, not its content.
		id, clicked = ic.Message.ID, render.TextOf(ic.Message)
	case discordgo.InteractionResponseChannelMessageWithSource:
	default:
		return
	}
	v := *rep.Hand
	v.Token, v.Clicked = token(id), clicked
	tk.Live.Answered(ctx, v)
}

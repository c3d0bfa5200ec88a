package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/live"
)

// After an interaction is answered, the tokens that can edit what the
// answer showed are handed to the live surface. Discord lets the bot edit
// an interaction's original response through its token for 15 minutes,
// outside the 50 requests a second the bot token is allowed in all. The
// original response of /cribbage start is the table message, as is the
// message whose button a response updates (Join, Start, Claim the win);
// a hand view is the original response of the click that showed it. So
// the table message and every open view cost the bot token nothing while
// their tokens live, and the story has its budget.

// noteEditToken records, after a click on a public message has been
// answered by updating that message, the click's token as one that can
// edit the message.
func (b *Bot) noteEditToken(ctx context.Context, ic *discordgo.Interaction, resp *discordgo.InteractionResponse, arrived time.Time) {
	if ic.Type != discordgo.InteractionMessageComponent || ic.Message == nil || ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0 ||
		resp == nil || (resp.Type != discordgo.InteractionResponseUpdateMessage && resp.Type != discordgo.InteractionResponseDeferredMessageUpdate) {
		return
	}
	c, err := click.Parse(ic.MessageComponentData().CustomID)
	if err != nil || c.Table == 0 {
		return
	}
	b.live.EditToken(ctx, c.Table, b.token(ic, ic.Message.ID, arrived))
}

// noteHandView hands the live surface, after a response that showed a
// player their hand view, the interaction's token as the one that edits
// that view: a new private message (the token's original response) or the
// view the click was on (which an update makes the original response).
func (b *Bot) noteHandView(ctx context.Context, ic *discordgo.Interaction, rep reply, arrived time.Time) {
	if rep.hand == nil || rep.resp == nil || rep.resp.Data == nil || rep.resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		return
	}
	id, clicked := "", ""
	switch rep.resp.Type {
	case discordgo.InteractionResponseUpdateMessage:
		if ic.Message == nil {
			return
		}
		id, clicked = ic.Message.ID, ic.Message.Content
	case discordgo.InteractionResponseChannelMessageWithSource:
	default:
		return
	}
	h := rep.hand
	b.live.Answered(ctx, live.Shown{Table: h.table, Seat: h.seat, Version: h.version, View: h.view, Token: b.token(ic, id, arrived), Clicked: clicked, Shows: &h.shows})
}

// noteTableShown records, after an answer that posted a table's message
// or updated it in place (a click on it), what the answer showed as what
// the message shows, so that no pass edits it to that again.
func (b *Bot) noteTableShown(ic *discordgo.Interaction, rep reply) {
	s := rep.table
	if s == nil || rep.resp == nil {
		return
	}
	posted := rep.resp.Type == discordgo.InteractionResponseChannelMessageWithSource && rep.tableMessage == s.table.ID
	updated := rep.resp.Type == discordgo.InteractionResponseUpdateMessage && ic.Message != nil && ic.Message.ID == s.table.MessageID
	if posted || updated {
		b.live.TableAnswered(s.table, s.render)
	}
}

// token is ic's token as one that edits message id, dated when ic
// arrived: its life counts from then (Discord made it moments before), and
// of a seat's views, or a table message's tokens, the store keeps the
// newest by that date. Dated when the answer had been sent, a click
// answered slowly outdated a later one answered quickly: a player who
// played a card from one view and at once opened another had the older
// view recorded, and kept current, while the one they looked at stood
// still.
func (b *Bot) token(ic *discordgo.Interaction, id string, arrived time.Time) cribbage.MessageToken {
	return cribbage.MessageToken{MessageID: id, Token: ic.Token, At: arrived}
}

package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/live"
	"github.com/cribbage-bot/cribbage/bot/refusal"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// handView answers with a seat's hand view, in the clicker's language l
// (command.Lang): in place when the click came from the user's own hand
// view, as a new private message otherwise. The interaction's token then
// edits that view as the table moves on (bot/live), so the player sees
// the others' moves without pressing Refresh.
func handView(l lang.Lang, ic *discordgo.Interaction, t *cribbage.Table, seat int, selected engine.CardSet, lead string, note render.Note) reply {
	typ := discordgo.InteractionResponseChannelMessageWithSource
	if ic.Message != nil && ic.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		typ = discordgo.InteractionResponseUpdateMessage
	}
	r := render.Answer(l, t, seat, selected, lead, note)
	return reply{resp: &discordgo.InteractionResponse{Type: typ, Data: r.Data},
		hand: &live.Shown{Table: t.ID, Seat: seat, Version: t.Version, View: r.View, Shows: &r.Message, Lang: l}}
}

// seatedTable loads a table with a game on and the user's seat in it.
func (b *Bot) seatedTable(ctx context.Context, ic *discordgo.Interaction, id int64) (*cribbage.Table, int, error) {
	t, err := b.store.Table(ctx, id)
	if err != nil {
		return nil, -1, err
	}
	if err := b.place.Check(ctx, ic, t); err != nil {
		return nil, -1, err
	}
	uid, _ := command.User(ic)
	seat := t.SeatOf(uid)
	switch {
	case t.Status == cribbage.StatusCancelled:
		// Its cards and buttons are no use now.
		return nil, -1, &refusal.CancelledError{ID: t.ID, By: t.CancelledBy, Reason: t.CancelReason}
	case seat < 0 && !t.Status.Open():
		// Not "join it": there is nothing left to join.
		return nil, -1, checkOpen(t)
	case seat < 0:
		return nil, -1, cribbage.ErrNotSeated
	case t.State == nil:
		return nil, -1, cribbage.ErrNotPlaying
	}
	return t, seat, nil
}

// clickHand is Show my hand (a new private message) and Refresh (in place).
func (b *Bot) clickHand(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	if t.TokenOnly && (ic.Message == nil || ic.Message.Flags&discordgo.MessageFlagsEphemeral == 0) {
		return b.handByFollowup(ctx, ic, t, seat)
	}
	return handView(command.Lang(ic), ic, t, seat, 0, "", nil), nil
}

// cmdHand shows the user's hand at their table in this channel.
func (b *Bot) cmdHand(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool { return t.Status == cribbage.StatusPlaying }, false)
	if err != nil {
		return reply{}, err
	}
	t, seat, err := b.seatedTable(ctx, ic, id)
	if err != nil {
		return reply{}, err
	}
	return handView(command.Lang(ic), ic, t, seat, 0, "", nil), nil
}

// clickSelect toggles a card for the crib: only the view changes, so
// nothing is stored until Confirm.
func (b *Bot) clickSelect(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	l := command.Lang(ic)
	if click.SeatView(t.State, seat) != c.View {
		return handView(l, ic, t, seat, 0, refusal.Text(l, refusal.ErrStaleView), nil), nil
	}
	return handView(l, ic, t, seat, c.Cards, "", nil), nil
}

// act makes a seat's move, a (whose Seat is the clicker's), and answers
// with the hand view after it. A refusal the player can act on is shown
// on their hand view as it is now.
func (b *Bot) act(ctx context.Context, ic *discordgo.Interaction, c click.ID, a engine.Action) (reply, error) {
	done, err := b.change(ctx, c.Table, changeOf{ic: ic, seated: true, view: c.View, move: &a})
	if err != nil {
		return b.refusal(ctx, ic, c, err)
	}
	// What the move did, and what the computers did after it, above the
	// cards: against the computer, its reply is read where the next card
	// is chosen.
	return handView(done.asker, ic, done.table, done.seat, 0, "", done.note), nil
}

// refusal answers a refused move: on the player's own hand view, with the
// reason, when they are seated; as a plain private message otherwise.
func (b *Bot) refusal(ctx context.Context, ic *discordgo.Interaction, c click.ID, cause error) (reply, error) {
	msg, known := refusal.Words(command.Lang(ic), cause)
	if !known || errors.Is(cause, cribbage.ErrNotSeated) || errors.Is(cause, cribbage.ErrNotFound) || errors.Is(cause, cribbage.ErrDuplicate) {
		return reply{}, cause
	}
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, cause
	}
	return handView(command.Lang(ic), ic, t, seat, 0, "⚠️ "+msg, nil), nil
}

// clickDiscard confirms the throw to the crib.
func (b *Bot) clickDiscard(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return b.act(ctx, ic, c, engine.Action{Kind: engine.ActDiscard, Cards: c.Cards.Cards()})
}

// clickPlay lays a card.
func (b *Bot) clickPlay(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return b.act(ctx, ic, c, engine.Action{Kind: engine.ActPlay, Card: c.Card})
}

// clickMuggins takes points an opponent missed.
func (b *Bot) clickMuggins(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	return b.act(ctx, ic, c, engine.Action{Kind: engine.ActMuggins, Index: c.Index})
}

// clickClaim opens the claim form for the seat whose count it is.
func (b *Bot) clickClaim(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	t, seat, err := b.seatedTable(ctx, ic, c.Table)
	if err != nil {
		return reply{}, err
	}
	l := command.Lang(ic)
	if click.SeatView(t.State, seat) != c.View {
		return handView(l, ic, t, seat, 0, refusal.Text(l, refusal.ErrStaleView), nil), nil
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: render.ClaimModal(l, t, c.View)}}, nil
}

// clickClaimed takes the number from the claim form.
func (b *Bot) clickClaimed(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	points, err := claimedPoints(ic)
	if err != nil {
		return b.refusal(ctx, ic, c, err)
	}
	return b.act(ctx, ic, c, engine.Action{Kind: engine.ActClaim, Points: points})
}

// claimedPoints reads the points field of the claim form.
func claimedPoints(ic *discordgo.Interaction) (int, error) {
	for _, row := range ic.ModalSubmitData().Components {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, comp := range r.Components {
			if in, ok := comp.(*discordgo.TextInput); ok && in.CustomID == "points" {
				// The range is the engine's to check (engine.ErrBadClaim).
				n, err := strconv.Atoi(strings.TrimSpace(in.Value))
				if err != nil {
					return 0, refusal.ErrBadClaim
				}
				return n, nil
			}
		}
	}
	return 0, refusal.ErrBadClaim
}

// clickDeal is the dealer dealing the next hand (at muggins tables, where
// the deal waits for a person so that muggins can be called before it).
func (b *Bot) clickDeal(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	done, err := b.play(ctx, ic, c.Table, "", func(t *cribbage.Table, seat int) (engine.Action, error) {
		if t.State.Phase != engine.PhaseDeal {
			return engine.Action{}, engine.ErrWrongPhase
		}
		if seat != t.State.Dealer {
			return engine.Action{}, refusal.ErrNotDealer
		}
		s := b.seeds()
		return engine.Action{Kind: engine.ActDeal, Seat: seat, Seed: &s}, nil
	})
	if err != nil {
		return reply{}, err
	}
	l := command.Lang(ic)
	return handView(l, ic, done.table, done.seat, 0, l.T("answer.dealt", "N", done.table.State.HandNo), nil), nil
}

// cmdResign asks for confirmation before conceding.
func (b *Bot) cmdResign(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.place.Pick(ctx, ic, func(t *cribbage.Table, uid string) bool { return t.Status == cribbage.StatusPlaying }, false)
	if err != nil {
		return reply{}, err
	}
	t, _, err := b.seatedTable(ctx, ic, id)
	if err != nil {
		return reply{}, err
	}
	// A game over has nothing to concede: no confirmation to press.
	if err := checkOpen(t); err != nil {
		return reply{}, err
	}
	l := command.Lang(ic)
	key := "resign.confirm"
	if t.Options.Partners {
		key = "resign.confirm-partners"
	}
	text := l.T(key, "ID", t.ID)
	buttons := []discordgo.MessageComponent{discordgo.Button{Label: l.T("button.resign"), Style: discordgo.DangerButton, CustomID: click.ID{Action: click.Resign, Table: t.ID}.String()}}
	if t.Match != nil {
		// A game of a match resigns that game alone, and the match goes on;
		// or the whole match goes with it.
		text = l.T("resign.confirm-match", "ID", t.ID)
		buttons = []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("button.resign-game"), Style: discordgo.DangerButton, CustomID: click.ID{Action: click.Resign, Table: t.ID}.String()},
			discordgo.Button{Label: l.T("button.resign-match"), Style: discordgo.DangerButton, CustomID: click.ID{Action: click.ResignMatch, Table: t.ID}.String()},
		}
	}
	r := render.Ephemeral(text)
	r.Data.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
	return reply{resp: r}, nil
}

// clickResign concedes after the confirmation.
func (b *Bot) clickResign(ctx context.Context, ic *discordgo.Interaction, c click.ID) (reply, error) {
	done, err := b.play(ctx, ic, c.Table, "", func(t *cribbage.Table, seat int) (engine.Action, error) {
		return engine.Action{Kind: engine.ActResign, Seat: seat}, nil
	})
	if err != nil {
		return reply{}, err
	}
	t := done.table
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: render.Notice(command.Lang(ic).T("answer.resigned", "ID", t.ID)).Response(true)}}, nil
}

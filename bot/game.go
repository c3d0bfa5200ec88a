package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// applyAction is one seat's move in one store update: check the table is
// where the interaction was made, the seat and its view version, apply the
// engine action, let the table advance, and queue the story; then show the
// change on the live surface. build chooses the action from the current
// table; view is "" where no view version applies. It returns what the
// move did, in words.
func (b *Bot) applyAction(ctx context.Context, ic *discordgo.Interaction, tableID int64, view string, build func(t *cribbage.Table, seat int) (engine.Action, error)) (*cribbage.Table, int, []string, error) {
	userID, _ := user(ic)
	defer b.locks.lock(tableID)()
	seat := -1
	var note []string
	t, err := b.store.Update(ctx, tableID, ic.ID, func(t *cribbage.Table) (*cribbage.Change, error) {
		if err := checkHere(t, ic); err != nil {
			return nil, err
		}
		if t.Status != cribbage.StatusPlaying {
			return nil, errNotPlaying
		}
		if seat = t.SeatOf(userID); seat < 0 {
			return nil, errNotSeated
		}
		if view != "" && viewVersion(t.State.ViewFor(seat)) != view {
			return nil, errStaleView
		}
		a, err := build(t, seat)
		if err != nil {
			return nil, err
		}
		g, events, err := t.State.Apply(a)
		if err != nil {
			return nil, err
		}
		g, actions, events, err := cribbage.Advance(t, g, b.seeds, []cribbage.LoggedAction{{UserID: userID, Action: a}}, events)
		if err != nil {
			return nil, err
		}
		note = moveNote(t, events)
		return b.changeFor(t, g, actions, events), nil
	})
	if err != nil {
		return nil, seat, nil, err
	}
	b.moved(t, note)
	return t, seat, note, nil
}

// changeFor saves g as the table's game and queues its story. The table
// message and hand views are not queued: the process that made the change
// shows it at once (live.go); if it dies first, a restart shows every open
// table, and any hand view another process answers at the table brings
// the table message up to date.
func (b *Bot) changeFor(t *cribbage.Table, g *engine.State, actions []cribbage.LoggedAction, events []engine.Event) *cribbage.Change {
	t.SetGame(g, b.now())
	return &cribbage.Change{Table: t, Actions: actions, Outbox: storyPosts(t, events)}
}

// startGame turns a full lobby into a game: the cut for deal from a fresh
// seed, then the first deal.
func (b *Bot) startGame(t *cribbage.Table) (*cribbage.Change, error) {
	seed := b.seeds()
	g, events, err := engine.New(t.Options, seed)
	if err != nil {
		return nil, err
	}
	g, actions, events, err := cribbage.Advance(t, g, b.seeds, nil, events)
	if err != nil {
		return nil, err
	}
	t.Status, t.CutSeed = cribbage.StatusPlaying, &seed
	ch := b.changeFor(t, g, actions, events)
	// The table message turns from the lobby to the game: the click that
	// filled the last seat updates it in place, but a /cribbage join
	// answers privately, so the sender shows it (a table refresh is
	// handed to the live surface at once).
	ch.Outbox = append(append([]cribbage.Outbound{{ChannelID: t.ChannelID, Kind: kindThread}}, ch.Outbox...),
		cribbage.Outbound{ChannelID: t.ChannelID, Kind: kindTable})
	return ch, nil
}

package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// env is what the domain's moves take from the bot: its clock and seeds,
// the computer players, and the story's words for what happened.
func (b *Bot) env() cribbage.Env {
	return cribbage.Env{Now: b.now(), Seeds: b.seeds, Computers: b.opts.Computers, Announce: storyPosts, ComputerName: computerName, Introduce: introduce}
}

// applyAction is one seat's move in one store update: check the table is
// where the interaction was made and the seat's view version, let build
// choose the action from the current table, and make the move
// (cribbage.Move); then show the change on the live surface. view is ""
// where no view version applies. It returns what the move did, in words.
//
// The table message and hand views are not queued with the change: the
// process that made it shows it at once (live.go); if it dies first, a
// restart shows every open table, and any hand view another process
// answers at the table brings the table message up to date.
func (b *Bot) applyAction(ctx context.Context, ic *discordgo.Interaction, tableID int64, view string, build func(t *cribbage.Table, seat int) (engine.Action, error)) (*cribbage.Table, int, []string, error) {
	return b.applyMove(ctx, ic, tableID, view, func(t *cribbage.Table, seat int) (*cribbage.Change, []engine.Event, error) {
		a, err := build(t, seat)
		if err != nil {
			return nil, nil, err
		}
		return cribbage.Move(t, a, b.env())
	})
}

// applyMove is applyAction with the move made by move: a seat's action
// (cribbage.Move), or another of the domain's moves, such as resigning a
// match.
func (b *Bot) applyMove(ctx context.Context, ic *discordgo.Interaction, tableID int64, view string, move func(t *cribbage.Table, seat int) (*cribbage.Change, []engine.Event, error)) (*cribbage.Table, int, []string, error) {
	userID, _ := user(ic)
	defer b.locks.lock(tableID)()
	seat := -1
	var note []string
	t, err := b.store.Update(ctx, tableID, ic.ID, func(t *cribbage.Table) (*cribbage.Change, error) {
		if err := checkHere(t, ic); err != nil {
			return nil, err
		}
		if t.Status != cribbage.StatusPlaying {
			return nil, cribbage.ErrNotPlaying
		}
		if seat = t.SeatOf(userID); seat < 0 {
			return nil, cribbage.ErrNotSeated
		}
		if view != "" && viewVersion(t.State.ViewFor(seat)) != view {
			return nil, errStaleView
		}
		ch, events, err := move(t, seat)
		if err != nil {
			return nil, err
		}
		note = moveNote(t, events)
		return ch, nil
	})
	if err != nil {
		return nil, seat, nil, err
	}
	b.moved(t, note)
	return t, seat, note, nil
}
